"""A feed paged by a cursor (`?before=<id>`: the record the page starts past, newest first): its
page is compared with the page its "Newer" control opens. Made-up feed, generic markup."""

from __future__ import annotations

import pytest

from bughunt.oracles.lists import identities, item_runs
from bughunt.oracles.pagination import check_duplicate_pagination, previous_page_url
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site("http://feed.test", "<html><head><title>Feed</title></head><body><h1>Feed</h1>", "</body></html>")
AUTHORS = ("ann", "bob", "cy")


def feed(ids: range, path: str, newer: str | None, older: str | None, header: str = "") -> FetchedPage:
    posts = "".join(
        f'<table class="post"><tr><td><a href="/u/{AUTHORS[n % 3]}">{AUTHORS[n % 3]}</a> said:<br>'
        f'<span id="post{n}">Post {n}: a walk by the river.</span></td></tr></table>'
        for n in ids
    )
    pager = (
        f'<nav><ul class="pagination"><li><a href="{newer or "#"}">&larr; Newer posts</a></li>'
        f'<li><a href="{older or "#"}">Older posts &rarr;</a></li></ul></nav>'
    )
    return SITE.page(header + posts + pager, path)


@pytest.mark.parametrize(("second", "fires"), [(range(15, 10, -1), False), (range(16, 11, -1), True)])
def test_a_cursor_pagers_page_is_compared_with_the_page_its_newer_control_opens(
    second: range, fires: bool
) -> None:
    first = feed(range(20, 15, -1), "/explore", None, "/explore?before=16")
    two = feed(second, "/explore?before=16", "/explore", f"/explore?before={second[-1]}")
    assert previous_page_url(two) == first.url
    found = check_duplicate_pagination(two, SITE.fetcher(first))
    assert [f.kind for f in found] == (["duplicate_pagination"] if fires else [])


def test_a_cursor_page_without_a_control_back_to_its_list_compares_nothing():
    two = feed(range(16, 11, -1), "/explore?before=16", "/other", "/explore?before=12")
    assert previous_page_url(two) is None


def test_one_row_tables_in_a_row_are_the_items_of_a_list():
    page = feed(range(20, 15, -1), "/explore", None, "/explore?before=16")
    runs = [(c.tag, sig, len(items)) for c, sig, items in item_runs(page.document)]
    assert ("body", "table.post", 5) in runs


def test_items_named_by_a_shared_author_link_are_told_apart_by_their_text():
    page = feed(range(20, 14, -1), "/explore", None, "/explore?before=15")
    (_, _, items), *_ = [r for r in item_runs(page.document) if r[1] == "table.post"]
    keys = identities(items, SITE.origin)
    assert all(keys) and len({frozenset(k) for k in keys}) == len(items)


HEADER = (
    '<table class="post"><tr><td><img src="/ann.png" alt=""></td><td><h1>User: ann</h1>'
    "<p>Knits and writes about wool.</p><p>3 followers, 1 following</p></td></tr></table>"
)


def test_a_header_drawn_like_the_items_leading_both_pages_is_no_repeat():
    first = feed(range(20, 15, -1), "/u/ann?page=1", None, "/u/ann?page=2", HEADER)
    two = feed(range(15, 10, -1), "/u/ann?page=2", "/u/ann?page=1", None, HEADER)
    assert previous_page_url(two) == first.url
    assert check_duplicate_pagination(two, SITE.fetcher(first)) == []
