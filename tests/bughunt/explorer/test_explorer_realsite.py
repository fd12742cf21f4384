"""The explorer on a site nobody here wrote: redirects, login walls, robots.txt, rate limits,
non-HTML, HTTP errors and timeouts are recorded, skipped or reported — never a crash."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import asdict
from http.server import BaseHTTPRequestHandler

import pytest

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.summary import summary
from tests.support.loopback import serving

NAV = '<nav><a href="/">Home</a> <a href="/a">A</a></nav>'
HOME_LINKS = [
    "/a", "/redir", "/offsite-redir", "/private", "/doc.pdf", "/missing", "/slow", "/boom", "/secret/x",
    "/logout", "http://other.invalid/ext", "mailto:x@y.z", "/a#frag",
]  # fmt: skip


def _html(body: str) -> bytes:
    return f"<!doctype html><html><head><title>t</title></head><body>{NAV}{body}</body></html>".encode()


class _Site(BaseHTTPRequestHandler):
    requests: list[tuple[float, str]] = []

    def do_GET(self) -> None:  # noqa: N802
        _Site.requests.append((time.monotonic(), self.path))
        path = self.path
        if path == "/robots.txt":
            return self._send(200, b"User-agent: *\nDisallow: /secret\n", "text/plain")
        if path == "/":
            links = "".join(f'<a href="{h}">{h}</a> ' for h in HOME_LINKS)
            return self._send(200, _html(f"<main>{links}</main>"))
        if path in ("/a", "/b"):
            return self._send(200, _html(f"<main><p>page {path}</p></main>"))
        if path == "/redir":
            return self._redirect("/b")
        if path == "/offsite-redir":
            return self._redirect("http://other.invalid/")
        if path == "/private":
            return self._redirect("/login?next=/private")
        if path.startswith("/login"):
            form = '<form action="/login" method="post"><input type="password" name="pw"></form>'
            return self._send(200, _html(form))
        if path == "/doc.pdf":
            return self._send(200, b"%PDF-1.4 not html", "application/pdf")
        if path == "/slow":
            time.sleep(1.5)
            return self._send(200, _html("late"))
        if path == "/boom":
            return self._send(500, _html("<h1>Internal Server Error</h1><pre>Traceback: KeyError 'q'</pre>"))
        return self._send(404, _html("<h1>Not found</h1>"))

    def _send(self, status: int, body: bytes, ctype: str = "text/html; charset=utf-8") -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):  # the client timed out first
            pass

    def _redirect(self, where: str) -> None:
        self.send_response(302)
        self.send_header("Location", where)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def foreign_site() -> Iterator[str]:
    _Site.requests = []
    with serving(_Site) as url:
        yield url + "/"


def _explore(url: str, store_dir, budget: int = 20, delay: float = 0.0) -> dict:
    store = ExplorerStore(store_dir)
    fetcher = HttpEngine(url, delay=delay, timeout=0.5)
    with make_policy("frontier", store=store) as policy:
        result = Explorer(store, fetcher, policy, SessionConfig(budget=budget)).run()
    data = summary(store, result)
    data["_steps"] = [asdict(s) for s in store.history.steps()]
    store.close()
    return data


def test_foreign_site_is_explored_without_crashing(foreign_site, tmp_path):
    data = _explore(foreign_site, tmp_path / "store")
    outcomes = {s["route"]: s["outcome"] for s in data["_steps"]}
    assert outcomes["/private"] == "login_wall"
    assert outcomes["/doc.pdf"] == "non_html"
    assert outcomes["/missing"] == "http_error"
    assert outcomes["/slow"] == "timeout"
    assert outcomes["/offsite-redir"] == "blocked"
    assert outcomes["/redir"] == "page" and "/b" in data["pages_visited"]
    assert data["coverage"] is None  # not the built-in site: no denominator is known
    kinds = {(b["route"], b["kind"]) for b in data["bugs"]}
    assert ("/boom", "server_error") in kinds
    requested = {path for _, path in _Site.requests}
    assert not any(p.startswith("/secret") for p in requested), "robots.txt must be respected"
    assert "/logout" not in requested, "session-ending links are never followed"
    hits = [path for _, path in _Site.requests]
    assert hits.count("/redir") == 1 and hits.count("/private") == 1, (
        "a remembered redirect is not re-clicked"
    )
    assert data["duplicate_reports"] == 0


def test_rate_limit_spaces_requests(foreign_site, tmp_path, monkeypatch):
    # Measured where the requests leave the client: arrival times at the server would also measure the
    # machine's thread scheduling, which made this test flaky under load.
    sent: list[float] = []
    original = HttpEngine._wait

    def spy(self: HttpEngine) -> None:
        original(self)
        sent.append(time.monotonic())

    monkeypatch.setattr(HttpEngine, "_wait", spy)
    _explore(foreign_site, tmp_path / "store", budget=4, delay=0.15)
    gaps = [b - a for a, b in zip(sent, sent[1:], strict=False)]
    assert len(sent) >= 4 and len(_Site.requests) >= 4
    # The spy's clock reads a moment after the fetcher's own, which keeps the spacing: allow that moment.
    assert min(gaps) >= 0.15 - 0.005


def test_unreachable_site_is_recorded_not_raised(tmp_path):
    data = _explore("http://127.0.0.1:9/", tmp_path / "store", budget=3)
    assert data["_steps"][0]["outcome"] == "network_error"
    assert data["_steps"][0]["detail"] == "robots_unreachable", "a code, not the fetcher's message"
    # A failed fetch is not a visit; the landing failed, so the session says why it stopped.
    assert data["pages_visited"] == [] and data["bugs"] == []
    assert data["stop_reason"] == "site_unreachable" and data["clicks"] == 0 and data["clicks_left"] == 3


@pytest.mark.parametrize(
    "argv",
    [
        ["--url", "ftp://example.invalid/"],
        ["--url", "http://127.0.0.1:9/", "--poison-file", "p.txt"],
        ["--builtin-site", "--policy", "teleport"],
        ["--builtin-site", "--policy", "llm"],
    ],
)
def test_bad_input_is_refused_before_a_store_exists(tmp_path, capsys, argv):
    from bughunt.cli import main

    assert main(["explore", "--store", str(tmp_path / "s"), *argv]) == 2
    assert capsys.readouterr().err.startswith("error: ") and not (tmp_path / "s").exists()
