"""A record's form reached from every page's menu is compared with its collection's list first
(`form_urls.collection_path`): `/person3` ("Your details", posting to itself, no link back) is linked from the
menu of every message page and from the row of `/person`, which shows its organisation.

Generic markup of our own: a tracker whose pages share a side menu; the person list is a table of
username, real name and organisation.
"""

from __future__ import annotations

from bughunt.oracles.base import OracleConfig
from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://tracker.test"
MENU = '<nav><a href="/">Tickets</a> <a href="/person">People</a> <a href="/person3">Your details</a></nav>'
PEOPLE = ((1, "ann", "Ann Moss", "Harbor Works"), (3, "bea", "Bea Lund", "Northwind Labs"))


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>Tracker</title></head><body>{MENU}<main>{body}</main></body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


MESSAGES = [
    page(f"/message{n}", f"<h1>Message {n}</h1><p>Printing fails on page {n}.</p>") for n in (1, 2, 3)
]
PEOPLE_LIST = page(
    "/person",
    "<table><tr><th>Username</th><th>Real name</th><th>Organisation</th></tr>"
    + "".join(
        f'<tr><td><a href="/person{n}">{login}</a></td><td>{name}</td><td>{org}</td></tr>'
        for n, login, name, org in PEOPLE
    )
    + "</table>",
)


def details(organisation: str) -> FetchedPage:
    return page(
        "/person3",
        '<form method="post" action="person3"><table>'
        '<tr><th>Username</th><td><input name="username" value="bea"></td></tr>'
        '<tr><th>Real name</th><td><input name="realname" value="Bea Lund"></td></tr>'
        f'<tr><th>Organisation</th><td><input name="organisation" value="{organisation}"></td></tr>'
        '<tr><td colspan="2"><input type="submit" value="Submit changes"></td></tr></table></form>',
    )


def fields(form: FetchedPage) -> list[str]:
    # memory's link table: every page's menu links the form, in route order
    referrers = ["/", "/message1", "/message2", "/message3", "/person"]
    config = OracleConfig(linked_from=lambda _route: referrers, loaded=lambda _route: True)
    fetch = Recorder(page("/", "<h1>Tickets</h1>"), PEOPLE_LIST, *MESSAGES)
    return [f.evidence["field"] for f in check_form_drops_value(form, fetch, config)]


def test_the_collections_list_shows_the_organisation_the_form_dropped():
    assert fields(details("")) == ["organisation"]


def test_the_form_holding_the_organisation_drops_nothing():
    assert fields(details("Northwind Labs")) == []
