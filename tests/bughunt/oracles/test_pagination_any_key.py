"""A list paged by a query key no reading names is read from what its links do (issue 25).

Generic markup, no application's templates: a table of records paged by `?batch=N` (a name no word list
holds), its pager a row of numbered links or of a way back and a way on drawn as glyphs outside any
vocabulary ("◂", "▸"); and, for contrast, a record page whose box links its neighbouring records
`?id=N-1`, `?id=N+1` by name. Every fetch the oracle makes is recorded.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.oracles.pagination import previous_page_url
from bughunt.page import FetchedPage
from bughunt.urls import route_of
from tests.support.pages import Recorder

ORIGIN = "http://ledger.test"


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>t</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def table(*names: str) -> str:
    rows = "".join(
        f'<tr><td><a href="/entry/{n.lower()}">{n}</a></td><td>{len(n)} units</td></tr>' for n in names
    )
    return f"<table><thead><tr><th>Name</th><th>Units</th></tr></thead><tbody>{rows}</tbody></table>"


def numbered(current: int, last: int) -> str:
    cells = "".join(
        f"<b>{n}</b>" if n == current else f'<a href="/entries?sort=name&batch={n}">{n}</a>'
        for n in range(1, last + 1)
    )
    return f'<div class="bar">{cells}</div>'


def glyphs(current: int) -> str:
    back = f'<a href="/entries?batch={current - 1}">◂</a>' if current > 2 else '<a href="/entries">◂</a>'
    return f'<div class="bar">{back}<a href="/entries?batch={current + 1}">▸</a></div>'


def check(p: FetchedPage, fetch: Recorder) -> list[str]:
    return [f.kind for f in ORACLES["duplicate_pagination"](p, fetch)]


def test_numbered_links_under_an_unnamed_key_page_the_list():
    first = page("/entries?sort=name&batch=1", table("Ada", "Bea", "Cal") + numbered(1, 3))
    second = page("/entries?sort=name&batch=2", table("Cal", "Dot", "Eve") + numbered(2, 3))
    assert previous_page_url(second) == ORIGIN + "/entries?sort=name&batch=1"
    assert check(second, Recorder(first)) == ["duplicate_pagination"]
    right = page("/entries?sort=name&batch=2", table("Dot", "Eve", "Fay") + numbered(2, 3))
    assert check(right, Recorder(first)) == []


def test_a_way_back_and_a_way_on_in_glyphs_page_the_list_from_its_bare_first_page():
    first = page(
        "/entries", table("Ada", "Bea", "Cal") + '<div class="bar"><a href="/entries?batch=2">▸</a></div>'
    )
    second = page("/entries?batch=2", table("Cal", "Dot", "Eve") + glyphs(2))
    third = page("/entries?batch=3", table("Eve", "Fay", "Gus") + glyphs(3))
    assert previous_page_url(second) == ORIGIN + "/entries"
    assert check(second, Recorder(first)) == ["duplicate_pagination"]
    assert check(third, Recorder(second)) == ["duplicate_pagination"]


def test_a_box_of_neighbouring_records_named_by_title_is_no_pager():
    def record(n: int, *names: str) -> FetchedPage:
        box = (
            f'<aside><a href="/shelf?id={n - 1}">Shelf {n - 1}</a> '
            f'<a href="/shelf?id={n + 1}">Shelf {n + 1}</a></aside>'
        )
        return page(f"/shelf?id={n}", table(*names) + box)

    fetch = Recorder(record(92, "Dune", "Emma", "Ulysses"))
    shelf = record(93, "Ulysses", "Walden", "Beloved")
    assert previous_page_url(shelf) is None
    assert check(shelf, fetch) == [] and fetch.asked == []
