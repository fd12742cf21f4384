"""A settings form (no record in its URL) is compared with the account's row in a list of accounts.

Generic markup, no application's templates: `/settings` holds the signed-in account's form (name,
e-mail, affiliation, web site) and every page's menu links to it; the list of accounts `/people`
shows a row per account under column headers (name, web site, affiliation). No row links to the
settings, so the list was read whole — the affiliation column's first value is another account's —
and an affiliation the form left empty went unseen. The row showing the form's values is the record;
other players' profiles (pages naming a record the form does not) come after the list.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.oracles.base import OracleConfig
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://ctf.test"
MENU = '<nav><a href="/people">People</a> <a href="/settings">Settings</a></nav>'
PEOPLE = [
    ("bo", "https://bo.example.org", "Harbour College"),
    ("alice", "https://alice.example.org", "Loopback University"),
    ("cy", "", ""),
]


def _page(path: str, body: str) -> FetchedPage:
    url = ORIGIN + path
    html = (
        f"<!doctype html><html><head><title>CTF</title></head><body>{MENU}<main>{body}</main></body></html>"
    )
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


def people() -> FetchedPage:
    rows = "".join(
        f'<tr><td><a href="/people/{n}">{name}</a></td>'
        f"<td>{f'<a href={site!r}>{site}</a>' if site else ''}</td><td><span>{aff}</span></td></tr>"
        for n, (name, site, aff) in enumerate(PEOPLE, start=1)
    )
    return _page(
        "/people",
        "<table><thead><tr><th>Name</th><th>Website</th><th>Affiliation</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>",
    )


def settings(affiliation: str) -> FetchedPage:
    fields = [
        ("name", "Name", "alice"),
        ("email", "Email", "alice@example.org"),
        ("affiliation", "Affiliation", affiliation),
        ("website", "Website", "https://alice.example.org"),
    ]
    inputs = "".join(
        f'<label for="{k}">{label}</label><input id="{k}" name="{k}" type="text" value="{v}">'
        for k, label, v in fields
    )
    return _page("/settings", f'<form method="post">{inputs}<button type="submit">Save</button></form>')


def profile(n: int) -> FetchedPage:
    name, site, aff = PEOPLE[n - 1]
    return _page(f"/people/{n}", f"<h1>{name}</h1><p>{aff}</p>")


def findings(affiliation: str) -> list[tuple[str, str]]:
    # every page's menu links to the settings: other players' profiles, loaded first, and the list
    linked = ["/people/1/followers", "/people/1", "/people/3", "/people"]
    config = OracleConfig(linked_from=lambda route: linked, loaded=lambda route: True)
    pages = [people(), profile(1), profile(3), _page("/people/1/followers", "<ul><li>cy</li></ul>")]
    found = ORACLES["form_drops_value"](settings(affiliation), Recorder(*pages), config)
    return [(f.evidence["fields"], f.evidence["shown"]) for f in found]


def test_the_accounts_own_row_shows_the_affiliation_its_settings_form_left_empty():
    assert findings("") == [("affiliation", "Loopback University")]


def test_a_settings_form_holding_every_value_reports_nothing():
    assert findings("Loopback University") == []
