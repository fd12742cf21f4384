"""Sessions never stop silently: a stated stop reason for every session (budget, done, site_unreachable,
interrupted, login_lost), failed fetches retried and never counted as visits, self-links that cannot
trap a policy, and a SIGTERM before the first step that leaves a store `resume` accepts."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

from bughunt.cli import main
from bughunt.explorer.config import SessionConfig
from bughunt.explorer.engine import LoginLost
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.policies import Choice, Decision
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.summary import summary
from tests.support import loopback

# A small site: a chain of pages behind a start page, and a DEBUG-style 500 page whose only link is `#`.
PAGES: dict[str, list[str]] = {
    "/": ["/boom", "/a"],
    "/boom": ["#"],
    "/a": ["/a#top", "/b"],
    "/b": ["/c", "#"],
    "/c": ["/d"],
    "/d": ["/e"],
    "/e": ["/"],
}


class _Handler(loopback.QuietHandler):
    walled_after: int | None = None
    served = 0

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        cls = type(self)
        cls.served += 1
        path = self.path.split("#")[0]
        if cls.walled_after is not None and cls.served > cls.walled_after:
            self.reply(401, "<html><body>sign in first</body></html>")
            return
        if path not in PAGES:
            self.reply(404, "<html><body>no</body></html>")
            return
        links = "".join(f'<a href="{h}">{h}</a> ' for h in PAGES[path])
        if path == "/boom":
            body = f"<html><body><h1>Traceback (most recent call last)</h1><pre>KeyError</pre>{links}</body></html>"
            self.reply(500, body)
            return
        self.reply(200, f"<html><head><title>{path}</title></head><body><main>{links}</main></body></html>")


def start_server(port: int = 0) -> loopback.LoopbackServer:
    return loopback.start(_Handler, port)


stop_server = loopback.stop


@contextmanager
def serving(port: int = 0) -> Iterator[int]:
    server = start_server(port)
    try:
        yield server.server_address[1]
    finally:
        stop_server(server)


def _session(
    url: str, store_dir: Path, budget: int, *, policy: str = "planner", on_step: Callable | None = None,
    **config: object,
) -> tuple[dict, list[dict]]:  # fmt: skip
    store = ExplorerStore(store_dir)
    try:
        fetcher = HttpEngine(url, timeout=2.0, respect_robots=False)
        cfg = SessionConfig(budget=budget, retries=1, retry_backoff_s=0.01, **config)  # type: ignore[arg-type]
        with make_policy(policy, store=store) as p:
            result = Explorer(store, fetcher, p, cfg, on_step=on_step, sleep=lambda s: None).run()
        return summary(store, result), [asdict(s) for s in store.history.steps()]
    finally:
        store.close()


def test_a_self_linking_error_page_neither_counts_as_progress_nor_ends_the_session(tmp_path):
    _Handler.walled_after = None
    with serving() as port:
        data, steps = _session(f"http://127.0.0.1:{port}/", tmp_path / "s", budget=100)
    assert set(data["pages_visited"]) == set(PAGES), "every page, the ones behind the error page too"
    assert data["stop_reason"] == "done" and data["clicks_left"] == 100 - data["clicks"]
    clicked = [s["route"] for s in steps]
    assert clicked.count("/boom") == 1, "the `#` link of the error page is never clicked"
    assert all(a != b for a, b in zip(clicked, clicked[1:], strict=False)), "no click onto the page itself"
    assert any(b["route"] == "/boom" and b["kind"] == "server_error" for b in data["bugs"])


class _Quitter:
    """A policy that always says it is done (as a view smaller than memory, or a model, may)."""

    name = "quitter"
    uses_model = False
    reads_templates = False

    def choose(self, decision: Decision) -> Choice:
        return Choice(None)

    def archive(self, site_map: str, bug_lines: list[str]) -> None:
        pass


def test_a_policy_that_stops_early_is_walked_to_the_known_unvisited_pages(tmp_path):
    _Handler.walled_after = None
    with serving() as port:
        store = ExplorerStore(tmp_path / "s")
        fetcher = HttpEngine(f"http://127.0.0.1:{port}/", respect_robots=False)
        result = Explorer(store, fetcher, _Quitter(), SessionConfig(budget=40)).run()
        data = summary(store, result)
        store.close()
    # Nothing is known beyond the start page's links until they are visited: the harness travels
    # (through the start page when it must) until memory knows nothing more.
    assert set(data["pages_visited"]) == set(PAGES) and data["stop_reason"] == "done"


def test_an_outage_mid_session_is_not_remembered_as_visits_and_resume_explores_the_failed_pages(tmp_path):
    _Handler.walled_after = None
    store_dir = tmp_path / "s"
    server = start_server()
    port = server.server_address[1]
    url = f"http://127.0.0.1:{port}/"

    def outage_after_the_third_step(out: object) -> None:
        if getattr(out, "n", 0) == 3:
            stop_server(server)

    data, steps = _session(url, store_dir, budget=20, on_step=outage_after_the_third_step)
    assert data["stop_reason"] == "site_unreachable"
    failed = [s for s in steps if s["outcome"] in ("network_error", "timeout")]
    assert failed and {s["detail"] for s in failed} == {"connect_failed"}
    loaded = [s for s in steps if s["outcome"] == "page"]
    assert len(loaded) == 3 and data["clicks"] == len(steps) - 1, "the landing is not a click"
    assert set(data["pages_visited"]) == {s["route"] for s in loaded}, "only pages that loaded are visited"
    assert not {s["route"] for s in failed} & set(data["pages_visited"])
    assert data["fetches"] == len(loaded) + 2 * len(failed), "each failed click was tried twice (one retry)"
    store = ExplorerStore(store_dir)
    outcomes = {r["outcome"] for r in store.db.execute("SELECT outcome FROM pages")}
    status = store.history.sessions()[-1].status
    store.close()
    assert outcomes == {"page"} and status == "site_unreachable"
    with serving(port):  # the site is back, on the same address
        again, _ = _session(url, store_dir, budget=20)
    assert set(again["pages_visited"]) == set(PAGES), "the pages that failed are explored after resume"
    assert again["stop_reason"] == "done" and again["session"] == "session-2"


def test_site_unreachable_exits_1_with_the_reason_in_json(tmp_path, capsys):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code = main(["explore", "--url", f"http://127.0.0.1:{port}/", "--store", str(tmp_path / "s"), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["stop_reason"] == "site_unreachable" and data["clicks_left"] == 30
    assert data["pages_visited"] == [] and data["counts"]["pages_visited"] == 0


def test_rerunning_the_main_job_says_why_it_did_nothing_and_a_huge_budget_says_done(tmp_path, capsys):
    store = str(tmp_path / "s")
    assert main(["explore", "--builtin-site", "--store", store, "--budget", "100000", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["stop_reason"] == "done" and first["clicks"] <= 40 and first["coverage"] == 1.0
    assert first["clicks_left"] == 100000 - first["clicks"]
    assert main(["explore", "--builtin-site", "--store", store]) == 0
    text = capsys.readouterr().out
    assert "session-2: 0 clicks" in text
    assert "stopped: done (nothing left that memory knows" in text and "30 clicks left" in text
    con = sqlite3.connect(Path(store) / "bughunt.sqlite")
    rows = con.execute("SELECT name, status, clicks FROM sessions ORDER BY id").fetchall()
    con.close()
    assert rows == [("session-1", "done", first["clicks"]), ("session-2", "done", 0)]


class _LosingEngine(HttpEngine):
    """The engine's contract: a login wall after its allowed re-logins raises `LoginLost`."""

    def fetch(self, route: str, referer: str | None = None):  # type: ignore[no-untyped-def]
        result = super().fetch(route, referer)
        if result.outcome == "login_wall":
            raise LoginLost(f"{result.route}: login wall after the allowed re-logins")
        return result


