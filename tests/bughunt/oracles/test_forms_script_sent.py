"""A form a script sends with no submit button: its last control is a plain `type="button"` whose
click handler posts the fields through the app's API (Angular's `(click)="submitForm()"`, Vue's
`@click`), `form_owner.script_send_button`. Read as a form that writes, its empty text area is
compared with the record's page. A plain button beside a field (a tags widget's "Add") sends nothing.
Pages of our own, in the shape a single-page app's editor draws (no method, no action, no names)."""

from __future__ import annotations

from bughunt.actions import scripted_form
from bughunt.form_owner import script_send_button
from bughunt.oracles.base import OracleConfig
from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from bughunt.urls import route_of
from tests.support.pages import Recorder

ORIGIN = "http://notes.test"
NOTE = "/note/first-note"


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>Notes</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def editor(text: str, send: str = '<button class="btn" type="button">Publish note</button>') -> FetchedPage:
    return page(
        "/editor/first-note",
        '<div class="editor"><form><fieldset><fieldset class="group">'
        '<input class="field" type="text" placeholder="Note title" value="First note"></fieldset>'
        '<fieldset class="group"><input class="field" type="text" placeholder="Summary" value="On seeds."></fieldset>'
        f'<fieldset class="group"><textarea class="field" placeholder="Your note">{text}</textarea></fieldset>'
        f"{send}</fieldset></form></div>",
    )


NOTE_PAGE = page(
    NOTE,
    '<div class="banner"><h1>First note</h1><div class="meta"><a href="/people/ana">ana</a>'
    '<a class="btn" href="/editor/first-note">Edit note</a></div></div>'
    '<div class="note-content"><div><h2>Seeds</h2><p>Seeds go in after the frost, not before.</p></div>'
    '<ul class="tags"><li class="tag">seeds</li></ul></div>',
)


def dropped(edit: FetchedPage) -> list[str]:
    config = OracleConfig(known_routes=lambda: ["/", NOTE], linked_from=lambda _route: [NOTE])
    return [f.evidence["field"] for f in check_form_drops_value(edit, Recorder(NOTE_PAGE), config)]


def test_a_plain_button_after_every_field_sends_the_form():
    form = editor("").document.find_all("form")[0]
    assert script_send_button(form) is not None and scripted_form(form)


def test_the_script_sent_editor_opening_its_text_empty_drops_it():
    assert dropped(editor("")) == ["Your note"]


def test_the_same_editor_filled_drops_nothing():
    assert dropped(editor("Seeds go in after the frost, not before.")) == []


def test_a_plain_button_beside_a_field_sends_nothing():
    widget = '<fieldset class="group"><input class="field" type="text" placeholder="Tag"><button type="button">Add</button></fieldset>'
    form = editor("", send=widget).document.find_all("form")[0]
    assert script_send_button(form) is None and not scripted_form(form)
    assert dropped(editor("", send=widget)) == []
