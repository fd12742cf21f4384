"""A framework that marks its own query keys (`?@action=unlink`, so they never clash with a form's
fields) names its actions by them like any `?action=`: a GET that unlinks a message from its ticket
and answers the ticket page (with its POST edit form, no redirect) has acted. The tracker is a small
one of our own."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from bughunt.oracles import ORACLES, OracleConfig
from bughunt.oracles.destructive_words import destructive_action
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://tracker.test"


class Tracker:
    """`/ticket7` lists its messages, each with a "remove" link `ticket7?@action=unlink&msg=<n>`; a
    GET of it takes the message off the ticket and answers the ticket page with a notice."""

    def __init__(self) -> None:
        self.messages = [11, 12, 13]

    def ticket(self, path: str, notice: str = "") -> FetchedPage:
        rows = "".join(
            f'<tr><th>msg{n} (Author: ann)</th><td><a href="ticket7?@action=unlink&amp;msg={n}">remove</a></td></tr>'
            f"<tr><td colspan=2><pre>Message {n} text</pre></td></tr>"
            for n in self.messages
        )
        html = (
            f"<html><body><main><p>{notice}</p><h1>Parser crash</h1>"
            '<form method="post" action="ticket7"><input name="title" value="Parser crash">'
            '<input type="submit" value="Submit changes"></form>'
            f'<table class="messages">{rows}</table></main></body></html>'
        )
        url = ORIGIN + path
        return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)

    def __call__(self, url: str) -> FetchedPage:
        parts = urlsplit(url)
        query = parse_qs(parts.query)
        if query.get("@action") == ["unlink"]:
            msg = int(query["msg"][0])
            if msg in self.messages:
                self.messages.remove(msg)
            return self.ticket(f"{parts.path}?{parts.query}", "Message removed")
        return self.ticket(parts.path)


def test_a_marked_action_key_names_the_action():
    assert destructive_action(ORIGIN + "/ticket7?@action=unlink&msg=11") == "ticket7 unlink"
    assert destructive_action(ORIGIN + "/ticket7?@action=delete") == "ticket7 delete"
    # the framework's other actions and a search for the word name no destructive action
    assert destructive_action(ORIGIN + "/ticket?@action=search&@filter=status") is None
    assert destructive_action(ORIGIN + "/ticket?@action=show&@number=7") is None
    assert destructive_action(ORIGIN + "/search?q=unlink") is None


def test_a_get_that_unlinks_a_message_is_opened_and_confirmed_by_its_effect():
    site = Tracker()
    found = ORACLES["unconfirmed_destructive"](
        site.ticket("/ticket7"), site, OracleConfig(allow_destructive=True, opened_destructive={})
    )
    # one message unlinked; the other rows' links take its verdict unopened: one bug
    assert site.messages == [12, 13]
    assert [f.route for f in found] == [f"/ticket7?@action=unlink&msg={n}" for n in (11, 12, 13)]
    assert {f.fingerprint for f in found} == {found[0].fingerprint}
    assert not any(f.suspected for f in found)
    assert found[0].evidence["effect"] == "gone from the page that listed it"


def test_unopened_the_unlink_link_is_a_lead():
    site = Tracker()
    found = ORACLES["unconfirmed_destructive"](site.ticket("/ticket7"), site, OracleConfig())
    assert found and all(f.suspected for f in found) and site.messages == [11, 12, 13]
