"""A click whose write the browser's gate refused acted, served on loopback: its page is unchanged
because exploring refused the write, so it teaches nothing of other controls of its shape but its
copies in the same place. Before, an admin row's "Pin" (a POST, refused) taught "leads nowhere" to the
whole shape of a row's toolbar links, and a thread's "Replies" link on another page — the same shape,
whose API answers 500 — was never clicked (corpus ho10_isso: the vote links of the comment thread)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_engine, make_policy
from bughunt.explorer.graph import ExplorationGraph
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from tests.support.loopback import QuietHandler, serving

pytestmark = [
    pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed"),
    pytest.mark.slow,
]


def _rows(prefix: str, word: str, script: str, first: bool) -> str:
    """Rows with a toolbar of two links: the script control first or second (its place)."""
    return "".join(
        f'<div class="row" id="{prefix}-{n}"><p>Entry {n} of the {prefix} list</p><div class="tools">'
        + "".join(
            (
                f'<a href="#" onclick="{script.format(n=n)}; return false;">{word}</a>',
                f'<a href="/{prefix}/{n}">Open</a>',
            )[:: 1 if first else -1]
        )
        + "</div></div>"
        for n in range(1, 4)
    )


ADMIN = _rows("r", "Pin", "fetch('/api/r/{n}/pin', {{method: 'POST'}})", first=False)
THREAD = _rows(
    "c",
    "Replies",
    "fetch('/api/c/{n}/replies').then(r => r.json()).then(j => this.insertAdjacentText('afterend', j.n))",
    first=True,
)


class _Site(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path.startswith("/api/c/"):
            return self.reply(500, '{"error": "replies"}', "application/json")
        if self.path.startswith(("/r/", "/c/")):
            return self.reply(
                200, "<html><head><title>Entry</title></head><body><h1>Entry</h1></body></html>"
            )
        bodies = {
            "/": f"<h1>Admin</h1>{ADMIN}<p><a href='/thread'>The thread</a></p>",
            "/thread": f"<h1>Thread</h1>{THREAD}",
        }
        if self.path not in bodies:
            return self.reply(404, "<html><body>no</body></html>")
        self.reply(200, f"<html><head><title>Site</title></head><body>{bodies[self.path]}</body></html>")


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serving(_Site) as url:
        yield url + "/"


def test_a_refused_write_teaches_only_the_controls_in_its_place(site, tmp_path):
    store = ExplorerStore(tmp_path / "s")
    engine, _ = make_engine("browser", site, timeout=10, respect_robots=False)
    try:
        with make_policy("planner", store=store) as policy:
            Explorer(store, engine, policy, SessionConfig(budget=20, retries=0)).run()
        learned = ExplorationGraph(store).idle_controls()
        # The Pin link in its place (every admin row's second link) does the same as the one clicked.
        assert learned.get("click@ #<id> > div > a:nth-of-type(2)") == "same_state", learned
        # The thread's rows hold a link of the same shape in another place: clicked, its API's 500 seen.
        bugs = {(b.kind, b.route) for b in store.bug_table.live()}
        assert ("server_error", "/api/c/1/replies") in bugs, bugs
    finally:
        engine.close()
        store.close()
