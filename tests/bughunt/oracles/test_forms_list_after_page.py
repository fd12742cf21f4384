"""The record's row in the list an edit form returns to, after the record's page (`forms`).

A feed reader's feed edit form names the feed by its identifier (`/feed/4/edit`); its Cancel returns
to the feeds list. The feed's own page (its entries, `/feed/4/entries`) shows the feed's title but not
its site; the feeds list shows, in the feed's row (the item linking to this form), a link to the site.
The Site URL field left empty is a dropped value, found in that row once the feed's page showed
nothing dropped. Made-up site, generic markup.
"""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://reader.test",
    '<html><head><title>Reader</title></head><body><nav><a href="/unread">Unread</a>'
    ' <a href="/feeds">Feeds</a></nav><main>',
    "</main></body></html>",
)
FEEDS = {4: ("City Gazette", "https://gazette.example.org/"), 6: ("Type Grid", "https://grid.example.org/")}


def row(n: int) -> str:
    title, site = FEEDS[n]
    return (
        f'<article class="item"><div class="item-header"><a href="/feed/{n}/entries">{title}</a>'
        f'<span class="category"><a href="/category/3/entries">News</a></span></div>'
        f'<ul class="meta"><li><a href="{site}" target="_blank">{site.split("/")[2]}</a></li>'
        f"<li>Last check: 5 days ago</li></ul>"
        f'<ul class="meta"><li><a href="/feed/{n}/refresh">Refresh</a></li><li><a href="/feed/{n}/edit">Edit</a></li>'
        "</ul></article>"
    )


FEED_LIST = SITE.page(f'<h1>Feeds (2)</h1><div class="items">{row(4)}{row(6)}</div>', "/feeds")
ENTRIES = SITE.page(
    '<h1>City Gazette (3)</h1><ul><li><a href="/feed/4/edit">Edit</a></li></ul>'
    + "".join(
        f'<article class="item"><h2><a href="/entry/{e}">Story {e}</a></h2>'
        f'<a href="/feed/4/entries" title="https://gazette.example.org/">City Gazette</a></article>'
        for e in (11, 12, 13)
    ),
    "/feed/4/entries",
)


def edit_form(site: str) -> FetchedPage:
    return SITE.page(
        '<h1>City Gazette</h1><ul><li><a href="/feeds">Feeds</a></li><li><a href="/feed/4/entries">Entries</a></li>'
        '</ul><form action="/feed/4/update" method="post"><input type="hidden" name="csrf" value="tok">'
        '<label for="t">Title</label><input type="text" id="t" name="title" value="City Gazette">'
        f'<label for="s">Site URL</label><input type="url" id="s" name="site_url" value="{site}">'
        '<label for="f">Feed URL</label><input type="url" id="f" name="feed_url"'
        ' value="https://gazette.example.org/feed.xml">'
        '<label for="u">Feed username</label><input type="text" id="u" name="feed_username" value="">'
        '<button>Update</button> or <a href="/feeds">Cancel</a></form>',
        "/feed/4/edit",
    )


def test_the_feeds_row_in_the_list_shows_the_site_its_page_does_not():
    found = check_form_drops_value(edit_form(""), SITE.fetcher(FEED_LIST, ENTRIES))
    assert [(f.evidence["fields"], f.evidence["shown"]) for f in found] == [
        ("site_url", "https://gazette.example.org/")
    ]


def test_the_form_holding_the_site_is_silent():
    assert (
        check_form_drops_value(edit_form("https://gazette.example.org/"), SITE.fetcher(FEED_LIST, ENTRIES))
        == []
    )
