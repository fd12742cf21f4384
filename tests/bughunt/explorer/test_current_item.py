"""A menu's current item (`bughunt.explorer.current_item`): the control whose words head the view the
page shows, or a control of the page's pager. Its idle click teaches its place only
(`idle_controls.lessons`); read here on pages of our own, without a browser."""

from __future__ import annotations

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
