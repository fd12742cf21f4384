"""Which controls of a click state are its own (`explorer/state_controls.py`) and where a finding made on
a click state was (`explorer/click_address.py`): read on pages of our own, without a browser."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bughunt.actions import Action, page_clicks
from bughunt.dom import Node
from bughunt.explorer.click_address import named_by_state, script_fragment, state_address
from bughunt.explorer.state_controls import control_key, opened_group, own_first, shows_new_content
from bughunt.focus_controls import control_label
from bughunt.oracles import Finding
from bughunt.page import FetchedPage

ORIGIN = "http://mail.test"


def _page(body: str, url: str = ORIGIN + "/", before: FetchedPage | None = None) -> FetchedPage:
    route = url.removeprefix(ORIGIN).split("#")[0] or "/"
    page = FetchedPage(url, route, 200, {}, "text/html", f"<html><body>{body}</body></html>", 1.0)
    return replace(page, clicked_from=(before, "x")) if before is not None else page


def test_a_control_says_the_same_whatever_its_case_spacing_or_counts() -> None:
    assert control_key(" Inbox  (3) ") == control_key("inbox (12)")
    assert control_key("Old invoice") != control_key("Lunch on Friday")


ROWS = "<table><tr onclick='go()'><td>Ann</td><td>Lunch</td></tr></table>"


def test_new_words_outside_the_page_s_controls_are_new_content() -> None:
    before = _page('<span onclick="t()">Detailed</span>' + ROWS)
    # the detailed layout: a date column (content) and a Preview action per row
    detailed = _page(
        '<span onclick="t()">Compact</span>' + ROWS.replace("</tr>", "<td>2026-01-01</td></tr>"),
        before=before,
    )
    actions = [Action("click", ORIGIN + "/", "Compact", "a"), Action("click", ORIGIN + "/", "Preview", "b")]
    assert shows_new_content(detailed, actions)
    # a menu opened: its items' words are all the new words there are
    menu = _page(before.body + '<ul role="menu"><li role="menuitem">Rename item</li></ul>', before=before)
    assert not shows_new_content(menu, [Action("click", ORIGIN + "/", "Rename item", "c")])
    assert not shows_new_content(_page(before.body), actions)  # loaded, not clicked


PANEL = (
    '<div class="panel"><form><label>Max days retention</label><input name="days">'
    '<label>Enable IP logging</label><input type="checkbox" name="ip"></form>'
    '<button onclick="s()">Save</button></div>'
)


def test_a_panel_or_a_form_section_opened_beside_the_list_is_no_swapped_template() -> None:
    before = _page('<span onclick="t()">Settings</span>' + ROWS)
    # a settings panel drawn beside the rows: new words (its fields' labels), in no list that stood there
    panel = _page('<span onclick="t()">Settings</span>' + ROWS + PANEL, before=before)
    assert not shows_new_content(panel, [Action("click", ORIGIN + "/", "Save", "s")])
    # the rows themselves drawn in another template (a date column): the list's template swapped
    detailed = _page(
        '<span onclick="t()">Settings</span>' + ROWS.replace("</tr>", "<td>2026-01-01</td></tr>"),
        before=before,
    )
    assert shows_new_content(detailed, [])


GROUP = '<button aria-expanded="false" onclick="o()">Advanced options</button><div></div>'
FIELDS = '<label>Retries</label><input type="checkbox"><button onclick="r()">Reset</button>'


def test_a_group_folded_inside_a_form_is_the_form_s_a_group_of_content_is_the_state_s() -> None:
    for markup, own in ((GROUP, True), (f"<form>{GROUP}</form>", False)):
        before = _page(markup)
        opener = next(n for n in page_clicks(before).clickables if n.tag == "button")
        selector = page_clicks(before).selectors.of(opener)
        opened = _page(markup.replace("<div></div>", f"<div>{FIELDS}</div>"), before=before)
        assert opened_group(opened, selector) is own, markup


BODY = '<h1 id="top">Mail</h1><p>text</p>'


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        (ORIGIN + "/#Inbox/3", "Inbox/3"),  # a Sammy/Backbone route: names no element
        (ORIGIN + "/#Intranet%20banner", "Intranet%20banner"),  # a wiki's tiddler
        (ORIGIN + "/#top", None),  # a place on the page
        (ORIGIN + "/#/items/3", None),  # a hash route: in the route already
        (ORIGIN + "/", None),
    ],
)
def test_a_fragment_naming_no_element_is_a_script_s_view_address(url: str, fragment: str | None) -> None:
    assert script_fragment(_page(BODY, url)) == fragment


def test_a_finding_of_a_click_state_is_named_by_the_view_the_click_opened() -> None:
    before = _page(BODY)
    state = "/#click-0123456789ab"
    hashed = _page(BODY, ORIGIN + "/#Sent/21", before=before)
    assert state_address(hashed, state) == "/#Sent/21"
    assert state_address(_page(BODY, before=before), state) == "/"  # the URL did not change: the page's
    pushed = replace(_page(BODY, ORIGIN + "/mail/21", before=before), route="/mail/21")
    assert state_address(pushed, state) == "/mail/21"  # pushState: the page's route is the view's
    on_page = Finding("client_error", "/", "uncaught JavaScript error")
    on_api = Finding("server_error", "/api/mail/21", "HTTP 500")
    named = named_by_state([on_page, on_api], hashed, state)
    assert [f.route for f in named] == ["/#Sent/21", "/api/mail/21"]
    assert [f.fingerprint for f in named] == [on_page.fingerprint, on_api.fingerprint]  # one bug still
    assert named_by_state([on_page], hashed, "/") == [on_page]  # a page loaded, no click state


def _controls(page: FetchedPage) -> dict[str, tuple[Node, str]]:
    walked = page_clicks(page)
    return {walked.selectors.of(n): (n, control_label(n)) for n in walked.clickables}


SIDEBAR = (
    '<div class="side"><button onclick="n()">New</button><button onclick="c()">Control panel</button></div>'
)
TIDDLER = (
    '<div class="tiddler"><span><button onclick="m()">more</button><button onclick="e()">edit</button>'
    '<button onclick="x()">close</button></span><h2>{}</h2><p>text</p></div>'
)


def test_a_state_s_own_controls_come_before_those_the_page_before_offered() -> None:
    start = _page(SIDEBAR + "<section>" + TIDDLER.format("Start") + "</section>")
    opened = _page(
        SIDEBAR + "<section>" + TIDDLER.format("Banner") + TIDDLER.format("Start") + "</section>",
        before=start,
    )
    ordered = [label for _, label in own_first(_controls(opened), opened).values()]
    # the opened tiddler's toolbar first; the sidebar and the tiddler shown before (now second) last
    assert ordered[:3] == ["more", "edit", "close"]
    assert ordered[-5:] == ["New", "Control panel", "more", "edit", "close"], ordered
    assert list(own_first(_controls(start), start)) == list(_controls(start))  # a page loaded: as it is
