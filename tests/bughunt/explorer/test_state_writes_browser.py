"""A vote link whose script POSTs to the item's `/vote` answers 500, served on loopback: with
`--allow-destructive` (a disposable environment) the vote's write, refused during the walk, is sent
once after it and its 500 is the API route's server error; a write that names no state change (a
"Rebuild" button's POST) is never sent, and without the flag nothing is (`explorer/state_writes.py`)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_engine, make_policy
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from tests.support.loopback import QuietHandler, serving

pytestmark = [
    pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed"),
    pytest.mark.slow,
]

RECEIVED: list[str] = []


def _items() -> str:
    return "".join(
        f'<div class="item" id="item-{n}"><p>Item {n}: a short note</p><div class="bar">'
        f"<a href=\"#\" onclick=\"fetch('/api/items/{n}/vote', {{method: 'POST'}}).then(r => r.json())"
        f'.then(j => this.textContent = j.votes); return false;">▲</a> <span>0</span></div></div>'
        for n in range(1, 4)
    )


class _Board(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path != "/":
            return self.reply(404, "<html><body>no</body></html>")
        rebuild = (
            "<button type=\"button\" onclick=\"fetch('/api/rebuild', {method: 'POST'})\">Rebuild</button>"
        )
        body = f"<h1>Board</h1>{_items()}{rebuild}"
        self.reply(200, f"<html><head><title>Board</title></head><body>{body}</body></html>")

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        RECEIVED.append(self.path)
        if self.path.endswith("/vote"):
            return self.reply(500, '{"error": "division by zero"}', "application/json")
        self.reply(200, "{}", "application/json")


def _explore(url: str, store_dir: Path, allow: bool = True) -> set[tuple[str, str]]:
    """A 10-click planner walk of `url` in the browser: the live bugs' (kind, route) after it."""
    store = ExplorerStore(store_dir)
    engine, _ = make_engine("browser", url, timeout=10, respect_robots=False)
    try:
        with make_policy("planner", store=store) as policy:
            Explorer(
                store, engine, policy, SessionConfig(budget=10, retries=0, allow_destructive=allow)
            ).run()
        return {(b.kind, b.route) for b in store.bug_table.live()}
    finally:
        engine.close()
        store.close()


@pytest.fixture(scope="module")
def board() -> Iterator[str]:
    with serving(_Board) as url:
        yield url + "/"


@pytest.mark.parametrize("allow", [True, False])
def test_a_vote_write_is_sent_once_after_the_walk_only_in_a_disposable_environment(board, tmp_path, allow):
    RECEIVED.clear()
    bugs = _explore(board, tmp_path / "s", allow)
    votes = [p for p in RECEIVED if p.endswith("/vote")]
    if allow:
        # One vote link in its place: one write sent, its 500 the vote route's server error.
        assert len(votes) == 1, RECEIVED
        assert any(kind == "server_error" and route.endswith("/vote") for kind, route in bugs), bugs
    else:
        assert votes == [] and not any(kind == "server_error" for kind, _ in bugs), (RECEIVED, bugs)
    assert "/api/rebuild" not in RECEIVED


class _Stars(QuietHandler):
    """A list under its count whose star link, once its write is answered, drops its item's "unstarred"
    style: that item no longer looks like the others."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path != "/":
            return self.reply(404, "<html><body>no</body></html>")
        items = "".join(
            f'<div class="item unstarred" id="item-{n}"><p>Item {n}: a short note on this</p>'
            f"<a href=\"#\" onclick=\"fetch('/api/items/{n}/star', {{method: 'POST'}}).then(() => "
            f"document.getElementById('item-{n}').className = 'item'); return false;\">☆</a></div>"
            for n in range(1, 5)
        )
        body = f'<h1>Board</h1><div class="list"><h2>4 Items</h2><div class="rows">{items}</div></div>'
        self.reply(200, f"<html><head><title>Board</title></head><body>{body}</body></html>")

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        RECEIVED.append(self.path)
        self.reply(200, '{"stars": 1}', "application/json")


def test_the_state_a_write_leaves_is_read_for_what_its_answer_did_only(tmp_path):
    RECEIVED.clear()
    with serving(_Stars) as url:
        bugs = _explore(url + "/", tmp_path / "s")
    assert [p for p in RECEIVED if p.endswith("/star")] == ["/api/items/1/star"], RECEIVED
    # The count was read on the walk, before the write changed the page; not after it.
    assert bugs == set()


class _Lanes(QuietHandler):
    """Two lanes, each with an icon "+" titled "Create new card" whose script POSTs a blank card; the
    server answers that POST 500 (corpus ho29_tasksmd's board). "Rebuild" POSTs too and is no creation."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path != "/":
            return self.reply(404, "<html><body>no</body></html>")
        lanes = "".join(
            f'<div class="lane"><header><strong>{name}</strong> <button type="button" title="Create new card"'
            f" onclick=\"fetch('/api/cards/{name}/card-' + Date.now(), {{method: 'POST', body: '{{}}'}})\">"
            f'<svg width="14" height="14"><path d="M7 1v12M1 7h12"></path></svg></button></header>'
            f"<ul><li>First card of {name}</li><li>Second card of {name}</li></ul></div>"
            for name in ("Backlog", "Done")
        )
        rebuild = (
            "<button type=\"button\" onclick=\"fetch('/api/rebuild', {method: 'POST'})\">Rebuild</button>"
        )
        body = f"<h1>Board</h1>{lanes}{rebuild}"
        self.reply(200, f"<html><head><title>Board</title></head><body>{body}</body></html>")

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        RECEIVED.append(self.path)
        if self.path.startswith("/api/cards/"):
            return self.reply(500, '{"error": "content is undefined"}', "application/json")
        self.reply(200, "{}", "application/json")


def test_a_creating_controls_post_is_sent_once_after_the_walk(tmp_path):
    RECEIVED.clear()
    with serving(_Lanes) as url:
        bugs = _explore(url + "/", tmp_path / "s")
    # One "+" in its place: one blank card posted, its 500 the card route's server error.
    assert len([p for p in RECEIVED if p.startswith("/api/cards/")]) == 1, RECEIVED
    assert any(kind == "server_error" and "/api/cards/" in route for kind, route in bugs), bugs
    assert "/api/rebuild" not in RECEIVED
