"""A flat-file CMS's editor at `/admin/edit-content/<slug>` and the page it edits (`forms`).

The admin route names what it edits by a two-word segment led by an edit word (`edit-content`, as
`new-content` names a create page): the slug after it is the record, shown at `/<slug>` (a route
memory knows). There the post's description stands in the article's own `<header>` under its title —
an article's header is the record's, not the site's banner —, the breadcrumb (a `nav`) names the page
but is no item of the record, and `div#main-content` around the whole article is named for the
editor's script-filled hidden `content` input without being its value (it holds the title too). The
Description text area left empty is the value dropped. Made-up site, generic markup.
"""

from __future__ import annotations

from bughunt.oracles.base import OracleConfig
from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://cms.test",
    '<html><head><title>Valley news</title></head><body><div id="top"><a href="/">Valley news</a></div>',
    "</body></html>",
)
POST = SITE.page(
    '<div id="main-content"><nav aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li>'
    '<li><span>Protest at the town hall</span><meta itemprop="item" content="http://cms.test/protest-at-the-town-hall">'
    '</li></ol></nav><article class="page"><header class="page-header"><h1 class="title">Protest at the town hall</h1>'
    '<p class="page-description" itemprop="description">Post number 24 about the valley</p></header>'
    '<div class="page-content"><p>Protest at the town hall. A short story.</p></div></article></div>',
    "/protest-at-the-town-hall",
)


def editor(description: str) -> FetchedPage:
    """The editor as the CMS draws it: the options (description, tags) before the title and the body."""
    return SITE.page(
        '<form id="jsform" method="post" action=""><input type="hidden" name="tokenCSRF" value="ab12">'
        '<input type="hidden" id="jscontent" name="content" value="">'
        '<input type="hidden" name="key" value="protest-at-the-town-hall">'
        '<label for="jsdescription">Description</label>'
        f'<textarea id="jsdescription" name="description">{description}</textarea>'
        '<input id="jstags" name="tags" type="text" value="town,travel">'
        '<input id="jstitle" name="title" type="text" value="Protest at the town hall">'
        '<textarea id="jseditor"><p>Protest at the town hall. A short story.</p></textarea>'
        "<button>Save</button></form>",
        "/admin/edit-content/protest-at-the-town-hall",
    )


CONFIG = OracleConfig(known_routes=lambda: ["/", "/protest-at-the-town-hall"])


def test_the_editor_drops_the_description_its_page_shows_in_the_articles_header():
    found = check_form_drops_value(editor(""), SITE.fetcher(POST), CONFIG)
    assert [(f.evidence["fields"], f.evidence["shown"]) for f in found] == [
        ("description", "Post number 24 about the valley")
    ]
    assert found[0].evidence["resource_url"] == "http://cms.test/protest-at-the-town-hall"


def test_the_editor_holding_the_description_is_silent():
    assert check_form_drops_value(editor("Post number 24 about the valley"), SITE.fetcher(POST), CONFIG) == []
