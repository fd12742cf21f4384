"""A blank sub-form creating another record inside an edit form (`blank_nested`).

An issue tracker's edit form carries, below the issue's own fields (`issue[...]`), a "Log time"
fieldset that creates a new time entry (`time_entry[hours]`, `time_entry[comments]`): empty by design,
it is no stored value of the issue, even where the issue's page shows a value a word of its name
matches ("Estimated time: 2:30 h" under a class `estimated-hours`). The issue's own fields are still
compared. Made-up site, generic markup.
"""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://tracker.test",
    '<html><head><title>Tracker</title></head><body><div id="top"><a href="/">Home</a> <a href="/issues">Issues</a></div>',
    "</body></html>",
)

ISSUE = SITE.page(
    '<div class="issue"><h2>Printer jams on page two</h2>'
    '<div class="attributes"><div class="status attribute"><div class="label">Status:</div>'
    '<div class="value">New</div></div>'
    '<div class="estimated-hours attribute"><div class="label">Estimated time:</div>'
    '<div class="value">2:30 h</div></div>'
    '<div class="spent-time attribute"><div class="label">Spent time:</div><div class="value">-</div></div>'
    '<div class="category attribute"><div class="label">Category:</div><div class="value">Hardware</div></div>'
    '</div><p><a href="/issues/7/edit">Edit</a></p></div>',
    "/issues/7",
)


def edit_page(category: str, entry: str = "") -> FetchedPage:
    return SITE.page(
        '<h2>Issue #7</h2><form action="/issues/7" method="post" id="issue-form">'
        '<input type="hidden" name="_method" value="patch"><input type="hidden" name="token" value="a1b2">'
        "<fieldset><legend>Change properties</legend>"
        '<p><label for="issue_subject">Subject</label>'
        '<input type="text" id="issue_subject" name="issue[subject]" value="Printer jams on page two"></p>'
        '<p><label for="issue_category">Category</label>'
        f'<input type="text" id="issue_category" name="issue[category]" value="{category}"></p>'
        '<p><label for="issue_estimated_hours">Estimated time</label>'
        '<input type="text" id="issue_estimated_hours" name="issue[estimated_hours]" value="2.5"></p>'
        '</fieldset><fieldset id="log_time"><legend>Log time</legend>'
        '<p><label for="time_entry_hours">Spent time</label>'
        f'<input type="text" id="time_entry_hours" name="time_entry[hours]" value="{entry}"> hours</p>'
        '<p><label for="time_entry_activity_id">Activity</label><select id="time_entry_activity_id"'
        ' name="time_entry[activity_id]"><option value="9" selected>Development</option></select></p>'
        '<p><label for="time_entry_comments">Comment</label>'
        '<input type="text" id="time_entry_comments" name="time_entry[comments]" value=""></p>'
        '</fieldset><p><a href="/issues/7">Cancel</a> <button>Submit</button></p></form>',
        "/issues/7/edit",
    )


def test_the_blank_log_time_sub_form_is_no_dropped_value_of_the_issue():
    assert check_form_drops_value(edit_page("Hardware"), SITE.fetcher(ISSUE)) == []


def test_the_issues_own_dropped_field_is_still_reported():
    found = check_form_drops_value(edit_page(""), SITE.fetcher(ISSUE))
    assert [f.evidence["fields"] for f in found] == ["issue[category]"]
    assert "Hardware" in found[0].evidence["shown"]
