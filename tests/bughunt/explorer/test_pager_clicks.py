"""A list paged by buttons without addresses (an htmx table's icon pager, swapped in place): the page's
clicks to its next page are known (`PageFacts.next_pages`) and the planner takes one before the page's
other clicks and links, or the pager waits behind every row's buttons and the repeat it shows is missed."""

from __future__ import annotations

from bughunt.actions import page_clicks
from bughunt.explorer.browser import BrowserEngine
from bughunt.explorer.clicking import label_of as _label_of
from bughunt.explorer.facts import read_page
from bughunt.page import FetchedPage
from bughunt.planning import planner_strategy
from bughunt.sim.memory import Memory
from bughunt.sim.rng import mulberry32
from bughunt.urls import route_of

ORIGIN = "http://links.test"


def _nav(first_page: bool, words: bool) -> str:
    prev = ' disabled="true"' if first_page else ""
    label = "Next" if words else '<svg viewBox="0 0 9 9"><path d="m3 6 3-3"/></svg>'
    return (
        '<tr><th><div class="pagination">'
        f'<button type="button" class="nav prev" onclick="turn(-1)"{prev}><svg><path d="m6 3-3 3"/></svg></button>'
        f'<button type="button" class="nav next" onclick="turn(1)">{label}</button>'
        "</div></th></tr>"
    )


def _table(first_page: bool = True, words: bool = False) -> FetchedPage:
    nav = _nav(first_page, words)
    rows = "".join(
        f'<tr id="tr-{n}"><td><a href="/links/{n}/edit">link {n}</a></td>'
        f'<td><button type="button" onclick="copy({n})">Copy</button></td></tr>'
        for n in range(3)
    )
    html = (
        "<!doctype html><html><head><title>Links</title></head><body>"
        f"<table><thead>{nav}</thead><tbody>{rows}</tbody><tfoot>{nav}</tfoot></table></body></html>"
    )
    url = ORIGIN + "/links"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def _next_selectors(page: FetchedPage) -> set[str]:
    facts = read_page(page, BrowserEngine(ORIGIN + "/", respect_robots=False))
    selector = {route: selector for route, _, selector in facts.clicks}
    return {selector[route] for route in facts.next_pages}


def test_the_icon_pager_of_a_first_page_is_its_way_to_the_next_page_above_and_below_the_table() -> None:
    found = _next_selectors(_table())
    assert len(found) == 2, found  # the header's and the footer's copy
    assert all(s.endswith("button:nth-of-type(2)") for s in found), found


def test_two_enabled_icons_tell_no_way_on_but_a_next_that_says_so_does() -> None:
    assert _next_selectors(_table(first_page=False)) == set()  # "‹" or "›": which leads on is unknown
    assert len(_next_selectors(_table(first_page=False, words=True))) == 2


def test_the_planner_takes_the_next_page_of_a_list_before_its_rows() -> None:
    edits = [f"/links/{n}/edit" for n in range(3)]
    clicks = [f"/links#click-{n}" for n in range(4)]
    mem = Memory()
    mem.write("/links", (*edits, *clicks))

    def shape(route: str) -> str:
        return "/links#click" if "#click" in route else "/links/<n>/edit"

    def choices(**hints: object) -> set[str]:
        planner = planner_strategy.with_templates(shape, listed=edits, **hints)  # type: ignore[arg-type]
        return {planner("/links", (*edits, *clicks), mem, mulberry32(s)) for s in range(1000, 1012)}

    assert "/links#click-3" not in choices()
    assert choices(next_pages=["/links#click-3"]) == {"/links#click-3"}


def test_a_click_replayed_by_its_selector_keeps_the_controls_label() -> None:
    # the link table keeps a click state's selector only: the label is read off the page clicked
    page = _table()
    walked = page_clicks(page)
    by_label = {n.text(): walked.selectors.of(n) for n in walked.clickables if n.text()}
    assert _label_of(page, by_label["Copy"]) == "Copy"
    assert _label_of(page, "#nowhere > button") == ""


