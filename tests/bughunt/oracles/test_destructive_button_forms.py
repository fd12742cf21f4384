"""A page's own Delete drawn as a GET form of hidden values and a button, sent to the page's own
address (`?action=delete&version=3`): the action is the form's submission, not the bare page, so it
is read as destructive (and opened with --allow-destructive). Made-up wiki, generic markup."""

from __future__ import annotations

import pytest

from bughunt.oracles import OracleConfig
from bughunt.oracles.destructive import check_unconfirmed_destructive, destructive_actions
from bughunt.page import FetchedPage
from bughunt.urls import route_of
from tests.support.pages import Site

SITE = Site("http://notes.test", "<html><head><title>Notes</title></head><body>", "</body></html>")


def wiki_page(fields: str) -> str:
    return SITE.page(
        "<h1>Garden</h1><p>Beans first.</p>"
        '<form method="get" action="/wiki/Garden" id="modify"><input type="hidden" name="action" value="edit">'
        '<input type="submit" value="Edit this page"></form>'
        f'<form method="get" action="/wiki/Garden" id="remove">{fields}'
        '<input type="submit" name="only_this" value="Delete this version"></form>',
        "/wiki/Garden",
    )


BUTTON_FORM = (
    '<input type="hidden" name="action" value="delete"><input type="hidden" name="version" value="3">'
)


def test_a_button_form_on_the_pages_own_address_is_its_submission():
    (control,) = destructive_actions(wiki_page(BUTTON_FORM))
    assert control.url == SITE.origin + "/wiki/Garden?action=delete&version=3" and control.control == "form"
    (finding,) = check_unconfirmed_destructive(wiki_page(BUTTON_FORM))
    assert finding.route == "/wiki/Garden?action=delete&version=3" and finding.suspected


def test_a_form_with_a_field_to_fill_is_no_fixed_action():
    assert destructive_actions(wiki_page('<input type="text" name="reason">' + BUTTON_FORM)) == []


class Wiki:
    """`/wiki/Garden` draws its Delete as a button form; `?action=delete` answers a confirmation page
    (a POST form) when `asks`, else deletes the page at once and redirects to it (now empty)."""

    def __init__(self, asks: bool) -> None:
        self.asks, self.exists = asks, True

    def __call__(self, url: str) -> FetchedPage:
        if "action=delete" in url:
            if self.asks:
                return SITE.page(
                    '<h1>Delete Garden?</h1><form method="post"><button>Delete</button></form>', route_of(url)
                )
            self.exists = False
        if self.exists:
            return wiki_page(BUTTON_FORM)
        return SITE.page("<h1>Garden</h1><p>This page does not exist yet.</p>", "/wiki/Garden")


@pytest.mark.parametrize(("asks", "acted"), [(True, False), (False, True)])
def test_a_button_form_that_asks_first_is_cleared_and_one_that_deletes_is_confirmed(asks: bool, acted: bool):
    site = Wiki(asks)
    found = check_unconfirmed_destructive(
        wiki_page(BUTTON_FORM), site, OracleConfig(allow_destructive=True, opened_destructive={})
    )
    assert site.exists is not acted
    assert [f.suspected for f in found] == ([False] if acted else [])
