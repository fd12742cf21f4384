"""A table's empty state drawn as one row across its columns: "0 users found." over column headings
and a single cell spanning them all ("<none>"). That line is the table's, not a record: the list is
empty, as its count says; a count of one over it disagrees. Generic markup of an admin's search
results (a heading row of `th`s, then the rows)."""

from __future__ import annotations

from bughunt.oracles.counts import check_count_mismatch
from bughunt.oracles.lists import list_items
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://admin.test"


def page(stated: int) -> FetchedPage:
    body = (
        f"<div id='main'><p>{stated} users found.</p><table id='users'>"
        "<tr><th>Login</th><th>Real name</th><th>Last login</th></tr>"
        "<tr><td colspan='3' class='center'><i>&lt;none&gt;</i></td></tr></table>"
        "<p>You can <a href='/users'>find other users</a> or <a href='/users/add'>add a new user</a>.</p></div>"
    )
    html = f"<!doctype html><html><head><title>Users</title></head><body>{body}</body></html>"
    url = ORIGIN + "/users?action=list&match=bob"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def test_a_row_across_the_headed_columns_is_no_record() -> None:
    table = page(0).document.find_all("table")[0]
    assert list_items(table) == []
    assert check_count_mismatch(page(0)) == []


def test_a_count_of_one_over_the_empty_line_disagrees() -> None:
    assert [f.kind for f in check_count_mismatch(page(1))] == ["count_mismatch"]
