"""A click whose write the browser's gate refused teaches the controls of its shape that say the same,
served on loopback (`explorer/control_words.py`).

Before, an admin row's "Delete" or "Approve" (a POST, refused) taught "leads nowhere" to the whole shape of a row's
toolbar, and a thread's vote icon on another page — the same shape — was never clicked: its write was
never collected, so with `--allow-destructive` nothing was replayed and the vote's 500 was missed
(corpus ho10_isso). Kept for the control in its place only, every entry's "Mark as read" of a list
whose entries carry no ids was clicked again (ho11_miniflux): a lesson keyed by what the control says
holds for every copy that says the same, wherever it stands."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.control_words import control_words
from bughunt.explorer.factory import make_engine, make_policy
from bughunt.explorer.graph import CLICK_MARK
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from tests.support.loopback import QuietHandler, serving

pytestmark = [
    pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed"),
    pytest.mark.slow,
]

RECEIVED: list[str] = []


def _post(path: str) -> str:
    return f"fetch('{path}', {{method: 'POST'}}); return false;"


def _admin_rows() -> str:
    return "".join(
        f'<div class="row" id="r-{n}"><p>Entry {n} waiting for moderation</p><div class="tools">'
        f'<a href="/r/{n}">Open</a> <a href="#" onclick="{_post(f"/api/r/{n}/approve")}">Approve</a>'
        "</div></div>"
        for n in range(1, 4)
    )


def _thread_rows() -> str:
    # The same markup as the admin's rows: a vote icon (no words) where the admin row has "Open",
    # and the moderator's "Approve" as on the admin page.
    return "".join(
        f'<div class="row" id="c-{n}"><p>Comment {n} of the thread</p><div class="tools">'
        f'<a href="#" onclick="{_post(f"/api/c/{n}/vote")}">▲</a> '
        f'<a href="#" onclick="{_post(f"/api/c/{n}/approve")}">Approve</a></div></div>'
        for n in range(1, 4)
    )


def _entries() -> str:
    # A feed reader's list: entries without ids, each with the same two buttons.
    return "".join(
        f'<article><h2>Entry {n} of the feed</h2><p>Some words of entry {n}.</p><div class="bar">'
        f'<button type="button" onclick="{_post(f"/api/e/{n}/read")}">Mark as read</button> '
        f'<button type="button" onclick="{_post(f"/api/e/{n}/bookmark")}">Keep for later</button>'
        "</div></article>"
        for n in range(1, 7)
    )


class _Site(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path.startswith("/r/"):
            return self.reply(
                200, "<html><head><title>Entry</title></head><body><h1>Entry</h1></body></html>"
            )
        bodies = {
            "/": f"<h1>Moderation</h1>{_admin_rows()}<p><a href='/thread'>The thread</a></p>",
            "/thread": f"<h1>Thread</h1>{_thread_rows()}",
            "/feed": f"<h1>Feed</h1>{_entries()}",
        }
        if self.path not in bodies:
            return self.reply(404, "<html><body>no</body></html>")
        self.reply(200, f"<html><head><title>Site</title></head><body>{bodies[self.path]}</body></html>")

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        RECEIVED.append(self.path)
        if self.path.endswith("/vote"):
            return self.reply(500, '{"error": "division by zero"}', "application/json")
        self.reply(200, "{}", "application/json")


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serving(_Site) as url:
        yield url


def _explore(start: str, tmp_path, budget: int, allow: bool) -> ExplorerStore:
    store = ExplorerStore(tmp_path / "s")
    engine, _ = make_engine("browser", start, timeout=10, respect_robots=False)
    try:
        with make_policy("planner", store=store) as policy:
            Explorer(
                store, engine, policy, SessionConfig(budget=budget, retries=0, allow_destructive=allow)
            ).run()
    finally:
        engine.close()
    return store


def _clicked(store: ExplorerStore, page: str, label: str) -> int:
    """Controls of `page` that say what `label` says and were clicked (a state write's replay after the
    walk loads its click state again: the same control)."""
    return len(
        {
            s.route
            for s in store.history.steps()
            if CLICK_MARK in s.route
            and (click := store.link_table.click_of(s.route)) is not None
            and click[0] == page
            and store.link_table.words_of(s.route) == control_words(label)
        }
    )


def test_a_refused_write_teaches_nothing_of_a_vote_of_its_shape(site, tmp_path):
    RECEIVED.clear()
    store = _explore(site + "/", tmp_path, budget=20, allow=True)
    try:
        # The admin's Approve, refused, taught its shape's Approves: the thread's are not clicked.
        assert _clicked(store, "/", "Approve") == 1
        assert _clicked(store, "/thread", "Approve") == 0
        # The vote icon of the same shape was clicked; its write, sent once after the walk, answers 500.
        assert _clicked(store, "/thread", "▲") == 1
        bugs = {(b.kind, b.route) for b in store.bug_table.live()}
        assert any(kind == "server_error" and route.endswith("/vote") for kind, route in bugs), bugs
        assert [p for p in RECEIVED if p.endswith("/vote")] == ["/api/c/1/vote"], RECEIVED
        assert not [p for p in RECEIVED if p.endswith("/approve")], RECEIVED
    finally:
        store.close()


def test_every_entry_s_button_that_says_the_same_is_one_lesson(site, tmp_path):
    store = _explore(site + "/feed", tmp_path, budget=20, allow=False)
    try:
        # Six entries, no ids: each button in another place. One click of each kind says it all.
        assert _clicked(store, "/feed", "Mark as read") == 1
        assert _clicked(store, "/feed", "Keep for later") == 1
    finally:
        store.close()
