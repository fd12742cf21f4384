"""Form pages a front controller names by the action key of its query (plain PHP blogs and forums,
admin screens): `?action=write` makes a post, `?action=edit_user&id=3` edits user 3.

The create page (corpus ho10_chyrp's clean build, session 22) shows a blank form beside a help link to
`?action=help&id=markdown`, a record-like address whose heading "Markdown" the oracle took for the
form's dropped title: a page that makes a record stores nothing yet, whether a path segment or the
action key names it so. Made-up site, generic markup.
"""

from __future__ import annotations

from dataclasses import replace

from bughunt.oracles.base import DEFAULT_CONFIG, OracleConfig
from bughunt.oracles.form_urls import creates, page_link
from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://quills.test",
    '<html><head><title>Quills</title></head><body><header><h1><a href="/">Quills</a></h1>'
    '<nav><a href="/admin/?action=write">Write</a> <a href="/admin/?action=manage">Manage</a></nav>'
    "</header><main>",
    "</main></body></html>",
)
CONFIG: OracleConfig = replace(
    DEFAULT_CONFIG,
    known_routes=lambda: ["/admin/?action=write", "/admin/?action=help&id=markdown", "/?action=view&id=4"],
    linked_from=lambda _r: [],
)
HELP = Site(
    "http://quills.test", "<html><head><title>Markdown | Quills</title></head><body>", "</body></html>"
).page("<h1>Markdown</h1><p>Markdown is a way to format text.</p>", "/admin/?action=help&id=markdown")
"""The help window the body's toolbar opens: a bare page titled by its topic."""
POST = Site(
    "http://quills.test", "<html><head><title>Harbour lights | Quills</title></head><body>", "</body></html>"
).page(
    '<article><h1>Harbour lights</h1><p class="body">Evening on the quay.</p></article>', "/?action=view&id=4"
)


def post_form(path: str, title: str) -> FetchedPage:
    return SITE.page(
        f'<h2>{"Edit post" if "id=" in path else "Write"}</h2><form method="post" action="/admin/?action=save">'
        f'<label for="t">Title</label><input id="t" name="title" value="{title}">'
        '<p><label for="b">Body</label><span role="toolbar"><a href="/admin/?action=help&amp;id=markdown"'
        ' target="_blank" class="help"><svg aria-label="Markdown" viewBox="0 0 8 8"><path d="M0 0h8"/></svg>'
        "</a></span>"
        '<textarea id="b" name="body"></textarea></p>'
        '<label for="d">Date</label><input id="d" name="created_at" value="2026-12-05 10:00">'
        '<input type="submit" value="Save"></form>',
        path,
    )


def test_a_create_page_named_by_its_action_key_drops_nothing_whatever_record_it_links():
    for path in ("/admin/?action=write", "/admin/?action=write_post&feather=text", "/users.php?do=addUser"):
        assert check_form_drops_value(post_form(path, ""), SITE.fetcher(HELP, POST), CONFIG) == [], path


def test_action_keys_that_make_a_record_and_those_that_edit_or_show_one():
    assert creates("http://quills.test/admin/?action=write") and creates("http://quills.test/?act=new_user")
    assert creates("http://quills.test/#/compose?action=new_message")
    assert not creates("http://quills.test/admin/?action=edit_user&id=3")
    assert not creates("http://quills.test/?action=writer_profile&id=2")
    assert not creates("http://quills.test/?action=add_and_edit_item&id=2")
    assert not page_link("/admin/?action=new_post") and page_link("/?action=view&id=4")


# -- a link in a field's own block is that field's: help on its syntax, not the record -------------


def test_the_help_link_in_a_fields_toolbar_is_no_record_the_form_edits():
    # the admin's index answers the create page itself (`/admin/`, no create word in its address):
    # the body's toolbar links help on Markdown, whose heading is no stored title
    assert check_form_drops_value(post_form("/admin/", ""), SITE.fetcher(HELP, POST), CONFIG) == []


def test_a_view_link_beside_the_buttons_still_shows_the_record():
    page = SITE.page(
        '<h2>Edit post</h2><form method="post" action="/admin/?action=save">'
        '<p><label for="t">Title</label><input id="t" name="title" value=""></p>'
        '<p><label for="b">Body</label><textarea id="b" name="body">Evening on the quay.</textarea></p>'
        '<p><input type="submit" value="Save"> <a href="/?action=view&amp;id=4">View post</a></p></form>',
        "/admin/?action=edit_post&id=4",
    )
    found = check_form_drops_value(page, SITE.fetcher(HELP, POST), CONFIG)
    assert [(f.evidence["fields"], f.evidence["shown"]) for f in found] == [("title", "Harbour lights")]
