"""A template's widget scripts are not stored XSS (issue 25, `bughunt.oracles.script_binding`): a
date picker set up right after its input, inside a paragraph of a form laid out in the page's main
region `#content`, and a column chooser's "→" button moving options with `this.form.x`, address
controls of the page's own forms. A stored payload beside them — in a heading, in a cell beside
text — still fires, and so does code that addresses an id no control of the page carries, or only
its own element. Pages of our own."""

from __future__ import annotations

from bughunt.oracles.scripts import check_unescaped_script
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://tracker.test"


def _page(body: str, path: str = "/tickets/7/edit") -> FetchedPage:
    url = ORIGIN + path
    html = f'<html><body><div id="wrapper"><div id="content">{body}</div></div></body></html>'
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0)


_PICKER = (
    '<form class="edit_entry" method="post" action="/tickets/7"><div class="box tabular">'
    '<p><label for="entry_due_date">Due date</label><input type="date" id="entry_due_date" name="entry[due_date]">'
    "<script>//<![CDATA[\n$(function() { $('#entry_due_date').addClass('date').datepicker(); });\n//]]></script></p>"
    "</div><button>Save</button></form>"
)
_CHOOSER = (
    '<form method="get" action="/tickets"><table><tr><td>Columns '
    '<select id="available_c" name="available_columns" multiple><option>Status</option></select>'
    '<input type="button" value="→" onclick="moveOptions(this.form.available_c, this.form.selected_c);">'
    '<select id="selected_c" name="c[]" multiple><option>Subject</option></select>'
    "<script>$('form').submit(function(){ $('#selected_c option').prop('selected', true); });</script>"
    "</td></tr></table><button>Apply</button></form>"
)


def test_a_widgets_set_up_beside_its_field_is_the_templates() -> None:
    assert check_unescaped_script(_page(_PICKER)) == []
    assert check_unescaped_script(_page(_CHOOSER, "/tickets")) == []


def test_a_stored_payload_beside_the_templates_widgets_still_fires() -> None:
    heading = "<h3>Console shows <script>alert('stored')</script> on load</h3>"
    found = check_unescaped_script(_page(heading + _PICKER))
    assert [(f.kind, f.evidence["code"]) for f in found] == [("unescaped_script", "alert('stored')")]
    cell = '<table><tr><td>See <img src=x onerror="this.form.entry_due_date.value=1"> here</td></tr></table>'
    assert [f.kind for f in check_unescaped_script(_page(cell + _PICKER))] == ["unescaped_script"]


def test_code_addressing_no_control_of_the_page_or_only_itself_is_no_widget() -> None:
    elsewhere = "<p>Note <script>document.getElementById('entry_notes').remove()</script> done</p>"
    assert [f.kind for f in check_unescaped_script(_page(elsewhere + _PICKER))] == ["unescaped_script"]
    itself = '<p>Hi <input id="x" onfocus="document.getElementById(\'x\').remove()" autofocus> there</p>'
    assert [f.kind for f in check_unescaped_script(_page(itself))] == ["unescaped_script"]


def test_a_dialogs_cancel_button_is_its_forms_own_and_a_pasted_text_box_is_not() -> None:
    dialog = (
        '<div id="ajax-modal"><form method="post" action="/tickets/bulk"><p>Move the tickets?</p>'
        '<p class="buttons"><input type="submit" value="Move"> '
        '<input type="button" value="Cancel" onclick="hideModal(this);"></p></form></div>'
    )
    assert check_unescaped_script(_page(dialog, "/tickets")) == []
    # a moderation list inside one form: a comment's pasted box is text a user wrote, not a button
    moderation = (
        '<form method="post" action="/comments/bulk"><table><tr><td><input type="checkbox" name="ids[]" value="3"></td>'
        '<td>Nice <input onfocus="alert(1)" autofocus> post</td></tr></table></form>'
    )
    assert [f.kind for f in check_unescaped_script(_page(moderation, "/comments"))] == ["unescaped_script"]


def test_a_helper_handed_the_bare_id_of_a_control_or_link_beside_it_is_the_templates() -> None:
    """A tracker's template sets up its widgets through helpers fed an element's bare id: a date
    picker after its two inputs, a toggle link revealed once scripts run, a table shown by a
    function that looks it up by name."""
    picker = (
        '<form method="get" action="/tickets"><div class="search_row">from <input name="from" id="deadline"> '
        'to <input name="to" id="deadlineto"> <script><!--\ncreateCalendar(\'deadline\');'
        "createCalendar('deadlineto');\n//--></script></div><button>Search</button></form>"
    )
    toggle = (
        '<form method="post" action="/tickets/new"><table><tr><td colspan="2">'
        '<a id="advanced_toggle" class="hidden" href="javascript:toggleAdvanced()">Hide advanced fields</a>'
        "<script>Dom.removeClass('advanced_toggle', 'hidden');</script></td></tr></table>"
        "<button>Save</button></form>"
    )
    shower = (
        '<form method="post" action="/tickets/7"><table><tr><td>Files '
        '<script>function showAll(link) { var t = document.getElementById("files_table"); t.hidden = false; }'
        "</script></td></tr></table></form>"
        '<table id="files_table"><tr><td>a.txt</td></tr></table>'
    )
    for body in (picker, toggle, shower):
        assert check_unescaped_script(_page(body, "/tickets")) == []


def test_a_payloads_own_word_matching_a_field_id_elsewhere_still_fires() -> None:
    """`alert('summary')` in a heading: a field of the page's form is `#summary`, but it is not beside
    the script — the word is the payload's."""
    body = (
        "<h3>Widget shows <script>alert('summary')</script> verbatim</h3>"
        '<form method="post" action="/tickets/7"><p><input id="summary" name="summary"></p></form>'
    )
    found = check_unescaped_script(_page(body))
    assert [(f.kind, f.evidence["code"]) for f in found] == [("unescaped_script", "alert('summary')")]


def test_a_script_of_nothing_but_comment_marks_runs_nothing() -> None:
    """A template's loop that wrote no line into its `<!-- … //-->` wrapper; a payload runs something."""
    empty = "<table><tr><td>Component <script><!--\n  \n//--></script></td></tr></table>"
    assert check_unescaped_script(_page(empty, "/tickets")) == []
    wrapped = "<table><tr><td>Component <script><!--\nalert(1)\n//--></script></td></tr></table>"
    assert [f.kind for f in check_unescaped_script(_page(wrapped, "/tickets"))] == ["unescaped_script"]