def test_the_way_to_the_next_page_is_clicked_however_many_controls_come_before_it() -> None:
    # A single-page app's list: a menu (controls of their own ids), then every row's "⋮" button, then an icon pager under the
    # table (`href="#"` links whose click handler pages the list): more controls than a page's click
    # allowance come before the pager's way on.
    menu = "".join(
        f'<li><a id="menu-{c}" href="#" onclick="menu({c!r})">Item {c}</a></li>'
        for c in "abcdefghijklmnopqrst"
    )
    rows = "".join(
        f'<tr><td><a href="#/items/{n}/">item {n}</a></td><td><a href="#" class="subtle"><svg></svg></a></td></tr>'
        for n in range(15)
    )
    pager = (
        '<div id="pagination"><ul><li><a href="#" class="subtle disabled"><svg class="left"></svg></a></li>'
        '<li><input type="number" min="1" max="6"></li><li>of 6</li>'
        '<li><a href="#" class="subtle"><svg class="right"></svg></a></li></ul></div>'
    )
    html = f"<!doctype html><html><head><title>Items</title></head><body><ul>{menu}</ul><table>{rows}</table>{pager}</body></html>"
    url = ORIGIN + "/#/items/"
    page = FetchedPage(url, "/#/items/", 200, {}, "text/html", html, 1.0)
    engine = BrowserEngine(ORIGIN + "/", respect_robots=False)
    selectors = [a.selector for a in engine.actions(page) if a.kind == "click"]
    assert any(s.endswith("li:nth-of-type(4) > a") for s in selectors), selectors
    assert _next_selectors(page) and _next_selectors(page) <= set(selectors)


def _icon_pager(icons: tuple[str, ...]) -> FetchedPage:
    links = "".join(
        f'<li><a href="#" class="subtle"><svg class="svg-inline--fa fa-{i}" data-icon="{i}"></svg></a></li>'
        for i in icons
    )
    html = (
        "<!doctype html><html><head><title>Items</title></head><body><table><tr><td>a</td></tr></table>"
        f'<div id="pagination"><ul>{links}</ul></div></body></html>'
    )
    url = ORIGIN + "/#/items/"
    return FetchedPage(url, "/#/items/", 200, {}, "text/html", html, 1.0)


def test_an_icon_named_for_a_right_arrow_is_the_way_on_on_any_page_of_the_list() -> None:
    # On a middle page "‹" and "›" are both enabled and alike but for their pictures' names.
    from bughunt.oracles.lists import pager_ways_on

    ways = pager_ways_on(_icon_pager(("angle-left", "angle-right")))
    assert [w.find_all("svg")[0].get("data-icon") for w in ways] == ["angle-right"]
    ways = pager_ways_on(
        _icon_pager(("angles-left", "angle-double-left", "angle-double-right", "chevron-left"))
    )
    assert ways == []  # a double arrow is the last page, and two plain icons tell nothing


def test_a_control_styled_disabled_is_not_offered_as_a_click() -> None:
    # A link has no `disabled` attribute: a pager marks its "‹" on the first page with a class. Its
    # click does nothing, and the lesson would hold for "›" too (one selector shape).
    page = _icon_pager(("angle-left", "angle-right"))
    disabled = page.body.replace('class="subtle"', 'class="subtle disabled"', 1)
    disabled = disabled.replace("<table>", '<a href="#" id="menu">Menu</a><table>')
    page = FetchedPage(page.url, page.route, 200, {}, "text/html", disabled, 1.0)
    engine = BrowserEngine(ORIGIN + "/", respect_robots=False)
    selectors = [a.selector for a in engine.actions(page) if a.selector.startswith("#pagination")]
    assert selectors == ["#pagination > ul > li:nth-of-type(2) > a"], selectors


def test_a_click_states_clicks_are_those_its_page_can_make_again() -> None:
    # Page 2 of an icon pager is a click state of page 1 (same URL): its clicks are replayed on
    # page 1, where "‹" is disabled — offering it would teach that the pager's shape leads nowhere.
    from dataclasses import replace

    menu = '<a href="#" id="menu">Menu</a><table>'
    body = _icon_pager(("angle-left", "angle-right")).body.replace("<table>", menu)
    first = replace(_icon_pager(()), body=body.replace('class="subtle"', 'class="subtle disabled"', 1))
    second = replace(_icon_pager(()), body=body, clicked_from=(first, ""))
    facts = read_page(second, BrowserEngine(ORIGIN + "/", respect_robots=False))
    # the menu's `href="#"` is the page itself on a hash-routed page: a control like the pager's
    assert [selector for _, _, selector in facts.clicks] == [
        "#menu",
        "#pagination > ul > li:nth-of-type(2) > a",
    ]
    assert len(facts.next_pages) == 1
