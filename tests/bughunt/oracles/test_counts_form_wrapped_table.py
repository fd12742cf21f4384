"""A count above a table held in a form for its rows' actions (count_mismatch).

Generic markup: a filter bar (a search form) with "N tags total" under it, then a `form method=post`
holding the page's CSRF token (a hidden input) and the table of tags, each row with its edit and
remove controls, then a pager of one page. The hidden input is no content: the form wraps the table.
"""

from __future__ import annotations

from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://tags.test"
NAMES = ("css", "design", "food", "garden", "music", "travel", "work")


def page(total: int) -> FetchedPage:
    rows = "".join(
        f'<tr><td>{name}</td><td><a href="/bookmarks?q=%23{name}">{i + 2}</a></td>'
        f'<td><a href="/tags/{i}/edit">Edit</a> <button name="delete_tag" value="{i}">Remove</button></td></tr>'
        for i, name in enumerate(NAMES)
    )
    body = (
        '<div class="filters"><form method="get"><input name="search" placeholder="Search tags">'
        f'<button>Search</button></form><p class="small">{total} tags total</p></div>'
        '<form method="post"><input type="hidden" name="csrf_token" value="k3y">'
        '<table class="table"><thead><tr><th>Name</th><th>Bookmarks</th><th>Actions</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></form>"
        '<ul class="pagination"><li class="disabled"><a href="#">Previous</a></li>'
        '<li class="active"><a href="/tags?page=1">1</a></li><li class="disabled"><a href="#">Next</a></li></ul>'
    )
    html = f"<!doctype html><html><head><title>Tags</title></head><body><main>{body}</main></body></html>"
    url = ORIGIN + "/tags"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def test_a_count_over_a_table_in_a_form_with_its_token_is_compared_with_the_rows():
    (finding,) = check_count_mismatch(page(32))
    assert finding.evidence["shown"] == 32 and finding.evidence["listed"] == len(NAMES)


def test_the_right_count_is_silent():
    assert check_count_mismatch(page(len(NAMES))) == []
