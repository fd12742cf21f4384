"""A select that keeps the stored value by sending nothing is no value dropped (issue 25: a tracker's reply
and basics forms, reached from the ticket's page once the walk reads the record's own pages).

Generic markup of our own: a ticket's page shows "Status: open" and "Owner: Nobody in particular"; its update form
offers each as a select whose chosen option sends nothing and says so ("open (Unchanged)"), the other
options changing it — a reply form may offer the replier as the new owner, "ann (Unchanged)". Only what is picked changes; the form drops nothing.
"""

from __future__ import annotations

from bughunt.oracles.base import OracleConfig
from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://tickets.test"


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>Tickets</title></head><body><main>{body}</main></body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


TICKET = page(
    "/ticket/show?id=151",
    "<h1>#151: Printer on floor 3 jams</h1>"
    '<div class="row"><span class="label">Status:</span> <span class="value">open</span></div>'
    '<div class="row"><span class="label">Owner:</span> <span class="value">Nobody in particular</span></div>'
    '<p>The tray jams on every second page.</p><a href="/ticket/update?id=151">Update</a>',
)


def update(chosen: str) -> FetchedPage:
    return page(
        "/ticket/update?id=151",
        '<form method="post" action="/ticket/update"><input type="hidden" name="id" value="151">'
        '<input name="Subject" value="Printer on floor 3 jams">'
        '<label>Status:</label><select name="Status">'
        f'<option value="" {chosen}>open (Unchanged)</option><option value="open">open</option>'
        '<option value="resolved">resolved</option></select>'
        '<label>Owner:</label><select name="Owner">'
        f'<option value="" {chosen}>ann (Unchanged)</option><option value="6">Nobody in particular</option>'
        '<option value="7">ann</option></select>'
        '<textarea name="Content"></textarea><input type="submit" value="Update ticket"></form>'
        '<a href="/ticket/show?id=151">Back to the ticket</a>',
    )


def fields(form: FetchedPage) -> list[str]:
    config = OracleConfig(known_routes=lambda: ["/ticket/show?id=151"], linked_from=lambda _r: [])
    return [f.evidence["field"] for f in check_form_drops_value(form, Recorder(TICKET), config)]


def test_a_select_whose_chosen_option_keeps_the_value_drops_nothing():
    assert fields(update("selected")) == []
