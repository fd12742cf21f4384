"""False reports a script-drawn shell made on its clean build (issue 25, Session 36), each on a small
generic page: a hash-routed list's pager count judged against the document's start view, a per-record
checkbox's handler read as a payload, and a dialog's answer read as an unconfirmed delete because the
previous answer's refused write reached the gate late."""

from __future__ import annotations

from dataclasses import replace

from bughunt.dom import parse_html
from bughunt.oracles.count_targets import item_counts
from bughunt.oracles.destructive import check_unconfirmed_destructive
from bughunt.oracles.pagination import _holds_menu, check_duplicate_pagination
from bughunt.oracles.scripts import check_unescaped_script
from bughunt.page import FetchedPage

ORIGIN = "http://shell.test"


def _page(route: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>Shell</title></head><body><div class='main_content'>{body}</div></body></html>"
    return FetchedPage(ORIGIN + route, route, 200, {}, "text/html", html, 1.0)


def _jobs(pager_href: str) -> str:
    rows = "".join(
        f"<tr><td><a href='#Job?id=j{i}'><b>Job {i}</b></a></td><td>done</td><td>{i} s</td></tr>"
        for i in range(25)
    )
    return (
        "<div class='pagination'><table><tr><td>96 jobs found</td><td>Page 1 of 4</td>"
        f"<td><b>1</b> <a href='{pager_href}'>2</a> <a href='{pager_href}'>Next Page »</a></td></tr></table></div>"
        f"<table class='data_table'><tr><th>Job</th><th>Status</th><th>Time</th></tr>{rows}</table>"
    )


def test_a_count_whose_only_link_is_a_view_of_the_same_document_claims_no_record_page() -> None:
    # the pager's links are hash routes of this very document: fetched, the document shows its start
    # view, whose count is another list's
    assert item_counts(_page("/#Jobs", _jobs("#Jobs?offset=25"))) == []


def test_a_count_whose_card_links_another_document_still_claims_it() -> None:
    (claim,) = item_counts(_page("/#Jobs", _jobs("/jobs/page/2")))
    assert claim.record and claim.url == ORIGIN + "/jobs/page/2"


def _events(first_name: str = "Nightly backup") -> str:
    names = [first_name, "Index rebuild", "Mail report", "Cache purge"]
    rows = "".join(
        f"<tr><td><input type='checkbox' onchange='$P().change_enabled({i})'></td><td>{name}</td></tr>"
        for i, name in enumerate(names)
    )
    return f"<table class='data_table'><tr><th></th><th>Event</th></tr>{rows}</table>"


def test_a_handler_the_grid_writes_on_every_record_is_the_templates() -> None:
    assert check_unescaped_script(_page("/#Schedule", _events())) == []


def test_a_payload_in_one_records_cell_is_still_reported() -> None:
    found = check_unescaped_script(_page("/#Schedule", _events("<img src=x onerror=alert(1)>")))
    assert [f.kind for f in found] == ["unescaped_script"]


def test_one_stored_handler_printed_on_every_row_is_still_reported() -> None:
    rows = "".join(
        f"<tr><td><p>Owner <img src=x onerror='alert(1)'></p></td><td>Event {i}</td></tr>" for i in range(4)
    )
    found = check_unescaped_script(
        _page("/#Schedule", f"<table><tr><th></th><th>Event</th></tr>{rows}</table>")
    )
    assert [f.kind for f in found] == ["unescaped_script"]


EDITOR = "<h2>Edit event</h2><div class='button'>Delete Event…</div><div class='button'>Save Changes</div>"
ASK = (
    "<div id='dialog_container'><div id='dialog_main'>Are you sure you want to delete the event?"
    "<div class='button'>Cancel</div><div class='button'>Delete</div></div></div>"
)
WRITE = ("POST /api/app/delete_event",)


def test_a_dialogs_answer_after_a_late_refused_write_is_no_unconfirmed_delete() -> None:
    editor = _page("/#Schedule?sub=edit_event&id=e1", EDITOR)
    # the previous answer's refused write reached the gate while this dialog opened
    asked = replace(
        _page("/#click-1", EDITOR + ASK), clicked_from=(editor, "Delete Event…"), refused_writes=WRITE
    )
    answered = replace(_page("/#click-2", EDITOR), clicked_from=(asked, "Delete"), refused_writes=WRITE)
    assert check_unconfirmed_destructive(answered) == []


def test_a_delete_after_a_plain_delete_that_wrote_is_still_reported() -> None:
    editor = _page("/#Schedule?sub=edit_event&id=e1", EDITOR)
    wrote = replace(_page("/#click-1", EDITOR), clicked_from=(editor, "Delete Event"), refused_writes=WRITE)
    again = replace(_page("/#click-2", EDITOR), clicked_from=(wrote, "Delete"), refused_writes=WRITE)
    assert [f.kind for f in check_unconfirmed_destructive(again)] == ["unconfirmed_destructive"]


def _popup(words: list[str]) -> str:
    items = "".join(f"<tr role='menuitem'><td>{w}</td><td>+</td></tr>" for w in words)
    return f"<div class='popup' style='display:none'><table role='menu'><tbody>{items}</tbody></table></div>"


def _prefs(route: str, popups: str, rows: str = "") -> FetchedPage:
    return _page(route, f"<h1>Preferences</h1><div>Feeds</div>{rows}</div>{popups}<div>")


def test_a_toolkits_popup_layer_is_no_paged_list() -> None:
    # each menu opened parks one more wrapper at the document's end (Dijit's `dijitPopup`)
    one = _prefs("/prefs", _popup(["All", "None"]) + _popup(["Edit", "Remove"]))
    two = replace(
        _prefs(
            "/prefs#click-1", _popup(["All", "None"]) + _popup(["Edit", "Remove"]) + _popup(["All", "None"])
        ),
        clicked_from=(one, "Next"),
    )
    assert check_duplicate_pagination(two) == []


def test_a_record_with_a_menu_of_its_own_is_no_popup_wrapper() -> None:
    doc = parse_html(
        "<div><div id='w'><table role='menu'><tr role='menuitem'><td>Edit</td></tr></table></div>"
        "<li id='r'><a href='/feeds/1'>Feed 1</a><ul role='menu'><li role='menuitem'>Edit</li></ul></li></div>"
    )
    wrapper, record = (next(n for n in doc.iter() if n.get("id") == i) for i in ("w", "r"))
    assert _holds_menu(wrapper) and not _holds_menu(record)
