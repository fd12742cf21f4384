"""Counts over a search's results, drawn the ways data grids and admin lists draw them: a range line
saying "thru" under a table beside the search form's own layout table; a "N records found" whose
pager leads on into pages that say there is nothing; the current tab of a tab bar stating the
length of the list under it. Each count that ignores the search is a mismatch; each that follows it
is not."""

from __future__ import annotations

import pytest

from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site("http://grid.test", "<html><head><title>Grid</title></head><body><main>", "</main></body></html>")

SEARCH_FORM = (
    '<form action="/seeds"><table class="search"><tr><td><select name="by"><option>By name</option>'
    '</select></td><td><input name="q" value="pea"></td><td><input type="submit" value="Search"></td>'
    "</tr></table></form>"
)


def rows(n: int) -> str:
    return "".join(f"<tr><td>Variety {k}</td><td>note {k}</td></tr>" for k in range(n))


def ranged_grid(listed: int, last: int, total: int) -> FetchedPage:
    pager = "".join(f'<a href="/seeds?q=pea&amp;page={p}">{p}</a>' for p in range(1, 4))
    return SITE.page(
        f'<div class="wrapper">{SEARCH_FORM}<div class="scroll"><table class="grid"><thead><tr><th>Name</th>'
        f"<th>Notes</th></tr></thead><tbody>{rows(listed)}</tbody></table></div>"
        f'<div class="footer"><div class="info">Displaying rows 1 thru {last} of {total}</div>'
        f'<div class="pages">{pager}</div></div></div>',
        "/seeds?q=pea",
    )


@pytest.mark.parametrize(("listed", "last", "total", "fires"), [(3, 10, 64, True), (3, 3, 3, False)])
def test_a_thru_range_under_a_grid_beside_its_search_forms_layout_table_is_read(
    listed: int, last: int, total: int, fires: bool
) -> None:
    # the search form lays its fields out in a table of its own: that is no list of records, and the
    # range line describes the one table of rows
    found = check_count_mismatch(ranged_grid(listed, last, total))
    assert [f.kind for f in found] == (["count_mismatch"] if fires else [])


def counted_grid(count: int, listed: int, page: int, pages: int) -> FetchedPage:
    table = (
        f"<table><thead><tr><th>Name</th><th>Notes</th></tr></thead><tbody>{rows(listed)}</tbody></table>"
        if listed
        else "<div>No records found</div>"
    )
    pager = "".join(
        f'<li><a href="/tools?keywords=saw&amp;page={p}">{p}</a></li>'
        for p in range(1, pages + 1)
        if p != page
    )
    return SITE.page(
        f'<div class="console"><form action="/tools"><input name="keywords" value="saw"></form>'
        f'<div class="counter">{count} records found</div></div>'
        f'<div class="table">{table}</div><div class="paginator"><ul>{pager}</ul></div>',
        f"/tools?keywords=saw&page={page}" if page > 1 else "/tools?keywords=saw",
    )


def test_a_count_whose_pager_leads_on_into_empty_pages_is_compared_with_the_rows_before_them() -> None:
    # "64 records found" pages seven pages, but the second already says there is nothing: the list
    # ended with the three rows of the first, however many pages the pager offers
    first = counted_grid(64, 3, 1, 7)
    site = SITE.fetcher(first, *(counted_grid(64, 0, p, 7) for p in range(2, 8)))
    found = check_count_mismatch(first, site)
    assert [f.kind for f in found] == ["count_mismatch"]
    assert (found[0].evidence["shown"], found[0].evidence["listed"]) == (64, 3)
    assert len(site.calls) == 1  # the walk stopped at the first empty page


def test_a_count_over_a_long_list_walked_past_its_limit_is_still_not_compared() -> None:
    # every page full: the list cannot be walked whole within the limit, so nothing is said
    first = counted_grid(64, 10, 1, 7)
    site = SITE.fetcher(first, *(counted_grid(64, 10, p, 7) for p in range(2, 8)))
    assert check_count_mismatch(first, site) == []


