"""A filter form in the toolbar that holds the pager is no list the pager pages (duplicate_pagination).

Generic markup, no application's templates: a toolbar `div` holds the pager and a GET filter form
whose fields each sit in a `div.col` with a label ("Search", "Payer", "Start date"); the records are
a table after the toolbar, each row's only link an "edit" action; a closed "add a record" dialog's
labelled form groups sit above. Read as lists, the filter boxes were the run nearest the pager and
the table was never compared (and the dialog's field groups repeated on every page).
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://bills.test"
PER_PAGE, BILLS = 4, 10
QUERY = "search=&payer=&date_from="


def _field(name: str, label: str, control: str) -> str:
    return f'<div class="col mb-2"><label for="{name}" class="sr-only">{label}</label>{control}</div>'


def page(number: int, bills: list[int]) -> FetchedPage:
    rows = "".join(
        f"<tr><td>2025-01-{n:02d}</td><td>Payer {n % 3}</td><td>Groceries</td><td>{n * 7}.50</td>"
        f'<td class="actions"><a class="edit" href="/bills/edit/{n}">edit</a></td></tr>'
        for n in bills
    )
    pager = "".join(
        f'<li class="page-item"><a class="page-link" href="/bills/?page={n}&amp;{QUERY}">{n}</a></li>'
        for n in range(1, (BILLS - 1) // PER_PAGE + 2)
    )
    dialog = (
        '<div class="modal fade"><form method="post" action="/bills/add">'
        + _field("what", "What?", '<input id="what" name="what" type="text">')
        + _field(
            "who", "Who paid?", '<select id="who" name="who"><option>Ann</option><option>Bo</option></select>'
        )
        + "</form></div>"
    )
    filters = (
        '<form method="GET" action="/bills/"><div class="row">'
        + _field("search", "Search", '<input id="search" name="search" type="text">')
        + _field("payer", "Payer", '<select id="payer" name="payer"><option value="">Any</option></select>')
        + _field("date_from", "Start date", '<input id="date_from" name="date_from" type="date">')
        + "</div></form>"
    )
    html = (
        "<!doctype html><html><head><title>Bills</title></head><body><main>"
        f'{dialog}<div class="toolbar"><ul class="pagination">{pager}</ul>{filters}</div>'
        f'<table class="table"><thead><tr><th>When</th><th>Who</th><th>What</th><th>How much</th>'
        f"<th>Actions</th></tr></thead><tbody>{rows}</tbody></table></main></body></html>"
    )
    url = f"{ORIGIN}/bills/?page={number}&{QUERY}"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def site(repeat: bool) -> dict[int, FetchedPage]:
    newest = list(range(BILLS, 0, -1))
    pages = {}
    for number in (1, 2, 3):
        start = (number - 1) * PER_PAGE - (1 if repeat and number > 1 else 0)
        pages[number] = page(number, newest[start : start + PER_PAGE])
    return pages


def findings(pages: dict[int, FetchedPage], number: int) -> list[str]:
    return [f.kind for f in ORACLES["duplicate_pagination"](pages[number], Recorder(*pages.values()))]


def test_the_table_beside_a_filter_toolbar_is_compared_and_its_repeat_reported():
    assert findings(site(repeat=True), 2) == ["duplicate_pagination"]


def test_pages_that_repeat_nothing_report_nothing_though_the_forms_are_on_every_page():
    pages = site(repeat=False)
    assert [findings(pages, n) for n in (2, 3)] == [[], []]
