"""Rows whose only link carries the address of the page they are listed on (a grid's
`details/15?_referrer=<that address, hex-encoded>`, an admin's `edit/?id=15&url=/list?page=2`) are the
same records on two pages: the value every row carries alike names the list, not the row, so a row the
pager carries over is reported. Rows that differ stay apart. Pages of our own."""

from __future__ import annotations

from bughunt.oracles.pagination import check_duplicate_pagination
from bughunt.page import FetchedPage
from tests.support.pages import Fetcher, Site, not_found

ORIGIN = "http://seeds.test"


_page = Site(ORIGIN, "<html><body>", "</body></html>").page


def _catalogue(page: int, rows: range) -> FetchedPage:
    path = f"/catalogue?page={page}"
    back = (ORIGIN + path).encode().hex().upper()
    cells = "".join(
        f"<tr><td>Variety {n}</td><td>Tomato</td>"
        f'<td><a class="details" href="/catalogue/details/{n}?_referrer={back}">Details</a></td></tr>'
        for n in rows
    )
    pager = "".join(f'<a class="pager" href="/catalogue?page={p}">{p}</a>' for p in (1, 2, 3))
    return _page(f"<table><tbody>{cells}</tbody></table><div class='pagination'>{pager}</div>", path)


def _check(first: FetchedPage, second: FetchedPage) -> list:
    return check_duplicate_pagination(second, Fetcher(first, second, missing=not_found(_page)))


def test_a_row_carried_over_is_reported_though_its_link_names_the_page_it_is_on():
    (found,) = _check(_catalogue(1, range(1, 5)), _catalogue(2, range(4, 8)))
    assert found.kind == "duplicate_pagination" and found.evidence["previous_url"].endswith("?page=1")


def test_pages_of_other_rows_are_no_repeat():
    assert _check(_catalogue(1, range(1, 5)), _catalogue(2, range(5, 9))) == []
