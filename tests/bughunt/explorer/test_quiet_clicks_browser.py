"""Clicks that show nothing new are learned though they change the page's elements: a sidebar folded
away (elements gone, no word or link the page did not show) is `same_state` after one click, and a
control whose navigation the browser's gate refuses (it leaves the origin) is `unclickable` after two
pages — where each was clicked again on every page that carries it."""

from __future__ import annotations

import shutil

import pytest

from bughunt.explorer.graph import ExplorationGraph
from bughunt.explorer.store import ExplorerStore
from tests.support.engines import explored_in_browser
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

CHROME = (
    '<button type="button" id="fold" onclick="document.getElementById(\'side\').outerHTML = \'\'">Menu</button>'
    '<aside id="side"><p><a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a> <a href="/d">D</a></p></aside>'
    '<a href="#" id="out" onclick="location.href=\'http://elsewhere.test/manual\'; return false">Manual</a>'
)


class _Site(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        names = {"/": "Home", "/a": "Apples", "/b": "Bananas", "/c": "Cherries", "/d": "Dates"}
        if self.path not in names:
            return self.reply(404, "<html><body>no</body></html>")
        body = f"<h1>{names[self.path]}</h1><p>All about {names[self.path].lower()}.</p>"
        self.reply(200, f"<html><head><title>Fruit</title></head><body>{CHROME}{body}</body></html>")


def _clicked_selectors(store: ExplorerStore, graph: ExplorationGraph) -> list[str]:
    """The selector of every click the walk made, in order."""
    clicks = [graph.click_of(s.route) for s in store.history.steps() if "#click-" in s.route]
    return [c[1] for c in clicks if c is not None]


def test_a_fold_and_a_way_off_the_site_are_learned_not_clicked_on_every_page(tmp_path) -> None:
    with explored_in_browser(_Site, tmp_path / "s", 20) as (store, engine):
        graph = ExplorationGraph(store)
        selectors = _clicked_selectors(store, graph)
        learned = graph.idle_controls()
        assert selectors.count("#fold") == 1, selectors
        assert learned.get("click@ #fold") == "same_state", learned
        assert selectors.count("#out") == 2, selectors
        assert learned.get("click@ #out") == "unclickable", learned
        assert {"/a", "/b", "/c", "/d"} <= set(graph.visited())


FOLLOW_JS = "fetch('/follow', {method: 'POST'}).catch(() => { more.innerHTML = '<b class=alert>Could not follow</b>' })"
DETAILS_JS = "more.innerHTML = '<i>Shown on ' + location.pathname + '</i>'"
TOOLS = (
    f'<div class="tools"><div><button type="button" onclick="{FOLLOW_JS}">Follow</button></div>'
    f'<div><button type="button" onclick="{DETAILS_JS}">Details</button></div></div><p id="more"></p>'
)


class _Profiles(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        names = {"/": "Home", "/a": "Ann", "/b": "Bob", "/c": "Cy", "/me": "Me", "/edit": "Edit me"}
        if self.path not in names:
            return self.reply(404, "<html><body>no</body></html>")
        nav = '<p><a href="/a">Ann</a> <a href="/b">Bob</a> <a href="/c">Cy</a> <a href="/me">Me</a></p>'
        # your own profile holds "Edit" where the others hold "Follow" (a script's navigation)
        tools = TOOLS.replace(FOLLOW_JS, "location.assign('/ed' + 'it')") if self.path == "/me" else TOOLS
        body = f"<h1>{names[self.path]}</h1>{nav}{tools}"
        self.reply(200, f"<html><head><title>People</title></head><body>{body}</body></html>")


def test_a_lesson_of_a_refused_write_holds_for_its_place_not_for_the_button_beside_it(tmp_path) -> None:
    # "Follow" (its POST refused, an alert added) and "Details" are one shape without positions.
    with explored_in_browser(_Profiles, tmp_path / "s", 30) as (store, engine):
        graph = ExplorationGraph(store)
        selectors = _clicked_selectors(store, graph)
        follow = "html > body > div > div:nth-of-type(1) > button"
        details = "html > body > div > div:nth-of-type(2) > button"
        # Two buttons of one shape, each clicked, neither showing a link: what one teaches holds
        # for the control in its place, never for the other button beside it.
        assert selectors.count(follow) >= 1 and selectors.count(details) >= 1, selectors
        learned = graph.idle_controls()
        assert "click html > body > div > div > button" not in learned, learned
        # and what "Follow" showed on the others' pages says nothing of "Edit" in its place
        assert graph.is_visited("/edit"), [s.route for s in store.history.steps()]
