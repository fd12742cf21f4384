"""A list a script pages in place ("›" swaps the rows, the URL stays): the way to page 3 is "›" clicked on
page 2, not on page 1. A click state made on a state that clicks reached is named on that state and
replayed as the whole sequence (`ExplorationGraph.click_chain`, bounded by `MAX_CHAIN`), so the pages
past the second are reached; and an `href="#"` on a hash-routed page is the page itself (a control to
click), not a link to the app's root."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from bughunt.actions import Action
from bughunt.explorer.browser import BrowserEngine
from bughunt.explorer.facts import read_page, turned_page
from bughunt.explorer.graph import MAX_CHAIN, ExplorationGraph
from bughunt.page import FetchedPage
from bughunt.urls import absolute
from tests.support.engines import explored_in_browser
from tests.support.loopback import script_shell

ORIGIN = "http://links.test"


def _list_page(number: int, clicked_from: FetchedPage | None = None, label: str = "") -> FetchedPage:
    prev = 'class="prev disabled"' if number == 1 else 'class="prev"'
    items = "".join(f'<div class="item"><h2>Item {number}{n}</h2></div>' for n in range(2))
    html = (
        "<!doctype html><html><head><title>Items</title></head><body>"
        f'<a href="#" id="menu" onclick="menu()">Menu</a><div class="feed">{items}</div>'
        f'<ul class="pagination"><li><a href="#" {prev}>‹</a></li><li><a href="#" class="next">›</a></li></ul>'
        "</body></html>"
    )
    url = ORIGIN + "/#/items/"
    made = (clicked_from, label) if clicked_from is not None else None
    return FetchedPage(url, "/#/items/", 200, {}, "text/html", html, 1.0, clicked_from=made)


def _engine() -> BrowserEngine:
    return BrowserEngine(ORIGIN + "/", respect_robots=False)


def test_a_bare_fragment_is_the_page_itself_its_hash_route_kept() -> None:
    assert absolute(ORIGIN + "/#/items/", "#") == ORIGIN + "/#/items/"
    assert absolute(ORIGIN + "/#/items/", "#top") == ORIGIN + "/#/items/"
    assert absolute(ORIGIN + "/list?page=2", "#") == ORIGIN + "/list?page=2"
    assert absolute(ORIGIN + "/#/items/", "#/other/") == ORIGIN + "/#/other/"
    # so a script's `href="#"` control on a hash-routed page is clicked, not followed to `/`
    engine = _engine()
    actions = engine.actions(_list_page(1))
    assert {engine.route_of(a.target) for a in actions} == {"/#/items/"}, actions
    assert ("click", "#menu") in {(a.kind, a.selector) for a in actions}
    links = read_page(_list_page(1), engine).links
    assert len(links) == 2 and all(r.startswith("/#/items/#click-") for r in links), links


def test_the_way_on_of_a_state_is_made_on_that_state_and_the_other_clicks_on_the_page() -> None:
    first = _list_page(1)
    on_first = read_page(first, _engine())
    (next_state,) = on_first.next_pages
    second = _list_page(2, clicked_from=first, label="›")
    way = next(selector for route, _, selector in on_first.clicks if route == next_state)
    on_second = read_page(second, _engine(), state=(next_state, way))
    made = {selector: (route, page) for route, page, selector in on_second.clicks}
    by_selector = {selector: route for route, _, selector in on_first.clicks}
    way_on = next(s for s in made if s.endswith("li:nth-of-type(2) > a"))
    # "›" on page 2 is a state of page 2 (replayed after page 2's click), not page 1's "›" again
    assert made[way_on][1] == next_state and made[way_on][0] != by_selector[way_on]
    assert on_second.next_pages == {made[way_on][0]}
    # the menu is the page's: the same state from any page of the list; "‹" (disabled on page 1,
    # where a state's other clicks are replayed) is not offered
    assert made["#menu"] == (by_selector["#menu"], "/#/items/")
    assert len(made) == 2, made
    # a click that showed the same items (a list's end, a control beside it) is no page to go on from
    same = read_page(
        replace(second, clicked_from=(replace(second, clicked_from=(first, "›")), "›")),
        _engine(),
        state=("/#/items/#click-2", way),
    )
    assert {page for _, page, _ in same.clicks} == {"/#/items/"}, same.clicks


def test_the_chain_is_bounded() -> None:
    page = _list_page(1)
    for n in range(MAX_CHAIN):
        page = _list_page(n + 2, clicked_from=page, label="›")
    facts = read_page(
        page, _engine(), state=("/#/items/#click-deep", "html > body > ul > li:nth-of-type(2) > a")
    )
    # at the bound the way on is the page's own again: a state already seen, not one more click deep
    assert all(made_on == "/#/items/" for _, made_on, _ in facts.clicks), facts.clicks


APP_JS = """
// an icon pager: no words on its controls, the picture's name says which way they lead
const app = document.getElementById('app');
// five pages of three items; page 4 starts one item early (item 9 is on pages 3 and 4)
const items = p => p === 4 ? [9, 10, 11] : [1, 2, 3].map(i => (p - 1) * 3 + i);
const show = p => {
  app.innerHTML = '<h1>Items</h1><div class="feed">'
    + items(p).map(i => '<div class="preview"><h2>Item number ' + i + '</h2><p>about ' + i + '</p></div>').join('')
    + '</div><ul class="pagination"><li><a href="#" class="prev' + (p === 1 ? ' disabled' : '') + '"><svg data-icon="angle-left"></svg></a></li>'
    + '<li><a href="#" class="next' + (p === 5 ? ' disabled' : '') + '"><svg data-icon="angle-right"></svg></a></li></ul>';
  app.querySelector('.prev').addEventListener('click', e => { e.preventDefault(); if (p > 1) show(p - 1); });
  app.querySelector('.next').addEventListener('click', e => { e.preventDefault(); if (p < 5) show(p + 1); });
};
const route = () => {
  if (location.hash.startsWith('#/items/')) show(1);
  else app.innerHTML = '<h1>Home</h1><p>Welcome to the item shop.</p><a href="#/items/">Items</a>';
};
window.addEventListener('hashchange', route);
route();
"""


_Spa = script_shell(APP_JS, title="Shop")


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")
def test_a_repeat_on_the_fourth_page_of_a_list_paged_in_place_is_found(tmp_path) -> None:
    with explored_in_browser(_Spa, tmp_path / "s", 8) as (store, engine):
        graph = ExplorationGraph(store)
        bugs = [b for b in store.bug_table.live() if b.kind == "duplicate_pagination"]
        assert len(bugs) == 1, [(b.kind, b.route) for b in store.bug_table.live()]
        steps = {s.n: s.route for s in store.history.steps()}
        (seen,) = store.bug_table.occurrences()[bugs[0].fingerprint]
        chain = graph.click_chain(steps[seen.first_step])
        assert chain is not None and chain[0] == "/#/items/", chain
        assert len(chain[1]) == 3 and len(set(chain[1])) == 1, chain  # "›", "›", "›": the fourth page
        # the state is loaded again as the same sequence of clicks: still the fourth page
        again = engine.perform(Action("click", engine.url_of(chain[0]), "", chain[1][-1], chain[1][:-1]))
        assert again.page is not None and "Item number 10" in again.page.visible_text


def test_a_list_s_last_page_has_no_way_on_and_going_back_turns_no_page() -> None:
    from bughunt.oracles.lists import pager_ways_on

    # the last page: "›" disabled, "‹" the one enabled icon — the way back, not on
    last = _list_page(3).body.replace('class="next"', 'class="next disabled"')
    last = last.replace(">‹<", '><svg data-icon="angle-left"></svg><').replace(
        ">›<", '><svg data-icon="angle-right"></svg><'
    )
    page = replace(_list_page(3), body=last)
    assert pager_ways_on(page) == []
    # page 1 → 2 → "‹" → page 1 again: nothing the clicks had not shown, no page to chain on from
    first = _list_page(1)
    second = _list_page(2, clicked_from=first, label="›")
    back = _list_page(1, clicked_from=second, label="")
    assert turned_page(second) and not turned_page(back)
