"""An edit form found from the list that links it, by the option it has chosen
(`form_fields.chosen_labels`).

Generic markup: a log of entries, one table row each (time, child, note) with a pencil linking to
the entry's edit form `/entries/<n>/` (no edit word in its URL, no link back). The form's only filled
visible field is a `datetime-local` time, which the row shows formatted for people ("Nov 20, 3 a.m.");
its child is a checked radio button labelled with the child's name, which the row shows as it is.
"""

from __future__ import annotations

from bughunt.oracles.base import OracleConfig
from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://log.test"
ROWS = (
    (1, "Nov 20, 3 a.m.", "Teo", "Calm morning, calm evening."),
    (2, "Nov 19, 6 p.m.", "Mira", "Slept well."),
)


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>Log</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


LOG = page(
    "/entries/",
    "<h1>Entries</h1><table><thead><tr><th>Actions</th><th>Time</th><th>Child</th><th>Note</th></tr></thead><tbody>"
    + "".join(
        f'<tr><td><a href="/entries/{n}/" class="btn">✎</a></td><th scope="row">{when}</th>'
        f'<td><a href="/children/{child.lower()}/">{child}</a></td><td>{note}</td></tr>'
        for n, when, child, note in ROWS
    )
    + "</tbody></table>",
)


def edit(note: str, checked: str = "Teo") -> FetchedPage:
    radios = "".join(
        f'<input type="radio" name="child" value="{v}" id="child_{v}"{" checked" if name == checked else ""}>'
        f'<label for="child_{v}">{name}</label>'
        for v, name in ((1, "Mira"), (2, "Teo"))
    )
    return page(
        "/entries/1/",
        '<form method="post"><input type="hidden" name="csrf" value="k2x9">'
        f"{radios}"
        f'<label for="note">Note</label><textarea name="note" id="note">{note}</textarea>'
        '<label for="time">Time</label><input type="datetime-local" name="time" id="time" value="2026-11-20T03:00:00">'
        '<button type="submit">Save</button></form>',
    )


def fields(form: FetchedPage) -> list[str]:
    config = OracleConfig(linked_from=lambda _route: ["/entries/"], loaded=lambda _route: True)
    return [f.evidence["field"] for f in check_form_drops_value(form, Recorder(LOG), config)]


def test_the_row_showing_the_forms_chosen_child_is_the_record_whose_note_the_form_dropped():
    assert fields(edit("")) == ["note"]


def test_the_same_form_holding_the_note_drops_nothing():
    assert fields(edit("Calm morning, calm evening.")) == []
