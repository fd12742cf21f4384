"""An item's link that keeps the list's page number names the same item on every page (duplicate_pagination).

Generic markup, no application's templates: a paginated list of bookmarks, each item's title linking out
to its site and a "View" link opening its details panel over the list it was clicked on — the list's own
query plus `details=<id>` (`?details=47` on page 1, `?page=2&details=47` on page 2). The page number in
that link belongs to the page, not to the item: the item the next page repeats is the same item.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://marks.test"
PER_PAGE, MARKS = 5, 12


def item(n: int, number: int) -> str:
    here = f"page={number}&" if number > 1 else ""
    return (
        f'<li class="bookmark"><a href="https://site{n}.example/" rel="noopener">Site {n} reading list</a>'
        f'<div class="actions"><small>2 days ago</small> | <a href="?{here}details={n}">View</a></div></li>'
    )


def page(number: int, start: int, numbered: bool = False) -> FetchedPage:
    items = "".join(item(n, number) for n in range(start + 1, min(start + PER_PAGE, MARKS) + 1))
    pager = "".join(
        f'<li class="page-item"><a href="?page={n}">{n}</a></li>' for n in (1, 2, 3) if n != number
    )
    html = (
        "<!doctype html><html><head><title>Bookmarks</title></head><body><h1>Bookmarks</h1>"
        f'<ul class="bookmark-list">{items}</ul><ul class="pagination">{pager}</ul></body></html>'
    )
    url = f"{ORIGIN}/bookmarks?page={number}" if number > 1 or numbered else f"{ORIGIN}/bookmarks"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def findings(repeat: bool) -> list[str]:
    first, second = page(1, 0), page(2, PER_PAGE - (1 if repeat else 0))
    alias = page(1, 0, numbered=True)  # the pager's link back to page 1
    return [f.kind for f in ORACLES["duplicate_pagination"](second, Recorder(first, alias, second))]


def test_an_item_the_next_page_repeats_is_reported_though_its_link_keeps_the_page_number():
    assert findings(repeat=True) == ["duplicate_pagination"]


def test_pages_of_other_items_are_silent():
    assert findings(repeat=False) == []
