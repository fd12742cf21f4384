"""A word several fields of a form share names none of them: a split date and time widget labels each
of its parts "Date:" and "Time:", and the list's `field-date_added` cell is the value of the date
added, not of every date of the form (form_drops_value). Made-up admin, generic markup."""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site("http://admin.test", "<html><head><title>Admin</title></head><body>", "</body></html>")


def changelist() -> FetchedPage:
    rows = "".join(
        f'<tr><td><input type="checkbox" name="_selected" value="{n}"></td>'
        f'<th class="field-title"><a href="/admin/marks/{n}/change/">Mark number {n}</a></th>'
        f'<td class="field-owner">ann</td><td class="field-date_added">Sept. {n}, 2026, 4:13 a.m.</td></tr>'
        for n in (7, 8, 9)
    )
    return SITE.page(
        '<form id="changelist-form" method="post"><table><thead><tr><th></th><th>Title</th><th>Owner</th>'
        f"<th>Date added</th></tr></thead><tbody>{rows}</tbody></table></form>",
        "/admin/marks/",
    )


def split(name: str, date: str, time: str) -> str:
    return (
        f'<label for="id_{name}_0">Date:</label><input type="text" name="{name}_0" id="id_{name}_0" value="{date}">'
        f'<label for="id_{name}_1">Time:</label><input type="text" name="{name}_1" id="id_{name}_1" value="{time}">'
    )


def change_form(title: str = "Mark number 7") -> FetchedPage:
    return SITE.page(
        '<form method="post" action="/admin/marks/7/change/">'
        f'<label for="id_title">Title:</label><input type="text" name="title" id="id_title" value="{title}">'
        '<label for="id_owner">Owner:</label><input type="text" name="owner" id="id_owner" value="ann">'
        f"{split('date_added', '2026-09-07', '04:13:03')}{split('date_accessed', '', '')}"
        '<input type="submit" value="Save"> <a href="/admin/marks/">Cancel</a></form>',
        "/admin/marks/7/change/",
    )


def test_a_date_part_is_not_the_value_of_a_cell_named_for_another_date():
    assert check_form_drops_value(change_form(), SITE.fetcher(changelist())) == []


def test_a_field_named_alone_is_still_compared_with_the_records_row():
    (finding,) = check_form_drops_value(change_form(title=""), SITE.fetcher(changelist()))
    assert finding.evidence["fields"] == "title"
