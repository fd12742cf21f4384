"""A layout's rows around a paginated list are not the list (duplicate_pagination).

Generic markup, no application's templates: the page is three `div.row`s — the content column
holding a `ul` of entries and a pager of loose links (no list, no class), a row of outside links and
a copyright row. The content row's only identity is the pager's last link: the same on every page
but the last, where the two rows beside it read as items repeated from the page before.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://notes.test"
PER_PAGE, ENTRIES = 5, 13


def page(number: int, titles: list[int]) -> FetchedPage:
    entries = "".join(f'<li><a href="/note/{n}/note-{n}">Note {n}</a></li>' for n in titles)
    last = (ENTRIES - 1) // PER_PAGE + 1
    pager = " ".join(
        str(n) if n == number else f'<a href="{ORIGIN}/?page={n}">{n}</a>' for n in range(1, last + 1)
    )
    html = (
        '<!doctype html><html><head><title>Notes</title></head><body><div class="container">'
        f'<div class="row"><div class="col-md-10"><h2>Notes</h2><ul>{entries}</ul>{pager}</div></div>'
        '<div class="row"><div class="links"><ul><li><a href="https://example.org/code">Code</a></li>'
        '<li><a href="https://example.org/chat">Chat</a></li></ul></div></div>'
        '<div class="row"><div class="copyright">Copyright the notes</div></div>'
        "</div></body></html>"
    )
    url = f"{ORIGIN}/?page={number}"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def site(repeat: bool) -> dict[int, FetchedPage]:
    newest = list(range(ENTRIES, 0, -1))
    pages = {}
    for number in range(1, 4):
        start = (number - 1) * PER_PAGE - (1 if repeat and number > 1 else 0)
        pages[number] = page(number, newest[start : start + PER_PAGE])
    return pages


def findings(pages: dict[int, FetchedPage], number: int) -> list[str]:
    fetch = Recorder(*pages.values())
    return [f.kind for f in ORACLES["duplicate_pagination"](pages[number], fetch)]


def test_the_last_pages_layout_rows_are_not_items_repeated_from_the_page_before():
    pages = site(repeat=False)
    assert [findings(pages, n) for n in (2, 3)] == [[], []]


def test_an_entry_the_next_page_repeats_is_still_reported_beside_the_layout_rows():
    pages = site(repeat=True)
    assert findings(pages, 2) == ["duplicate_pagination"]
