"""A table's details row is part of the entry above it, not an item (duplicate_pagination).

Generic markup, no application's templates: a paginated table of logged entries, each a row with
its pencil link (`/entries/<n>/`) and cells; an entry with notes has a second row under it, with no
link, spanning the columns (`tr.row-details`: read with the table's rows and, by its class, as a run
of its own). Notes repeat across entries ("Woke up calm."), so a notes row on page 2 reads like one
on page 1 while the entries differ.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://log.test"
PER_PAGE, ENTRIES = 4, 10
NOTES = {
    1: "Woke up calm.",
    3: "Woke up curious.",
    5: "Woke up calm.",
    6: "Woke up happy.",
    7: "Woke up curious.",
}


def rows(n: int) -> str:
    entry = (
        f'<tr><td><a href="/entries/{n}/" class="btn"><i class="icon-edit"></i></a></td>'
        f'<th scope="row">Nov {n}, 3 a.m.</th><td>{n % 3 + 1} hours</td></tr>'
    )
    if n in NOTES:
        entry += f'<tr class="row-details"><td colspan="3">{NOTES[n]}</td></tr>'
    return entry


def page(number: int, start: int) -> FetchedPage:
    entries = "".join(rows(n) for n in range(start + 1, min(start + PER_PAGE, ENTRIES) + 1))
    pager = "".join(
        f'<li class="page-item"><a class="page-link" href="/entries/?page={n}">{n}</a></li>'
        for n in (1, 2, 3)
        if n != number
    )
    html = (
        "<!doctype html><html><head><title>Log</title></head><body><h1>Entries</h1>"
        f'<table class="table"><tbody>{entries}</tbody></table><ul class="pagination">{pager}</ul></body></html>'
    )
    url = f"{ORIGIN}/entries/?page={number}"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def findings(repeat: bool) -> list[str]:
    first, second = page(1, 0), page(2, PER_PAGE - (1 if repeat else 0))
    return [f.kind for f in ORACLES["duplicate_pagination"](second, Recorder(first, second))]


def test_a_notes_row_reading_like_one_on_the_page_before_is_no_repeated_item():
    assert findings(repeat=False) == []


def test_an_entry_the_next_page_repeats_is_still_reported():
    assert findings(repeat=True) == ["duplicate_pagination"]