def tabbed_list(
    count: int, listed: int, current: bool = True, path: str = "/users?search=ann", pages: int = 1
) -> FetchedPage:
    active = ' class="nav-link active"' if current else ' class="nav-link"'
    table = (
        f'<table class="table"><thead><tr><th>Name</th><th>Email</th></tr></thead><tbody>{rows(listed)}</tbody></table>'
        if listed
        else '<table class="table"><tr><td colspan="2">There are no items in the table.</td></tr></table>'
    )
    pager = (
        '<ul class="pagination">'
        + "".join(f'<li><a href="/users?search=ann&amp;page={p}">{p + 1}</a></li>' for p in range(pages))
        + "</ul>"
        if pages > 1
        else ""
    )
    return SITE.page(
        f'<h4>User</h4><ul class="nav nav-tabs"><li class="nav-item"><a href="javascript:void(0)"{active}>'
        f'List ({count})</a></li><li class="nav-item"><a href="/users/new" class="nav-link">Create</a></li>'
        '<li class="nav-item dropdown"><a class="nav-link dropdown-toggle" href="javascript:void(0)">5 items</a>'
        '<div class="dropdown-menu"><a class="dropdown-item active" href="/users?page_size=5">5 items</a>'
        '<a class="dropdown-item" href="/users?page_size=10">10 items</a></div></li></ul>'
        '<form method="GET" action="/users"><input type="hidden" name="search" value="ann"></form>'
        f'<div class="clearfix"></div><div class="table-responsive">{table}</div>{pager}',
        path,
    )


@pytest.mark.parametrize(("count", "listed", "pages", "fires"), [(85, 3, 17, True), (3, 3, 1, False)])
def test_the_current_tabs_count_of_a_list_it_pages_states_the_length_of_the_list_under_the_bar(
    count: int, listed: int, pages: int, fires: bool
) -> None:
    # "List (85)" pages the three found users on into 17 pages, the second already empty; the
    # page-size menu's current "5 items" is a menu the tab holds, no count of the list
    first = tabbed_list(count, listed, pages=pages)
    site = SITE.fetcher(
        *(tabbed_list(count, 0, path=f"/users?search=ann&page={p}", pages=pages) for p in range(1, pages))
    )
    found = check_count_mismatch(first, site)
    assert [f.kind for f in found] == (["count_mismatch"] if fires else [])
    if fires:
        assert found[0].evidence["label"] == "List (85)"
        assert (found[0].evidence["shown"], found[0].evidence["listed"]) == (85, 3)


def test_a_tabs_count_over_one_page_is_not_taken_for_the_lists_length() -> None:
    # a tab may count more than its view shows (a search over joined rows counted per join): the
    # count is the list's only where the app pages the list by it
    assert check_count_mismatch(tabbed_list(8, 4)) == []


def test_a_tab_that_is_not_current_counts_no_list_shown() -> None:
    first = tabbed_list(85, 3, current=False, pages=17)
    site = SITE.fetcher(
        *(tabbed_list(85, 0, path=f"/users?search=ann&page={p}", pages=17) for p in range(1, 17))
    )
    assert check_count_mismatch(first, site) == []


def headed_list(count: int, listed: int, path: str) -> FetchedPage:
    return SITE.page(
        f"<h2>Users ({count})</h2><table><thead><tr><th>Name</th><th>Email</th></tr></thead>"
        f"<tbody>{rows(listed)}</tbody></table>",
        path,
    )


@pytest.mark.parametrize(
    ("path", "fires"), [("/users?page=1&page_size=20", False), ("/users?page_size=20", True)]
)
def test_a_later_page_without_a_pager_shows_the_rows_left_not_the_whole_count(path: str, fires: bool) -> None:
    # the second page of 31 (20 a page, counted from 0) lists 11; no pager is drawn on it to walk
    # the list whole — on the first page the same count over 11 rows is wrong
    found = check_count_mismatch(headed_list(31, 11, path))
    assert [f.kind for f in found] == (["count_mismatch"] if fires else [])
