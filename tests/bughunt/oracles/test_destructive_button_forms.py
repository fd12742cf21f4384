"""A page's own Delete drawn as a GET form of hidden values and a button, sent to the page's own
address (`?action=delete&version=3`): the action is the form's submission, not the bare page, so it
is read as destructive (and opened with --allow-destructive). Made-up wiki, generic markup."""

from __future__ import annotations

from bughunt.oracles.destructive import check_unconfirmed_destructive, destructive_actions
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
