"""Edit forms that replace a stored value with a neighbour's, and resource pages that print a missing
value as "None" (`form_compare.replaced_values`, `form_values.stored`).

Generic markup: an edit form at `/people/edit/7` with a "Back" link to `/people/show/7`, whose page
lists the record's fields as a table of `th`/`td` pairs.
"""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://people.test"


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>t</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def edit(name: str, phone: str, mobile: str) -> FetchedPage:
    fields = "".join(
        f'<label for="{k}">{label}</label><input id="{k}" name="{k}" type="text" value="{v}">'
        for k, label, v in (("name", "Name", name), ("phone", "Phone", phone), ("mobile", "Mobile", mobile))
    )
    return page(
        "/people/edit/7",
        f'<form method="post">{fields}<button type="submit">Save</button></form>'
        '<a href="/people/show/7">Back</a>',
    )


def show(name: str, phone: str, mobile: str) -> FetchedPage:
    rows = "".join(
        f"<tr><th>{k}</th><td>{v}</td></tr>"
        for k, v in (("Name", name), ("Phone", phone), ("Mobile", mobile))
    )
    return page("/people/show/7", f"<h1>{name}</h1><table>{rows}</table>")


def kinds(form: FetchedPage, resource: FetchedPage) -> list[tuple[str, str]]:
    return [(f.kind, f.evidence["field"]) for f in check_form_drops_value(form, Recorder(resource))]


def test_a_field_holding_its_neighbours_value_where_the_page_shows_its_own_is_reported():
    resource = show("Ann Lee", "555-0101", "555-0199")
    assert kinds(edit("Ann Lee", "555-0101", "555-0101"), resource) == [("form_drops_value", "mobile")]
    assert kinds(edit("Ann Lee", "555-0101", "555-0199"), resource) == []


def test_two_fields_storing_one_value_are_not_a_replacement():
    resource = show("Ann Lee", "555-0101", "555-0101")
    assert kinds(edit("Ann Lee", "555-0101", "555-0101"), resource) == []


def test_a_missing_value_printed_as_none_is_not_a_stored_value():
    assert kinds(edit("Ann Lee", "", "555-0199"), show("Ann Lee", "None", "555-0199")) == []
    assert kinds(edit("Ann Lee", "", "555-0199"), show("Ann Lee", "555-0101", "555-0199")) == [
        ("form_drops_value", "phone")
    ]
