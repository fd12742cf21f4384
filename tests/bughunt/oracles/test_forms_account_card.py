"""An account's own settings form opened by its Edit button, in an application whose accounts log in
by e-mail: the form holds the e-mail and an empty full name, while the sidebar's account button shows
the name over that e-mail (an avatar's initials beside them). The card is the witness: the form
dropped the stored name. A card for another e-mail, or printing "N/A", is none. Made-up admin app."""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site("http://admin.test", "<html><head><title>Settings</title></head><body>", "</body></html>")


def settings(
    full_name: str, card_name: str = "Dana Reyes", card_mail: str = "dana@example.test"
) -> FetchedPage:
    body = (
        '<aside><div class="sidebar-footer"><button type="button" data-testid="user-menu">'
        '<div class="user"><span class="avatar">DR</span><div class="who">'
        f'<p class="name">{card_name}</p><p class="mail">{card_mail}</p></div></div></button></div></aside>'
        "<main><h1>User Settings</h1><h3>User Information</h3><form>"
        f'<label for="f1">Full name</label><input id="f1" type="text" name="full_name" value="{full_name}">'
        '<label for="f2">Email</label><input id="f2" type="email" name="email" value="dana@example.test">'
        '<button type="submit">Save</button><button type="button">Cancel</button></form></main>'
    )
    return SITE.page(body, "/settings")


def test_the_name_a_user_card_shows_over_the_forms_email_is_dropped_when_empty():
    (finding,) = check_form_drops_value(settings(""), SITE.fetcher())
    assert finding.evidence["fields"] == "full_name" and finding.evidence["shown"] == "Dana Reyes"


def test_the_form_holding_the_name_is_silent():
    assert check_form_drops_value(settings("Dana Reyes"), SITE.fetcher()) == []


def test_a_card_of_another_account_or_without_a_name_witnesses_nothing():
    assert check_form_drops_value(settings("", card_mail="bo@example.test"), SITE.fetcher()) == []
    assert check_form_drops_value(settings("", card_name="N/A"), SITE.fetcher()) == []
