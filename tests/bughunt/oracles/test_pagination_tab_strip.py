"""A strip of tabs and menus above a paged table (a list-view's "List (12)", "Create", "Add filter",
page-size menu) whose links carry each page's own address is the same list on both pages, not a list
the pager pages: no repeat is reported on it. A row the pager really carries over is still reported.
Pages of our own, in the shape a generated CRUD admin draws (zero-based `?page=`)."""

from __future__ import annotations

from bughunt.oracles.pagination import check_duplicate_pagination
from bughunt.page import FetchedPage
from tests.support.pages import Fetcher, Site, not_found

ORIGIN = "http://admin.test"


_page = Site(ORIGIN, "<html><body>", "</body></html>").page


def _users(page: int, rows: range) -> FetchedPage:
    here = f"/admin/user/?page={page}&page_size=3"
    tabs = (
        '<div class="container"><ul class="nav nav-tabs">'
        '<li class="nav-item"><a href="javascript:void(0)" class="nav-link active">List (12)</a></li>'
        f'<li class="nav-item"><a href="/admin/user/new/?url={here.replace("&", "%26")}" class="nav-link">Create</a></li>'
        '<li class="nav-item dropdown"><a class="nav-link dropdown-toggle" href="javascript:void(0)">Add Filter</a>'
        '<div class="dropdown-menu"><a href="javascript:void(0)" class="dropdown-item">First Name</a>'
        '<a href="javascript:void(0)" class="dropdown-item">Phone Number</a></div></li>'
        '<li class="nav-item dropdown"><a class="nav-link dropdown-toggle" href="javascript:void(0)">3 items</a>'
        f'<div class="dropdown-menu"><a class="dropdown-item" href="/admin/user/?page={page}&amp;page_size=3">3 items</a>'
        f'<a class="dropdown-item" href="/admin/user/?page={page}&amp;page_size=6">6 items</a></div></li>'
        "</ul>"
    )
    table = "".join(
        f'<tr><td><a href="/admin/user/edit/?id={n}">Edit</a></td><td>User {n}</td><td>user{n}@example.test</td></tr>'
        for n in rows
    )
    pager = (
        '<ul class="pagination">'
        + "".join(
            f'<li class="page-item"><a class="page-link" href="/admin/user/?page={p}&amp;page_size=3">{p + 1}</a></li>'
            for p in range(4)
        )
        + "</ul>"
    )
    return _page(tabs + f"<table><tbody>{table}</tbody></table>{pager}</div>", here)


def _check(first: FetchedPage, second: FetchedPage) -> list:
    return check_duplicate_pagination(second, Fetcher(first, second, missing=not_found(_page)))


def test_a_tab_strip_whose_links_carry_the_page_is_no_repeat():
    assert _check(_users(0, range(1, 4)), _users(1, range(4, 7))) == []


def test_a_row_carried_over_is_still_reported_below_the_tab_strip():
    (found,) = _check(_users(0, range(1, 4)), _users(1, range(3, 6)))
    assert found.kind == "duplicate_pagination" and "User 3" in found.evidence["repeated"]
