"""A label's colon ends a word. An anchor `comment:1` heading a change ("comment:1 by bob, 8 weeks
ago") is no line labelling a `comment` field's value: the empty comment box of a record's edit form is
not a dropped value (form_drops_value). "Comment: Seen on build 273" still labels the field. Made-up
tracker, generic markup."""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://tracker.test", "<html><head><title>#9 Broken footer</title></head><body>", "</body></html>"
)


def ticket(history: str) -> FetchedPage:
    return SITE.page(
        '<h1>Broken footer</h1><table class="properties"><tr><th>Owner:</th><td>ann</td></tr></table>'
        f'<div class="changelog">{history}</div>'
        '<form method="post" action="/ticket/9">'
        '<input type="text" name="summary" value="Broken footer">'
        '<input type="text" name="owner" value="ann">'
        '<textarea id="comment" name="comment"></textarea>'
        "<button>Submit changes</button></form>",
        "/ticket/9",
    )


CHANGE = (
    '<h3 class="change" id="comment:1"><span class="cnum"><a href="#comment:1">comment:1</a></span>'
    ' by <span class="author">bob</span>, <a class="timeline" href="/timeline">8 weeks ago</a></h3>'
    '<div class="comment"><p>Seen again on build 273.</p></div>'
)


def test_a_numbered_anchor_heading_a_change_is_no_label_of_the_comment_field():
    page = ticket(CHANGE)
    assert check_form_drops_value(page, SITE.fetcher(page)) == []


def test_a_line_labelling_the_field_with_a_spaced_colon_still_reads_as_its_value():
    page = ticket("<p>Comment: Seen again on build 273.</p>")
    (finding,) = check_form_drops_value(page, SITE.fetcher(page))
    assert finding.evidence["fields"] == "comment"
