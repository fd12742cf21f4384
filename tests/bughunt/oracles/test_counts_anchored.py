"""A count link that leads to a place on its own page: a post's "8 comments" in its footer linking
`#comments`, the heading over the comments the page lists (corpus ho10_chyrp, session 22: its planted
count counted the spam and denied comments the page does not show). Made-up blog, generic markup."""

from __future__ import annotations

from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://inkwell.test",
    '<html><head><title>Inkwell</title></head><body><header><h1><a href="/">Inkwell</a></h1></header>'
    '<div id="main">',
    "</div></body></html>",
)


def _comment(n: int, replies: str = "") -> str:
    return (
        f'<li id="comment_{n}"><section class="comment"><p>Comment {n}: the tide came in.</p>'
        f'<a href="/?action=comment&amp;id={n}">link</a>{replies}</section></li>'
    )


def post(
    count: str, comments: str, href: str = "/?action=view&amp;url=tide-7#comments", after: str = ""
) -> FetchedPage:
    return SITE.page(
        '<article class="post"><h2><a href="/?action=view&amp;url=tide-7">Tide</a></h2><p>Evening tide.</p>'
        f'<footer><div class="metadata"><time>28 November</time> &bull; <a href="{href}">{count}</a></div>'
        '</footer></article><div class="traversal"><a rel="next" href="/?action=view&amp;url=sand-6">'
        "Previous post</a></div>"
        f'<h3 id="comments">Comments</h3><article class="commentary"><ol class="comments">{comments}'
        f'<li id="comment_shim"></li></ol></article>{after}',
        "/?action=view&url=tide-7",
    )


THREE = "".join(_comment(n) for n in (1, 2, 3))


def _found(page: FetchedPage) -> list[tuple[int, int]]:
    return [(f.evidence["shown"], f.evidence["listed"]) for f in check_count_mismatch(page)]


def test_a_count_link_to_the_comments_below_that_counts_more_than_they_hold_is_reported():
    assert _found(post("4 comments", THREE)) == [(4, 3)]


def test_the_count_the_comments_below_hold_is_silent_whatever_the_scripts_empty_placeholder():
    assert _found(post("3 comments", THREE)) == []


def test_threaded_replies_count_with_the_comments_they_answer():
    threaded = _comment(1, "<ol>" + _comment(4) + "</ol>") + _comment(2) + _comment(3)
    assert _found(post("4 comments", threaded)) == []


def test_a_count_of_another_pages_comments_or_of_comments_split_over_pages_is_not_compared_here():
    assert _found(post("4 comments", THREE, href="/?action=view&amp;url=sand-6#comments")) == []
    pager = '<nav class="pagination"><a href="/?action=view&amp;url=tide-7&amp;page=2">2</a> <a href="/?action=view&amp;url=tide-7&amp;page=2">Next</a></nav>'
    assert _found(post("4 comments", THREE, after=pager)) == []
