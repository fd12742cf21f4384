"""The page of a listed row with a gap in its data is opened, and a 5xx there is reported
(`bughunt.oracles.row_pages`).

Generic markup: a table of people, each row with a "Show" link to `/people/show/<n>` and cells for
name, birthday and city; one row's birthday is empty or printed "None".
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.oracles.base import OracleConfig
from bughunt.oracles.row_pages import gap_row_page
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://people.test"


def page(path: str, body: str, status: int = 200) -> FetchedPage:
    html = f"<!doctype html><html><head><title>t</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), status, {}, "text/html", html, 1.0)


def table(birthdays: list[str]) -> FetchedPage:
    rows = "".join(
        f'<tr><td><a href="/people/show/{n}">Show</a></td><td>Person {n}</td><td>{b}</td><td>Oslo</td></tr>'
        for n, b in enumerate(birthdays, start=1)
    )
    return page(
        "/people/", f"<table><tr><th></th><th>Name</th><th>Birthday</th><th>City</th></tr>{rows}</table>"
    )


def test_the_row_with_a_gap_is_the_one_opened_unless_the_walk_loaded_it():
    listing = table(["1980-01-02", "None", "1975-03-04", ""])
    assert gap_row_page(listing) == ORIGIN + "/people/show/2"
    walked = OracleConfig(loaded=lambda route: route == "/people/show/2")
    assert gap_row_page(listing, walked) == ORIGIN + "/people/show/4"
    assert gap_row_page(table(["1980-01-02", "1990-05-06", "1975-03-04"])) is None
    # a column no row fills is no gap: the table shows nothing there
    assert gap_row_page(table(["", "", ""])) is None


def test_a_server_error_on_that_rows_page_is_reported_and_a_good_page_is_not():
    listing = table(["1980-01-02", "None", "1975-03-04"])
    failing = Recorder(page("/people/show/2", "<h1>Internal Server Error</h1>", status=500))
    findings = ORACLES["row_pages"](listing, failing, OracleConfig())
    assert [(f.kind, f.route) for f in findings] == [("server_error", "/people/show/2")]
    fine = Recorder(page("/people/show/2", "<h1>Person 2</h1>"))
    assert ORACLES["row_pages"](listing, fine, OracleConfig()) == [] and fine.asked == [
        ORIGIN + "/people/show/2"
    ]
