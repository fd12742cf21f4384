"""An edit form a click opened in place: a single-page app's record page whose "Edit" button swaps
the record's view for a form at the same address (no link to the form, no page to fetch by its URL).
The record is what the page showed before the click (`FetchedPage.clicked_from`); a value it showed
that the form leaves empty is dropped. A feed of records whose card opened the form does not say
which card it edits unless one card shows the form's values. Made-up notes app, generic markup."""

from __future__ import annotations

from dataclasses import replace

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://notes.test", '<html><body><nav><a href="/">Home</a></nav><div id="app">', "</div></body></html>"
)
RECORD = (
    "<h1>Note</h1><p><strong>Title:</strong> Groceries</p><p><strong>Content:</strong> milk and eggs</p>"
    '<p><strong>Author:</strong> ann</p><button type="button">Edit</button>'
)
FEED = "".join(
    f'<div class="card"><p><strong>Title:</strong> {t}</p><p><strong>Content:</strong> {c}</p>'
    '<button type="button">Edit</button></div>'
    for t, c in [("Groceries", "milk and eggs"), ("Chores", "sweep the hall"), ("Books", "return two")]
)


def form(title: str, content: str) -> str:
    return (
        '<h1>Edit note</h1><form><label for="title">Title:</label>'
        f'<input type="text" id="title" name="title" value="{title}">'
        f'<label for="content">Content:</label><textarea id="content" name="content">{content}</textarea>'
        '<button type="submit">Save</button></form>'
    )


def opened(before: str, after: str, path: str = "/notes/3") -> FetchedPage:
    return replace(SITE.page(after, path), clicked_from=(SITE.page(before, path), "Edit"))


def test_a_value_the_record_showed_before_the_click_that_the_form_leaves_empty_is_dropped():
    (finding,) = check_form_drops_value(opened(RECORD, form("Groceries", "")), SITE.fetcher())
    assert finding.evidence["fields"] == "content" and finding.evidence["shown"] == "milk and eggs"


def test_the_form_filled_with_the_records_values_is_silent():
    assert check_form_drops_value(opened(RECORD, form("Groceries", "milk and eggs")), SITE.fetcher()) == []


def test_a_form_opened_from_a_feed_is_not_compared_with_another_cards_values():
    # only the title is filled: no card shows two of the form's values, and every card shows a content
    assert check_form_drops_value(opened(FEED, form("Chores", ""), "/notes"), SITE.fetcher()) == []


def test_a_form_opened_on_a_page_that_showed_none_of_its_values_is_not_compared_with_it():
    assert (
        check_form_drops_value(
            opened("<h1>Welcome</h1><p>Content: news</p>", form("Groceries", "")), SITE.fetcher()
        )
        == []
    )
