"""Edit forms whose visible fields all opened empty, and a record's title shown as its page's bare
main heading (`form_fields.carries_identifier`, `form_values.main_heading`).

Generic markup: an edit form at `/notes/edit?id=7` (the record named in the query) with a hidden `id`
input, a "Back" link to the list `/`; the note's page `/notes/7/first-note` shows its title in a
bare `<h1>` and its text in a bare `<p>`.
"""

from __future__ import annotations

from bughunt.oracles.base import OracleConfig
from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://notes.test"
NOTE = "/notes/7/first-note"


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>Notes</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def form(
    path: str, title: str, text: str, hidden: str = '<input type="hidden" name="id" value="7">'
) -> FetchedPage:
    return page(
        path,
        f'<form method="post" action="/notes/edit">{hidden}'
        f'<label for="title">Title</label><input id="title" name="title" type="text" value="{title}">'
        f'<label for="body">Text</label><textarea id="body" name="body">{text}</textarea>'
        '<button type="submit">Save</button></form><p><a href="/">Back</a></p>',
    )


NOTE_PAGE = page(NOTE, "<h1>First note</h1><hr><p>Seeds go in after the frost.</p>")
LIST_PAGE = page("/", f'<h2>Notes</h2><ul><li><a href="{NOTE}">First note</a></li></ul>')


def fields(edit: FetchedPage) -> list[str]:
    config = OracleConfig(known_routes=lambda: ["/", NOTE], linked_from=lambda _route: [NOTE])
    found = check_form_drops_value(edit, Recorder(NOTE_PAGE, LIST_PAGE), config)
    return [f.evidence["field"] for f in found]


def test_an_edit_form_carrying_the_records_id_with_every_field_empty_dropped_the_title():
    assert fields(form("/notes/edit?id=7", "", "")) == ["title"]


def test_the_same_form_filled_drops_nothing():
    assert fields(form("/notes/edit?id=7", "First note", "Seeds go in after the frost.")) == []


def test_an_all_empty_form_without_the_records_id_is_a_blank_form_not_an_edit():
    token = '<input type="hidden" name="csrf_token" value="a8f3c2">'
    assert fields(form("/notes/edit?id=7", "", "", hidden=token)) == []
    assert fields(form("/notes/new", "", "", hidden='<input type="hidden" name="id" value="7">')) == []


def test_the_main_heading_is_the_value_of_a_title_field_only_when_it_leads_the_form():
    # a "title" after the name (a person's job title) is not what the page's heading shows
    edit = page(
        "/notes/edit?id=7",
        '<form method="post"><input type="hidden" name="id" value="7">'
        '<label for="body">Text</label><input id="body" name="body" type="text" value="Seeds go in after the frost.">'
        '<label for="title">Title</label><input id="title" name="title" type="text" value="">'
        '<button type="submit">Save</button></form><p><a href="/">Back</a></p>',
    )
    assert fields(edit) == []
