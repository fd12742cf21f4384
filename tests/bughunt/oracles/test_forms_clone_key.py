"""A clone form: a tracker's "Clone this ticket" opens its new-ticket form filled from ticket 45
(`?cloned_ticket_id=45`). The summary and the component are copied; the assignee is left for the
person filing the new ticket. That empty box is the new record's, not a value dropped: a query key
naming the record to copy (`clone`, `copy` among its words) makes the page a create page. The same
form editing ticket 45 and leaving its assignee empty still drops it. Made-up site, generic markup."""

from __future__ import annotations

from dataclasses import replace

from bughunt.oracles.base import DEFAULT_CONFIG, OracleConfig
from bughunt.oracles.form_urls import creates
from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://tickets.test",
    '<html><head><title>Tickets</title></head><body><div id="header"><a href="/">Tickets</a></div><div id="body">',
    "</div></body></html>",
)
CONFIG: OracleConfig = replace(
    DEFAULT_CONFIG,
    known_routes=lambda: ["/show_ticket.php?id=45"],
    linked_from=lambda _r: ["/show_ticket.php?id=45"],
)
TICKET = SITE.page(
    '<h1>Ticket 45</h1><table class="fields"><tr><th>Summary:</th><td id="summary">Login fails on Sundays</td></tr>'
    '<tr><th>Component:</th><td id="component">Auth</td></tr>'
    '<tr><th>Assignee:</th><td id="assigned_to">alice@example.com</td></tr></table>',
    "/show_ticket.php?id=45",
)


def ticket_form(path: str) -> FetchedPage:
    return SITE.page(
        '<form method="post" action="/post_ticket.php"><table>'
        '<tr><th><label for="summary">Summary:</label></th>'
        '<td><input id="summary" name="summary" value="Login fails on Sundays"></td></tr>'
        '<tr><th><label for="component">Component:</label></th>'
        '<td><input id="component" name="component" value="Auth"></td></tr>'
        '<tr><th><label for="assigned_to">Assignee:</label></th>'
        '<td><input id="assigned_to" name="assigned_to" value=""></td></tr></table>'
        '<input type="submit" value="Save"></form>',
        path,
    )


def test_a_form_filled_from_the_record_it_clones_drops_nothing() -> None:
    path = "/enter_ticket.php?project=Docs&cloned_ticket_id=45"
    assert creates(SITE.origin + path)
    assert check_form_drops_value(ticket_form(path), SITE.fetcher(TICKET), CONFIG) == []


def test_the_same_form_editing_the_record_still_drops_its_assignee() -> None:
    found = check_form_drops_value(ticket_form("/edit_ticket.php?id=45"), SITE.fetcher(TICKET), CONFIG)
    assert [f.kind for f in found] == ["form_drops_value"]
