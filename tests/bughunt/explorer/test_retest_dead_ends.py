"""A re-test walk heads for the pages due, not for pages it has already seen that simply link nowhere.

The walk steps toward the nearest page that looks unknown; a visited page that offers no links (a dialog's
content opened as a fragment, a page with nothing to click) has no row in the link table, and was taken
for unknown: the walk stepped onto it, and a fragment does not move the explorer, so it stepped onto it
again on every click left (a project manager's notifications dialog: 40 of 100 clicks)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from tests.support.loopback import QuietHandler, serving

PAGES: dict[str, list[str]] = {
    "/": ["/note", "/item/1", "/item/2"],
    "/item/1": ["/note", "/item/2", "/"],
    "/item/2": ["/note", "/item/1", "/"],
}


class _Site(QuietHandler):
    layout = "old"

    def do_GET(self) -> None:  # noqa: N802
        path = self.path.split("?")[0]
        if path == "/note":
            # the content of a dialog, served alone: a fragment with no links
            self.reply(200, "<div class='dialog'><h2>Notifications</h2><p>Nothing new.</p></div>")
            return
        if path not in PAGES:
            self.reply(404, "", "text/plain")
            return
        links = "".join(f'<a href="{h}">{h.strip("/") or "home"}</a>' for h in PAGES[path])
        extra = "<aside><form><input name=q></form></aside>" if type(self).layout == "new" else ""
        self.reply(
            200, f"<html><head><title>{path}</title></head><body><main>{links}</main>{extra}</body></html>"
        )


@contextmanager
def _serving(layout: str) -> Iterator[str]:
    _Site.layout = layout
    with serving(_Site) as url:
        yield url + "/"


def _run(url: str, store_dir: Path, budget: int) -> None:
    store = ExplorerStore(store_dir)
    try:
        with make_policy("planner", store=store) as policy:
            engine = HttpEngine(url, respect_robots=False)
            Explorer(store, engine, policy, SessionConfig(budget=budget)).run()  # type: ignore[arg-type]
    finally:
        store.close()


def test_a_retest_walk_does_not_step_onto_a_visited_page_without_links(tmp_path: Path) -> None:
    with _serving("old") as url:
        _run(url, tmp_path / "s", budget=20)
    with _serving("new") as url:
        # The app changed without a version marker: its pages are due; the dialog is not.
        _run(url, tmp_path / "s", budget=12)
    store = ExplorerStore(tmp_path / "s")
    try:
        second = [r for r in store.history.steps() if r.session_id == 2]
    finally:
        store.close()
    retested = {r.route for r in second if r.retest}
    fetched = Counter(r.route for r in second)
    assert retested & {"/item/1", "/item/2"}, "the pages due were re-tested"
    assert fetched["/note"] <= 1, f"the dialog was fetched again and again: {fetched}"
