"""An editor at the page's own address plus an action segment (`/guides/setup/_edit/`), as wikis and
CMSs lay them out: the page it edits is that address without the segment, when the editor links to
it; the page's title sits in a menu bar of tabs. Generic markup, no application's templates."""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://docs.test"


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>Docs</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def tabs(path: str) -> str:
    return (
        f'<nav class="page-menu"><h1 id="page-title">Setup guide</h1><ul>'
        f'<li><a href="{path}">View</a></li><li><a href="{path}_edit/">Edit</a></li>'
        f'<li><a href="{path}_history/">Changes</a></li></ul></nav>'
    )


VIEWED = page(
    "/guides/setup/",
    tabs("/guides/setup/")
    + '<article><h2>Install<a class="section-edit-title-link" href="/guides/setup/_section/1/">[edit]</a></h2>'
    "<p>Run the installer and follow its steps.</p></article>",
)


def editor(title: str) -> FetchedPage:
    return page(
        "/guides/setup/_edit/",
        tabs("/guides/setup/") + '<form method="post"><input type="hidden" name="csrf" value="t0k3n">'
        f'<label for="id_title">Title</label><input id="id_title" name="title" value="{title}">'
        '<label for="id_body">Contents</label><textarea id="id_body" name="body">Run the installer.</textarea>'
        '<button>Save</button><a href="/guides/setup/_move/">Move</a>'
        '<a class="btn" href="/guides/setup/_delete/">Delete</a></form>',
    )


def fetcher(asked: list[str]):
    served = {
        VIEWED.url: VIEWED,
        ORIGIN + "/guides/setup/_move/": page("/guides/setup/_move/", "<h1>Move</h1>"),
    }

    def fetch(url: str) -> FetchedPage:
        asked.append(url)
        if url not in served:
            raise OSError(f"not served: {url}")
        return served[url]

    return fetch


def test_an_editor_at_the_pages_address_is_compared_with_that_page():
    asked: list[str] = []
    (finding,) = ORACLES["form_drops_value"](editor(""), fetcher(asked))
    assert finding.evidence["field"] == "title" and finding.evidence["resource_url"] == VIEWED.url
    assert finding.evidence["shown"] == "Setup guide"  # the heading in the tabs, not a section's [edit]
    assert asked[0] == VIEWED.url  # not the form's own tools (move, delete)


def test_an_editor_showing_the_stored_title_is_silent():
    assert ORACLES["form_drops_value"](editor("Setup guide"), fetcher([])) == []


def test_a_bare_editor_is_not_compared_with_the_sites_root():
    """`/edit` (a profile's editor in a single-page app) minus its edit segment is the root: the home
    page in its menu is not what it edits — the profile behind it is (`linked_from`)."""
    from bughunt.oracles import OracleConfig

    home = page("/", "<h1>Feed</h1><p>Posts of the people you follow.</p>")
    profile = page(
        "/user/ann", '<h1>ann</h1><h5>Knits and writes about wool.</h5><a href="/edit">Edit profile</a>'
    )
    form = page(
        "/edit",
        '<nav><a href="/">Home</a></nav><form method="post"><input name="username" value="ann">'
        '<input name="about_me" value=""><button>Save</button></form>',
    )
    served = {p.url: p for p in (home, profile)}
    asked: list[str] = []

    def fetch(url: str) -> FetchedPage:
        asked.append(url)
        return served[url]

    config = OracleConfig(linked_from=lambda route: ["/user/ann"], loaded=lambda route: True)
    (finding,) = ORACLES["form_drops_value"](form, fetch, config)
    assert finding.evidence["resource_url"] == profile.url
    assert home.url not in asked
