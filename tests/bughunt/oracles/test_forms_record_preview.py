"""A form's field that the record's own page never shows is compared with the record's preview on a list
linking to that page (issue 25: the record/edit-form pair, one hop further).

Generic markup of our own: a blog whose post page shows the title, the body and the tags, while the
post's summary is shown only in the previews of the lists that link to the post (the home feed, the
author's page) — the post page links its editor. An editor that opens with the summary empty drops it.
"""

from __future__ import annotations

from bughunt.oracles.base import OracleConfig
from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://blog.test"
MENU = '<nav><a href="/">Home</a> <a href="/editor">New post</a> <a href="/settings">Settings</a></nav>'
POSTS = (
    (
        "a-first-season-with-tomatoes",
        "A first season with tomatoes",
        "What worked in a small plot",
        "Start early.",
    ),
    ("ten-notes-on-seed-saving", "Ten notes on seed saving", "Keep the best plants apart", "Dry them well."),
)


def page(path: str, body: str) -> FetchedPage:
    html = (
        f"<!doctype html><html><head><title>Blog</title></head><body>{MENU}<main>{body}</main></body></html>"
    )
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def preview(slug: str, title: str, summary: str) -> str:
    return (
        '<div class="post-preview"><div class="meta"><a href="/profile/ann">ann</a> <span>May 2</span></div>'
        f'<a href="/post/{slug}" class="preview-link"><h1>{title}</h1><p>{summary}</p>'
        "<span>Read more...</span></a></div>"
    )


HOME = page("/", "<h2>Global feed</h2>" + "".join(preview(s, t, d) for s, t, d, _ in POSTS))
POST_PAGES = [
    page(
        f"/post/{slug}",
        f'<div class="banner"><h1>{title}</h1><a href="/editor/{slug}">Edit post</a></div>'
        f'<div class="post-content"><p>{body}</p><ul class="tags"><li>garden</li></ul></div>',
    )
    for slug, title, _summary, body in POSTS
]


def editor(summary: str) -> FetchedPage:
    slug, title, _summary, body = POSTS[0]
    return page(
        f"/editor/{slug}",
        '<form method="post">'
        f'<input name="title" placeholder="Post title" value="{title}">'
        f'<input name="summary" placeholder="What is this post about?" value="{summary}">'
        f'<textarea name="body" placeholder="Write your post">{body}</textarea>'
        '<input name="tags" placeholder="Enter tags" value=""><div class="tag-list"><span>garden</span></div>'
        '<button type="submit">Publish</button></form>',
    )


def fields(form: FetchedPage) -> list[str]:
    links = {
        "/post/a-first-season-with-tomatoes": ["/", "/profile/ann"],
        "/editor/a-first-season-with-tomatoes": ["/post/a-first-season-with-tomatoes"],
    }
    config = OracleConfig(
        known_routes=lambda: ["/", "/post/a-first-season-with-tomatoes", "/post/ten-notes-on-seed-saving"],
        linked_from=lambda route: links.get(route, []),
        loaded=lambda _route: True,
    )
    fetch = Recorder(HOME, *POST_PAGES)
    return [f.evidence["field"] for f in check_form_drops_value(form, fetch, config)]


def test_the_posts_preview_shows_the_summary_the_editor_dropped():
    assert fields(editor("")) == ["summary"]


def test_the_editor_holding_the_summary_drops_nothing():
    assert fields(editor(POSTS[0][2])) == []
