"""An element named for a field that holds controls (a `filter-box` around a search form and its menu of
preset filters) shows controls, not the field's stored value: an edit form's empty "filter" preference
is not a value the record's page shows. Made-up project tool, generic markup."""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site("http://tool.test", "<html><head><title>Ann - Tool</title></head><body>", "</body></html>")
FILTER_BOX = (
    '<div class="filter-box"><form method="get" action="/search"><input type="text" name="q" placeholder="Search">'
    '<div class="dropdown"><a href="#">Default filters</a><ul>'
    '<li><a href="#" data-filter="status:open">Open tasks</a></li>'
    '<li><a href="#" data-filter="status:closed">Closed tasks</a></li></ul></div></form></div>'
)


def user_page(filter_box: str = FILTER_BOX, shown_filter: str = "") -> FetchedPage:
    filter_row = f"<tr><th>Filter</th><td>{shown_filter}</td></tr>" if shown_filter else ""
    return SITE.page(
        '<h1>Ann Moreau</h1><table class="properties">'
        f"<tr><th>Name</th><td>Ann Moreau</td></tr><tr><th>Email</th><td>ann@tool.test</td></tr>{filter_row}</table>"
        f'{filter_box}<a href="/users/2/edit">Edit profile</a>',
        "/users/2",
    )


def edit_form(filter_value: str = "") -> FetchedPage:
    value = f' value="{filter_value}"' if filter_value else ""
    return SITE.page(
        '<form method="post" action="/users/2/edit">'
        '<label for="f-name">Name</label><input id="f-name" name="name" value="Ann Moreau">'
        '<label for="f-email">Email</label><input id="f-email" name="email" value="ann@tool.test">'
        f'<label for="f-filter">Filter</label><input type="text" id="f-filter" name="filter"{value}>'
        "<button>Save</button></form>",
        "/users/2/edit",
    )


def test_a_box_of_controls_named_for_a_field_is_not_its_value():
    assert check_form_drops_value(edit_form(), SITE.fetcher(user_page())) == []


def test_a_value_shown_beside_its_label_is_still_compared():
    shown = user_page(shown_filter="status:open assignee:me")
    (finding,) = check_form_drops_value(edit_form(), SITE.fetcher(shown))
    assert finding.evidence["fields"] == "filter"
