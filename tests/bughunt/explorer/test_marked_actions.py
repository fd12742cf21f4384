"""A GET whose query marks an action on a record (`?@action=detach&label=11`, `?cmd=seal&id=2`) under a
verb no word list holds: never clicked by the walk, and with --allow-destructive opened after the walk
and reported by its effect — the record gone from the page that listed it is a deletion
(`unconfirmed_destructive`), the control given way to its counterpart a state change (`unsafe_get`).
The site is a small inventory of our own, on loopback."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from bughunt.explorer import inspection
from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from bughunt.oracles.request_action import marked_action
from tests.support.loopback import QuietHandler, serving


def _html(body: str) -> str:
    return (
        f"<html><head><title>crates</title></head><body><nav><a href='/'>home</a></nav>{body}</body></html>"
    )


class _Crates(QuietHandler):
    """Three crates, each listing its labels with a "detach" link (a GET that takes the label off and
    answers the crate page) and a Seal/Unseal link (a GET that flips the crate and redirects back)."""

    labels: dict[str, list[int]]
    sealed: set[str]
    requests: list[str]
    lock = threading.Lock()

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        cls = type(self)
        with cls.lock:
            cls.requests.append(self.path)
        parts = urlsplit(self.path)
        if parts.path == "/":
            links = "".join(f'<li><a href="/crate/{n}">crate {n}</a></li>' for n in cls.labels)
            return self.reply(200, _html(f"<h1>Crates</h1><ul>{links}</ul><a href='/about'>about</a>"))
        if parts.path == "/about":
            return self.reply(200, _html("<h1>About</h1><p>An inventory.</p>"))
        m = re.fullmatch(r"/crate/(\d)", parts.path)
        if not m or m.group(1) not in cls.labels:
            return self.reply(404, _html("<p>no such crate</p>"))
        n, query = m.group(1), parse_qs(parts.query)
        with cls.lock:
            if query.get("@action") == ["detach"]:
                label = int(query["label"][0])
                if label in cls.labels[n]:
                    cls.labels[n].remove(label)
            if query.get("cmd") in (["seal"], ["unseal"]):
                (cls.sealed.add if query["cmd"] == ["seal"] else cls.sealed.discard)(n)
                self.send_response(303)
                self.send_header("Location", f"/crate/{n}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            rows = "".join(
                f'<tr><td>Label {k}</td><td><a href="/crate/{n}?@action=detach&amp;label={k}">detach</a></td></tr>'
                for k in cls.labels[n]
            )
            verb = "unseal" if n in cls.sealed else "seal"
        toggle = f'<a href="/crate/{n}?cmd={verb}&amp;id={n}">{verb.title()}</a>'
        return self.reply(200, _html(f"<h1>Crate {n}</h1><table>{rows}</table>{toggle}"))


@contextmanager
def _crates() -> Iterator[tuple[str, type[_Crates]]]:
    labels = {str(n): [n * 10 + 1, n * 10 + 2, n * 10 + 3] for n in (1, 2, 3)}
    handler = type("Crates", (_Crates,), {"labels": labels, "sealed": set(), "requests": []})
    with serving(handler) as url:
        yield url + "/", handler


def _explore(url: str, store_dir: Path, *, allow_destructive: bool) -> ExplorerStore:
    store = ExplorerStore(store_dir)
    engine = HttpEngine(url, timeout=2.0, respect_robots=False, avoid_actions=allow_destructive)
    config = SessionConfig(budget=30, retries=0, allow_destructive=allow_destructive)
    with make_policy("planner", store=store) as policy:
        Explorer(store, engine, policy, config).run()
    return store


def _marked(paths: list[str]) -> list[str]:
    return [p for p in paths if "@action=" in p or "cmd=" in p]


def test_marked_action_reads_the_verb_of_an_action_key_on_a_record():
    assert marked_action("http://x.test/issue3?@action=unlink&msg=7") == "unlink"
    assert marked_action("http://x.test/?controller=Comments&action=retire&comment_id=4") == "retire"
    # a view of the record, a view chosen by name (no record), a page number: no action
    assert marked_action("http://x.test/?controller=TaskView&action=showList&task_id=4") is None
    assert marked_action("http://x.test/doku.php?do=media&ns=wiki") is None
    # a noun is a page that shows something: by its ending, or as the record kind of its own address
    assert marked_action("http://x.test/?controller=ProjectView&action=integrations&project_id=1") is None
    assert marked_action("http://x.test/?controller=Activity&action=project&project_id=1") is None
    assert marked_action("http://x.test/items?action=archive&page=2") is None
    # a blog's monthly archive: a date's numbers choose a period, no record (corpus ho10_chyrp)
    assert marked_action("http://x.test/?action=archive&year=2026&month=09") is None
    assert marked_action("http://x.test/?action=archive&year=2026&id=4") == "archive"
    assert marked_action("http://x.test/search?q=detach&id=3") is None
    # a 0 is no stored record (a root namespace, a flag), nor is a bracketed field of a form's array
    assert marked_action("http://x.test/doku.php?id=start&do=media&ns=0") is None
    assert (
        marked_action("http://x.test/doku.php?id=start&fn%5Bedit%5D%5Bbob%5D=1&do=admin&page=users") is None
    )
    assert marked_action("http://x.test/?op=retire&item=0&id=5") == "retire"


def test_without_allow_destructive_the_walk_never_sends_a_marked_action(tmp_path):
    with _crates() as (url, site):
        store = _explore(url, tmp_path / "s", allow_destructive=False)
        try:
            assert _marked(site.requests) == [], site.requests
            assert all(len(v) == 3 for v in site.labels.values()) and not site.sealed
            assert {"/crate/1", "/crate/2", "/crate/3"} <= set(store.visits.explored())
        finally:
            store.close()


def test_with_allow_destructive_a_marked_action_is_opened_after_the_walk_and_judged_by_its_effect(tmp_path):
    with _crates() as (url, site):
        store = _explore(url, tmp_path / "s", allow_destructive=True)
        try:
            # opened and seen to act (`observed`), not suspected from the link's words
            bugs = {
                (b.kind, re.sub(r"\d+", "<n>", b.route), json.loads(b.evidence).get("observed"))
                for b in store.bug_table.live()
            }
            assert ("unconfirmed_destructive", "/crate/<n>?@action=detach&label=<n>", True) in bugs
            assert ("unsafe_get", "/crate/<n>?cmd=seal&id=<n>", True) in bugs
            # one opening per template: one label detached, one crate sealed — and unsealed by its
            # counterpart, opened to see the effect twice (`seen_twice`) — the rest left as they were
            assert sum(len(v) for v in site.labels.values()) == 8 and not site.sealed
            toggles = [p for p in site.requests if "cmd=" in p]
            assert len(toggles) == 2 and "cmd=seal" in toggles[0] and "cmd=unseal" in toggles[1]
            walked = site.requests[: site.requests.index(_marked(site.requests)[0])]
            assert {"/crate/1", "/crate/2", "/crate/3"} <= set(walked)
        finally:
            store.close()


def test_without_allow_destructive_no_oracle_opens_a_marked_action(tmp_path):
    with _crates() as (url, site):
        engine = HttpEngine(url, timeout=2.0, respect_robots=False)
        fetch = inspection._oracle_fetch(engine, reuse=False, version=None, guarded=True)
        try:
            with pytest.raises(PermissionError):
                fetch(url + "crate/1?@action=detach&label=11")
            assert fetch(url + "crate/1").status == 200
        finally:
            engine.close()
        assert site.requests == ["/crate/1"] and len(site.labels["1"]) == 3


class _Boxes(QuietHandler):
    """Two boxes, each with a "nudge" link (`?op=nudge&id=N`) that does nothing and answers the box."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        if path == "/":
            return self.reply(200, _html('<h1>Boxes</h1><a href="/box/1">one</a> <a href="/box/2">two</a>'))
        m = re.fullmatch(r"/box/([12])", path)
        if not m:
            return self.reply(404, _html("<p>no such box</p>"))
        n = m.group(1)
        return self.reply(200, _html(f'<h1>Box {n}</h1><a href="/box/{n}?op=nudge&amp;id={n}">nudge</a>'))


def test_the_openings_after_the_walk_are_no_repeat_clicks(tmp_path):
    # the deferred action is opened after the session's clicks and changes nothing: its steps answer
    # box pages the walk saw and find nothing, yet they are no clicks, so no repeat clicks either
    from bughunt.explorer.summary import repeat_clicks, session_clicks

    with serving(_Boxes) as url:
        store = _explore(url + "/", tmp_path / "s", allow_destructive=True)
        try:
            steps = list(store.history.steps())
            (clicks,) = session_clicks(store).values()
            openings = steps[clicks + 1 :]
            assert openings and all(s.repeat for s in openings) and not store.bug_table.all()
            assert not any(s.repeat for s in steps[1 : clicks + 1])
            assert repeat_clicks(store) == 0
        finally:
            store.close()
