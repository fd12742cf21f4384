"""A heading stating how many rows a page's one table holds, with filter forms and facet lists between
the two ("12 rows where kind = 3"): compared with the table's rows when no way on to a later page is
drawn (a pager, or one "Next page" link to a keyset page). Made-up data browser, generic markup."""

from __future__ import annotations

import pytest

from bughunt.oracles.counts import check_count_mismatch
from bughunt.oracles.lists import has_pagination
from tests.support.pages import Site

SITE = Site(
    "http://data.test", "<html><head><title>things</title></head><body><section>", "</section></body></html>"
)


def table_page(stated: int, rows: int, path: str = "/db/things?kind=3", more: bool = False, corner: str = ""):
    facets = "".join(f'<li><a href="/db/things?kind={k}">kind {k}</a> {k * 4}</li>' for k in (1, 2, 3))
    body = "".join(
        f'<tr><td><a href="/db/things/{n}">{n}</a></td><td>Thing {n}</td><td>3</td></tr>' for n in range(rows)
    )
    pager = f'<p><a href="/db/things?kind=3&amp;_next={rows}">Next page</a></p>' if more else ""
    return SITE.page(
        f"<h1>things</h1><h3>{stated} rows\n   where kind = 3</h3>"
        '<form action="/db/things" method="get"><select name="_col"><option>kind</option></select>'
        '<input name="_val" value="3"><input type="submit" value="Apply"></form>'
        f'<div class="facets"><p>kind</p><ul>{facets}</ul></div>'
        f"<table><thead><tr>{corner}<th>id</th><th>name</th><th>kind</th></tr></thead><tbody>{body}</tbody></table>"
        + pager,
        path,
    )


@pytest.mark.parametrize(("stated", "rows", "fires"), [(12, 12, False), (96, 12, True), (1, 0, False)])
def test_a_heading_total_is_compared_with_the_one_table_below_it(stated: int, rows: int, fires: bool):
    found = check_count_mismatch(table_page(stated, rows))
    assert [f.kind for f in found] == (["count_mismatch"] if fires and rows else [])


def test_a_table_with_a_next_page_link_is_part_of_its_rows():
    page = table_page(96, 20, "/db/things", more=True)
    assert has_pagination(page), "one Next page link to a keyset page is a way on"
    assert check_count_mismatch(page) == []


def test_the_last_page_of_a_keyset_list_shows_the_rows_left():
    # 30 rows in all, page 2 (`?_next=20`) shows the last 10 and no way on
    assert check_count_mismatch(table_page(30, 10, "/db/things?_next=20")) == []


def search_page(stated: int, rows: range, page: int, pages: int, *, heading: str = "Found {n} tickets"):
    """A ticket search: each ticket drawn on two rows (its linked subject, then its requester), in a
    row group of its own; a numbered pager of `pages` pages, 3 tickets a page."""
    groups = "".join(
        f'<tbody class="record"><tr><td><a href="/Ticket/Display.html?id={n}">#{n}</a></td>'
        f"<td>Printer {n} jams</td></tr><tr><td>Requestor: ann</td><td>2 days ago</td></tr></tbody>"
        for n in rows
    )
    links = " ".join(
        str(p) if p == page else f'<a href="/Search/Results.html?Query=open&amp;Page={p}">{p}</a>'
        for p in range(1, pages + 1)
    )
    path = "/Search/Results.html?Query=open" + (f"&Page={page}" if page > 1 else "")
    return SITE.page(
        f"<div id=header><h1>{heading.format(n=stated)}</h1></div>"
        f"<table><thead><tr><th>#</th><th>Subject</th></tr></thead>{groups}</table>"
        + (f'<div class="paging">Page {links}</div>' if pages > 1 else ""),
        path,
    )


@pytest.mark.parametrize(("stated", "fires"), [(7, False), (3, True), (6, True)])
def test_a_search_s_total_over_a_list_that_pages_on_is_compared_with_all_its_pages(stated: int, fires: bool):
    # 7 tickets on three pages: "Found 7" holds, "Found 3" counts this page's rows alone
    first = search_page(stated, range(1, 4), 1, 3)
    others = [search_page(stated, range(4, 7), 2, 3), search_page(stated, range(7, 8), 3, 3)]
    found = check_count_mismatch(first, SITE.fetcher(first, *others))
    assert [(f.kind, f.evidence["shown"], f.evidence["listed"]) for f in found] == (
        [("count_mismatch", stated, 7)] if fires else []
    )


def test_a_search_s_total_is_of_its_records_not_of_their_rows():
    # six tickets of two rows each: twelve rows, six records
    assert check_count_mismatch(search_page(6, range(1, 7), 1, 1, heading="{n} tickets found")) == []
    assert check_count_mismatch(search_page(12, range(1, 7), 1, 1))[0].evidence["listed"] == 6


def test_a_total_over_pages_that_cannot_all_be_read_is_not_compared():
    first = search_page(3, range(1, 4), 1, 3)
    only_two = SITE.fetcher(first, search_page(3, range(4, 7), 2, 3))  # page 3 answers 404
    assert check_count_mismatch(first, only_two) == []
    assert check_count_mismatch(first) == []  # no fetch: nothing beyond this page is known


def test_a_heading_row_with_an_empty_corner_is_no_row_of_the_table():
    # an empty corner (`<td></td>` over a column of row checkboxes) among the headings: the table's head
    assert check_count_mismatch(table_page(12, 12, corner="<td></td>")) == []
