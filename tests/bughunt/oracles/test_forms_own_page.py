"""A record's page with its own "Modify" form under the record's table of properties, the form
posting back to the page: the page is the record the form edits, and a property it shows beside its
label that the form's field for it leaves empty is dropped. Made-up tracker, generic markup."""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://tracker.test", "<html><head><title>Issue 4 - Tracker</title></head><body>", "</body></html>"
)
PROPERTIES = (
    '<h1><span class="summary">Parser crash on empty lines</span></h1><table class="properties">'
    '<tr><th id="h_owner">Owned by:</th><td headers="h_owner"><a href="/people/bob">bob</a></td>'
    '<th id="h_keywords">Keywords:</th><td headers="h_keywords"><a href="/issues?keywords=ux">ux</a></td></tr>'
    '<tr><th id="h_priority">Priority:</th><td headers="h_priority">minor</td>'
    '<th id="h_cc">Cc:</th><td headers="h_cc"></td></tr></table>'
)
COMMENTS = '<div class="comment"><p>Seen again on build 12.</p></div>'


def issue(keywords: str, action: str = "/issue/4#modify") -> FetchedPage:
    value = f' value="{keywords}"' if keywords else ""
    form = (
        f'<form method="post" action="{action}"><input type="hidden" name="token" value="t0k3n">'
        '<label for="f-summary">Summary:</label><input id="f-summary" name="field_summary" value="Parser crash on empty lines">'
        '<label for="f-owner">Owner:</label><input id="f-owner" name="field_owner" value="bob">'
        '<label for="f-priority">Priority:</label><select id="f-priority" name="field_priority">'
        "<option>major</option><option selected>minor</option></select>"
        f'<label for="f-keywords">Keywords:</label><input type="text" id="f-keywords" name="field_keywords"{value}>'
        '<label for="f-cc">Cc:</label><input type="text" id="f-cc" name="field_cc">'
        '<label for="f-comment">Comment:</label><textarea id="f-comment" name="comment"></textarea>'
        "<button>Submit changes</button></form>"
    )
    return SITE.page(PROPERTIES + COMMENTS + form, "/issue/4")


def test_a_property_the_records_own_form_leaves_empty_is_dropped():
    (finding,) = check_form_drops_value(issue(""), SITE.fetcher())
    assert finding.evidence["fields"] == "field_keywords" and finding.evidence["shown"] == "ux"


def test_the_form_filled_with_the_records_values_is_silent():
    assert check_form_drops_value(issue("ux"), SITE.fetcher()) == []


def test_a_form_posting_elsewhere_is_not_compared_with_this_page():
    assert check_form_drops_value(issue("", action="/issues/bulk"), SITE.fetcher()) == []


def test_a_comment_form_posting_to_its_post_is_no_edit_of_the_post():
    post = SITE.page(
        '<article><h1>Spring planting</h1><p class="byline">by ann</p><p>Beans first, then peas.</p></article>'
        '<div class="comments"><div class="comment"><b>Name: bob</b><p>Peas first!</p></div></div>'
        '<form method="post" action="/posts/7"><input name="name" value="ann">'
        '<label for="c">Comment:</label><textarea id="c" name="comment"></textarea><button>Send</button></form>',
        "/posts/7",
    )
    assert check_form_drops_value(post, SITE.fetcher()) == []
