"""A menu of the page's chrome whose items are script controls, not links (a language menu): its click
shows no new link but new controls, with the same words on every page. Opened on two pages with the very same words,
it is learned `shown_before` and not opened again; a toggle that shows each page's own words is not."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.graph import ExplorationGraph
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from tests.support.engines import browser_on
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

PAGES = ("/", "/a", "/b", "/c", "/d")
MENU = (
    """<div id="bar"><a href="#" id="lang" onclick="document.getElementById('langs').innerHTML = """
    """'<li><a href=\\'#\\'>Deutsch</a></li><li><a href=\\'#\\'>Français</a></li>'; return false">Language</a>"""
    """<ul id="langs"></ul></div>"""
)


def _page(path: str) -> str:
    name = path.strip("/") or "home"
    links = "".join(f'<li><a href="{p}">Page {p.strip("/") or "home"}</a></li>' for p in PAGES if p != path)
    details = (
        f"""<a href="#" id="more" onclick="document.getElementById('extra').innerHTML = """
        f"""'<li><a href=\\'#\\'>Notes: item-{name}</a></li>'; return false">More</a><ul id="extra"></ul>"""
    )
    return (
        f"<!doctype html><html><head><title>{name}</title></head><body>{MENU}<h1>Page {name}</h1>"
        f"<ul>{links}</ul>{details}</body></html>"
    )


class _Site(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802
        path = self.path.split("?")[0]
        if path in PAGES:
            self.reply(200, _page(path))
        else:
            self.reply(404, "<!doctype html><title>no</title><p>no</p>")


def test_a_chrome_menu_of_words_is_opened_on_two_pages_then_learned_and_a_pages_own_toggle_is_not(
    tmp_path: Path,
) -> None:
    store = ExplorerStore(tmp_path / "s")
    try:
        with browser_on(_Site, respect_robots=False) as engine:
            with make_policy("planner", store=store) as policy:
                Explorer(store, engine, policy, SessionConfig(budget=40, retries=0)).run()
        graph = ExplorationGraph(store)
        made = [graph.click_of(s.route) for s in store.history.steps() if "#click-" in s.route]
        opened = [c for c in made if c is not None and c[1].endswith("#lang")]
        assert len(opened) == 2, made
        assert graph.idle_controls().get("click@ #lang") == "shown_before"
        more = [c for c in made if c is not None and c[1].endswith("#more")]
        assert len(more) >= 3, made  # each page's own notes: never learned from another page's
    finally:
        store.close()
