"""A title field that does not lead its form names another page, not the record (`dropped_title`).

A release's edit form: its name first, then a "Wiki page" field (`version[wiki_page_title]`) naming
the wiki page that documents it, empty when there is none. The release's page, like the edit page,
carries the project's name as the layout's `<h1>` (in a plain `div#header`); that heading is no stored
value of the wiki-page field. A wiki's editor whose title field leads the form still drops its title.
Made-up site, generic markup.
"""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://tracker.test",
    '<html><head><title>{title}</title></head><body><div id="header"><h1>Website</h1></div><div id="content">',
    "</div></body></html>",
)


def page(body: str, path: str, title: str) -> FetchedPage:
    shown = SITE.page(body, path)
    return FetchedPage(
        shown.url, shown.route, 200, {}, "text/html", shown.body.replace("{title}", title), 1.0
    )


RELEASE = page(
    '<h2>2.4</h2><p>Spring release of the site.</p><a href="/versions/1/edit">Edit</a>',
    "/versions/1",
    "2.4 - Website",
)


def release_form(name: str) -> FetchedPage:
    return page(
        '<h2>Version</h2><form method="post" action="/versions/1">'
        f'<label for="n">Name</label><input type="text" id="n" name="version[name]" value="{name}">'
        '<label for="d">Description</label>'
        '<input type="text" id="d" name="version[description]" value="Spring release of the site.">'
        '<label for="w">Wiki page</label><input type="text" id="w" name="version[wiki_page_title]" value="">'
        '<a href="/versions/1">Cancel</a><button>Save</button></form>',
        "/versions/1/edit",
        "Edit version - Website",
    )


def test_an_empty_wiki_page_title_after_the_records_name_is_no_dropped_heading():
    assert check_form_drops_value(release_form("2.4"), SITE.fetcher(RELEASE)) == []


WIKI = page("<h1>Hiring</h1><p>How we hire and onboard people.</p>", "/wiki/hiring", "Hiring - Website")


def wiki_form(title: str) -> FetchedPage:
    return page(
        '<form method="post" action="/wiki/hiring">'
        f'<label for="t">Title</label><input type="text" id="t" name="page[title]" value="{title}">'
        '<label for="b">Text</label><textarea id="b" name="page[text]">How we hire and onboard people.</textarea>'
        '<a href="/wiki/hiring">Cancel</a><button>Save</button></form>',
        "/wiki/hiring/edit",
        "Edit page Hiring - Website",
    )


def test_a_wiki_editors_leading_title_field_still_drops_the_heading():
    found = check_form_drops_value(wiki_form(""), SITE.fetcher(WIKI))
    assert [(f.evidence["fields"], f.evidence["shown"]) for f in found] == [("page[title]", "Hiring")]
    assert check_form_drops_value(wiki_form("Hiring"), SITE.fetcher(WIKI)) == []
