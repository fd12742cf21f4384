"""A count cell and the page it links count the same population (`bughunt/oracles/count_population.py`):
a blog's admin table of posts counts each post's comments in every state (awaiting moderation too),
and its number links the post's own page, which lists the approved ones — even to the admin. Not a
contradiction. The same table without the rows' writes (a public table), or a management row whose
number links a page of the comments themselves, is still compared. Made-up blog, generic markup."""

from __future__ import annotations

import pytest

from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from tests.support.pages import Site

BLOG = Site("http://blog.test", "<html><head><title>Blog</title></head><body>", "</body></html>")

COMMENTS = {1: (5, 4), 2: (3, 3)}
"""Each post's comments: all of them (pending ones too), and the approved ones its page lists."""


def table(writes: bool, target: str = "/post/{n}#comments") -> FetchedPage:
    rows = ""
    for n, (every, _approved) in COMMENTS.items():
        actions = (
            f'<td><a href="/admin/post/{n}/edit">Edit</a><form method="post" action="/admin/post/{n}/delete">'
            '<button type="submit">Delete</button></form></td>'
            if writes
            else "<td></td>"
        )
        rows += (
            f'<tr><td><a href="/post/{n}">Post number {n}</a></td>'
            f'<td><a href="{target.format(n=n)}">{every}</a></td>{actions}</tr>'
        )
    return BLOG.page(
        "<h1>Posts</h1><table><thead><tr><th>Title</th><th>Comments</th><th>Actions</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>",
        "/admin/posts",
    )


def post(n: int, path: str = "/post/{n}") -> FetchedPage:
    approved = COMMENTS[n][1]
    items = "".join(
        f'<li><b>Reader {k}</b><p>Comment {k} on post {n}.</p><form method="post" action="/comment/{n}{k}/delete">'
        "<button>Delete</button></form></li>"
        for k in range(approved)
    )
    return BLOG.page(
        f'<article><h1>Post number {n}</h1><p>Body.</p></article><div id="comments">'
        f"<h3>{approved} Comments</h3><ul>{items}</ul></div>",
        path.format(n=n),
    )


def test_a_management_rows_count_of_its_own_record_is_not_read_against_the_records_page() -> None:
    # the admin's table counts the pending comment too; the post's page lists the approved four
    found = check_count_mismatch(table(writes=True), BLOG.fetcher(post(1), post(2)))
    assert found == []


@pytest.mark.parametrize(
    ("writes", "target", "path"),
    [
        (False, "/post/{n}#comments", "/post/{n}"),  # a public table: both count what readers see
        (True, "/post/{n}/comments", "/post/{n}/comments"),  # a page of the comments, not the post's
    ],
)
def test_other_counts_of_the_same_population_are_still_compared(writes: bool, target: str, path: str) -> None:
    found = check_count_mismatch(table(writes, target), BLOG.fetcher(post(1, path), post(2, path)))
    assert [(f.kind, f.evidence["shown"], f.evidence["listed"]) for f in found] == [("count_mismatch", 5, 4)]
