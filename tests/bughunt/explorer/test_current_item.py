"""A menu's current item (`bughunt.explorer.current_item`): the control whose words head the view the
page shows, or a control of the page's pager. Its idle click teaches its place only
(`idle_controls.lessons`); read here on pages of our own, without a browser."""

from __future__ import annotations

import pytest

from bughunt.explorer.current_item import current_item, names_shown_view
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://editor.test"


def page(body: str, path: str = "/admin") -> FetchedPage:
    html = f"<!doctype html><html><head><title>t</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


MENU = (
    '<ul id="menu"><li><a href="#" class="nav-link">Blog Posts</a></li>'
    '<li><a href="#" class="nav-link">People</a></li></ul>'
)
ONE_PAGE = (
    '<nav><ul class="pagination"><li class="page-item active"><a class="page-link" href="#">1</a></li>'
    '<li class="page-item disabled"><a class="page-link" href="#">Next</a></li></ul></nav>'
)
PAGER = (
    '<nav><ul class="pagination"><li class="page-item"><a class="page-link" href="#">1</a></li>'
    '<li class="page-item"><a class="page-link" href="#">2</a></li>'
    '<li class="page-item"><a class="page-link" href="#">Next</a></li></ul></nav>'
)
ROWS = "<table><tbody>" + "".join(f"<tr><td>Row {i}</td></tr>" for i in range(3)) + "</tbody></table>"


def test_the_item_whose_words_head_the_view_is_the_current_one() -> None:
    shown = page(f"{MENU}<main><h2>Blog Posts</h2>{ROWS}</main>")
    assert names_shown_view(shown, " Blog   posts ")
    assert not names_shown_view(shown, "People")
    assert not names_shown_view(shown, "")


def test_a_heading_that_holds_a_control_or_is_hidden_names_no_view() -> None:
    # a list entry titled by its own script link is an item of the list, not the view's name
    assert not names_shown_view(page(f'{MENU}<h3><a href="#">Blog Posts</a></h3>'), "Blog Posts")
    assert not names_shown_view(page(f"{MENU}<div hidden><h2>Blog Posts</h2></div>"), "Blog Posts")


def test_a_pager_that_pages_nothing_is_a_menu_and_one_that_pages_or_a_row_s_control_is_not() -> None:
    pager_one = "html > body > main > nav > ul > li:nth-of-type(1) > a"
    single = page(f"{MENU}<main><h2>Blog</h2>{ROWS}{ONE_PAGE}</main>")
    assert current_item(single, pager_one, "1")
    shown = page(f'{MENU}<main><h2>People</h2>{ROWS}{PAGER}<a href="#" id="more">Refresh</a></main>')
    assert current_item(shown, "#app", "x") is False  # no such control
    assert not current_item(shown, pager_one, "1")  # its "2" and "Next" page on
    assert not current_item(shown, "#more", "Refresh")


FOLDERS = (
    # the folders and tabs act by script (`onclick` here; in the browser a listener's mark)
    '<ul class="folders"><li class="selected" onclick="go()">Inbox</li><li onclick="go()">Archive</li>'
    '<li onclick="go()">Sent</li></ul>'
    '<p><span class="tab" aria-selected="true" onclick="go()">Mail</span>'
    '<span class="tab" onclick="go()">Calendar</span></p>'
    '<nav><a href="#" aria-current="page">Home</a><a href="#">Help</a></nav>'
)


@pytest.mark.parametrize(
    ("selector", "label", "current"),
    [
        ("html > body > ul > li:nth-of-type(1)", "Inbox", True),  # `li.selected`: a reader's folder
        ("html > body > ul > li:nth-of-type(2)", "Archive", False),
        ("html > body > p > span:nth-of-type(1)", "Mail", True),  # a tab `aria-selected`
        ("html > body > p > span:nth-of-type(2)", "Calendar", False),
        ("html > body > nav > a:nth-of-type(1)", "Home", True),  # `aria-current`
        ("html > body > nav > a:nth-of-type(2)", "Help", False),
    ],
)
def test_an_item_its_menu_marks_current_is_the_current_one(selector: str, label: str, current: bool) -> None:
    shown = page(FOLDERS + "<h2>Messages</h2>")
    assert current_item(shown, selector, label) is current


def test_a_current_mark_of_the_list_around_the_items_marks_none_of_them() -> None:
    # an `active` tab pane holding a list of rows says nothing of each row
    shown = page(
        '<div class="active"><ul><li><span class="acts" onclick="x()">Row one</span></li></ul></div>'
    )
    assert not current_item(shown, "html > body > div > ul > li > span", "Row one")
