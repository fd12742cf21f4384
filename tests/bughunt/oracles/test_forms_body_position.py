"""Where a filled body is shown, for the position rule (`form_positions._shown_at`).

A description rendered as several paragraphs also "holds" every short block made of its words: the
project's name in the page's header, a word of the record page's sidebar. The body stands where its paragraphs run
together, not at the first such block: an empty field after it in the form (a parent task) has nothing
between the body and its next neighbour when the page shows the body last, and the sidebar's heading
("Custom queries") is no stored value. A body shown between the title and the next field still locates
the empty field's value. Made-up site, generic markup.
"""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://tracker.test",
    '<html><head><title>Tracker</title></head><body><div id="header"><h1>Internal tools</h1></div>',
    "</body></html>",
)
SIDEBAR = (
    '<div id="sidebar"><h3>Custom queries</h3><ul><li><a href="/issues?query=1">Mine</a></li></ul>'
    "<h3>Watchers</h3><p>open</p></div>"
)
"""The record page's sidebar (the edit page has none)."""
BODY = "Steps to reproduce:\n\nopen the page\n\nSeen on Internal tools."
PARAGRAPHS = "<p>Steps to reproduce:</p><p>open the page</p><p>Seen on Internal tools.</p>"


def issue(body_first: bool) -> FetchedPage:
    """The issue's page: its body either between the title and the start date, with the empty field's
    value after it, or last, after the start date."""
    body = f'<div class="description">{PARAGRAPHS}</div>'
    start = "<p>Start date: 2026-10-22</p>"
    content = body + "<p>Fix the search index</p>" + start if body_first else start + body
    return SITE.page(
        SIDEBAR
        + '<div id="content"><h2>Search ignores accents</h2>'
        + content
        + '<a href="/issues/7/edit">Edit</a></div>',
        "/issues/7",
    )


def edit_page() -> FetchedPage:
    return SITE.page(
        '<div id="content"><form action="/issues/7" method="post">'
        '<label for="s">Subject</label><input type="text" id="s" name="subject" value="Search ignores accents">'
        f'<label for="d">Description</label><textarea id="d" name="description">{BODY}</textarea>'
        '<label for="p">Blocked by</label><input type="text" id="p" name="blocker" value="">'
        '<label for="t">Start date</label><input type="text" id="t" name="start" value="2026-10-22">'
        '<a href="/issues/7">Cancel</a><button>Save</button></form></div>',
        "/issues/7/edit",
    )


def test_a_sidebar_heading_before_the_body_is_no_value_of_the_field_after_it():
    assert check_form_drops_value(edit_page(), SITE.fetcher(issue(body_first=False))) == []


def test_the_text_between_the_body_and_the_next_field_is_still_the_empty_fields_value():
    found = check_form_drops_value(edit_page(), SITE.fetcher(issue(body_first=True)))
    assert [(f.evidence["fields"], f.evidence["shown"]) for f in found] == [
        ("blocker", "Fix the search index")
    ]