def test_a_login_lost_mid_session_is_a_stated_stop(tmp_path):
    _Handler.walled_after, _Handler.served = 4, 0
    try:
        with serving() as port:
            store = ExplorerStore(tmp_path / "s")
            fetcher = _LosingEngine(f"http://127.0.0.1:{port}/", respect_robots=False)
            with make_policy("planner", store=store) as policy:
                result = Explorer(store, fetcher, policy, SessionConfig(budget=30)).run()
            data = summary(store, result)
            status = store.history.sessions()[-1].status
            store.close()
    finally:
        _Handler.walled_after = None
    assert data["stop_reason"] == "login_lost" == status and "login wall" in data["stop_detail"]
    assert data["clicks"] < 30 and len(data["pages_visited"]) >= 2


def _hanging_listener() -> socket.socket:
    """Accepts TCP connections (the kernel's backlog) but never answers: a fetch waits its timeout."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    return s


def test_sigterm_before_the_first_step_leaves_a_store_resume_accepts(tmp_path, capsys):
    store_dir = tmp_path / "s"
    hang = _hanging_listener()
    try:
        url = f"http://127.0.0.1:{hang.getsockname()[1]}/"
        cmd = [sys.executable, "-m", "bughunt", "explore", "--url", url, "--store", str(store_dir)]
        cmd += ["--ignore-robots", "--timeout", "60", "--json"]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={**os.environ})
        db = store_dir / "bughunt.sqlite"
        deadline = time.monotonic() + 60
        started = False
        while time.monotonic() < deadline and not started:
            time.sleep(0.1)
            if db.exists():
                try:
                    with sqlite3.connect(db) as con:
                        started = bool(con.execute("SELECT COUNT(*) FROM sessions").fetchone()[0])
                except sqlite3.OperationalError:
                    continue
        assert started
        time.sleep(0.3)  # the landing fetch is waiting for an answer that never comes
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    finally:
        hang.close()
    assert proc.returncode == 143
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM steps").fetchone()[0] == 0
    assert con.execute("SELECT status FROM sessions").fetchone()[0] == "interrupted"
    con.close()
    _Handler.walled_after = None
    with serving() as port:
        code = main(["resume", "--store", str(store_dir), "--url", f"http://127.0.0.1:{port}/", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["session"] == "session-2" and set(data["pages_visited"]) == set(PAGES)
