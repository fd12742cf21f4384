"""A side panel's edit form whose Save button sits outside it, in the panel's footer, associated by the
button's `form` attribute, is a form a script sends (it writes); without the association it has no
submit and is read as no edit form at all."""

from __future__ import annotations

import pytest

from bughunt.actions import scripted_form
from bughunt.dom import parse_html
from bughunt.form_owner import submit_buttons

PANEL = """<aside class="panel"><div class="body">
<form id="record_dWBRl"><textarea name="title"></textarea><textarea name="summary">x</textarea>
<input type="number" name="year" value="1990"></form></div>
<footer><button type="button">Cancel</button><button type="submit" {owner}>Save changes</button></footer></aside>"""


@pytest.mark.parametrize(
    ("owner", "writes"), [('form="record_dWBRl"', True), ("", False), ('form="nope"', False)]
)
def test_a_submit_outside_its_form_names_it_by_its_form_attribute(owner: str, writes: bool) -> None:
    form = next(iter(parse_html(PANEL.format(owner=owner)).find_all("form")))
    assert scripted_form(form) is writes
    assert len(submit_buttons(form)) == int(writes)


def test_a_submit_inside_a_form_naming_another_form_is_the_other_forms() -> None:
    doc = parse_html(
        '<form id="a"><textarea></textarea><textarea></textarea></form>'
        '<form id="b"><button type="submit" form="a">Save</button></form>'
    )
    a, b = doc.find_all("form")
    assert len(submit_buttons(a)) == 1 and submit_buttons(b) == []
