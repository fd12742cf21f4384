"""A closed dialog's parts are no value a record's page shows (issue 25, held-out set 17): Uptime Kuma's
edit form has an HTTP check's "Body" field, empty for a port check, and its monitor page carries the
layout's closed confirm dialogs, whose `modal-body` ("Are you sure want to pause?") read as the record's
body — an edit form "dropping" a value no one stored. What the page does not show (`visibility.unseen`:
the browser's read marks a box-less closed modal) is skipped; the same element shown is still read."""

from __future__ import annotations

from bughunt.actions import HIDDEN_MARK
from bughunt.dom import parse_html
from bughunt.oracles.form_values import shown_value


def _page(mark: str) -> str:
    return (
        "<html><body><main><h1>Sandbox</h1><p class='url'>127.0.0.1:8080</p>"
        f"<div class='modal fade' {mark}><div class='modal-dialog'><div class='modal-content'>"
        "<div class='modal-body'>Are you sure want to pause?</div></div></div></div></main></body></html>"
    )


def test_a_closed_dialogs_body_is_no_value_the_record_shows():
    assert shown_value(parse_html(_page(HIDDEN_MARK)), {"body"}) == ""
    assert shown_value(parse_html(_page('style="display: none"')), {"body"}) == ""


def test_the_same_element_shown_is_read():
    assert shown_value(parse_html(_page("")), {"body"}) == "Are you sure want to pause?"
