"""A sort header clicked on the last page of a list redraws the list's first page in the new order:
the page is longer than the one clicked on, and some of its rows were on that page. That is no batch
appended ("Load more" keeps the rows shown before where they were, the new ones after them), so no
row is "shown twice" (issue 25; corpus ho13_aiohttp_admin's clean build: a single-page admin that
remembers a list's page, sorted by a column from page 2). Pages here are made up."""

from __future__ import annotations

from dataclasses import replace

from bughunt.oracles.pagination import check_duplicate_pagination
from bughunt.page import FetchedPage
from bughunt.urls import route_of

NAMES = [
    "Ash",
    "Birch",
    "Cedar",
    "Elm",
    "Fir",
    "Hazel",
    "Larch",
    "Maple",
    "Oak",
    "Pine",
    "Rowan",
    "Yew",
    "Alder",
]
TOWNS = ["Leeds", "Bath", "York", "Ely", "Wells", "Ripon"]


def listing(rows: list[int], hash_query: str) -> FetchedPage:
    body = "".join(
        f"<tr><td>{i}</td><td>{NAMES[i - 1]}</td><td>{TOWNS[i % len(TOWNS)]}</td></tr>" for i in rows
    )
    html = (
        "<html><body><div id='root'><h1>Trees</h1><table><thead><tr><th><span role='button'>Id</span></th>"
        "<th><span role='button'>Name</span></th><th><span role='button'>Town</span></th></tr></thead>"
        f"<tbody>{body}</tbody></table></div></body></html>"
    )
    url = f"http://app.test/admin#/tree{hash_query}"
    return FetchedPage(url, route_of(url, hash_routes=True), 200, {}, "text/html", html, 1.0)


def test_a_sort_click_from_the_last_page_appends_nothing() -> None:
    last = listing([11, 12, 13], "?page=2&sort=id")
    by_town = sorted(range(1, 14), key=lambda i: (TOWNS[i % len(TOWNS)], i))[:10]
    assert any(i in by_town[3:] for i in (11, 12, 13))  # rows of the page before, further down
    resorted = replace(listing(by_town, "?page=1&sort=town"), clicked_from=(last, "Town"))
    assert check_duplicate_pagination(resorted, None) == []


def test_a_batch_appended_after_the_rows_shown_is_still_read() -> None:
    first = listing([1, 2, 3], "")
    grown = replace(listing([1, 2, 3, 3, 4], ""), clicked_from=(first, "More"))
    assert [f.kind for f in check_duplicate_pagination(grown, None)] == ["duplicate_pagination"]
