"""A record's row read under its table's column headings when headings span columns (issue 25, PostfixAdmin):
a mail admin's mailbox table draws its title as a heading row of one cell across the table (":: Mailboxes")
above the column headings, and its last heading spans the row's buttons (`colspan="5"` over four of them, a
fifth column hidden by the configuration). The title row was taken for the headings and the spanned one made
the counts differ, so the row's "Name" was never read and an edit form leaving the name empty went unseen.
A cell sits in the column after those of the cells before it, as HTML lays tables out."""

from __future__ import annotations

from bughunt.dom import Node, parse_html
from bughunt.oracles.form_values import shown_value

_HEAD = (
    '<thead><tr><th colspan="11">:: Mailboxes</th></tr></thead><thead><tr><th></th><th>Email</th><th>Name</th>'
    '<th>Quota (MB)</th><th>Active</th><th colspan="5">&nbsp;</th></tr></thead>'
)
_ROW = (
    "<tr><td></td><td>anna@example.com</td><td>Anna Member</td><td>8.8 / 22</td><td><a href='/t'>YES</a></td>"
    "<td><a href='/a'>Alias</a></td><td><a href='/e'>edit</a></td><td><a href='/d'>del</a></td></tr>"
)


def _row(head: str, row: str = _ROW) -> Node:
    doc = parse_html(f"<html><body><table>{head}<tbody>{row}</tbody></table></body></html>")
    return [r for r in doc.find_all("tr") if r.find_all("td")][0]


def test_a_row_is_read_under_the_headings_past_a_title_row_and_a_spanned_heading() -> None:
    assert shown_value(_row(_HEAD), {"name"}, record_item=True) == "Anna Member"
    assert shown_value(_row(_HEAD), {"email"}, record_item=True) == "anna@example.com"


def test_a_cell_under_a_spanned_heading_or_past_a_row_spanning_cell_is_no_columns_value() -> None:
    spanned = _HEAD.replace("<th>Name</th>", '<th colspan="2">Name</th>')
    assert shown_value(_row(spanned), {"name"}, record_item=True) != "8.8 / 22"
    # A cell spanning two columns is under neither heading alone: no column's value.
    joined = _ROW.replace(
        "<td>anna@example.com</td><td>Anna Member</td>", '<td colspan="2">anna@example.com Anna Member</td>'
    )
    assert shown_value(_row(_HEAD, joined), {"email"}, record_item=True) == ""
    # A heading spanning rows: which cell is under which is not known, so no column is read.
    two_levels = _HEAD.replace("<th>Email</th>", '<th rowspan="2">Email</th>')
    assert shown_value(_row(two_levels), {"name"}, record_item=True) == ""
