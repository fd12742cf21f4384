"""A category widget on every page of a blog states each category's number of posts ("Design (7)");
on the category's own page, whose posts fill two pages of three, that count is compared with the
posts of all its pages. The sidebar's recent posts, the same on every page, are not the list. Made-up
blog, generic markup."""

from __future__ import annotations

import pytest

from bughunt.oracles.count_links import own_count
from bughunt.oracles.counts import check_count_mismatch, parse_count
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site("http://blog.test", "<html><head><title>Blog</title></head><body>", "</body></html>")
POSTS = {"design": list(range(1, 7)), "books": list(range(7, 9)), "travel": list(range(9, 16))}


def category(slug: str, page: int, stated: dict[str, int]) -> FetchedPage:
    posts = POSTS[slug][(page - 1) * 3 : page * 3]
    articles = "".join(
        f'<article class="post"><h2><a href="/2024/post-{n}">Post {n}</a></h2><p>Notes, day {n}.</p></article>'
        for n in posts
    )
    pages = (len(POSTS[slug]) + 2) // 3
    pager = "".join(
        f'<li><a href="/category/{slug}?page={n}">{n}</a></li>' for n in range(1, pages + 1) if n != page
    )
    widget = "".join(
        f'<li><a href="http://blog.test/category/{s}">{s.title()}</a> <span>({n})</span></li>'
        for s, n in stated.items()
    )
    recent = "".join(f'<li><a href="/2024/post-{n}">Post {n}</a></li>' for n in (8, 7, 6))
    path = f"/category/{slug}" + (f"?page={page}" if page > 1 else "")
    return SITE.page(
        f'<main><h1>{slug.title()}</h1>{articles}<ul class="pagination">{pager}</ul></main>'
        f'<aside><h3>Recent posts</h3><ul class="recent">{recent}</ul><h3>Categories</h3><ul>{widget}</ul></aside>',
        path,
    )


@pytest.mark.parametrize(("stated", "fires"), [(6, False), (7, True)])
def test_a_widgets_count_of_this_list_is_compared_with_all_its_pages(stated: int, fires: bool):
    counts = {"design": stated, "books": 2}
    first, second = category("design", 1, counts), category("design", 2, counts)
    found = check_count_mismatch(first, SITE.fetcher(first, second))
    assert [(f.kind, f.evidence["shown"], f.evidence["listed"]) for f in found] == (
        [("count_mismatch", 7, 6)] if fires else []
    )


def test_a_list_of_one_page_and_another_lists_count_are_left_alone():
    counts = {"design": 9, "books": 5}
    books = category("books", 1, counts)  # one page: its list is not told from the sidebar's
    assert check_count_mismatch(books, SITE.fetcher(books)) == []
    assert own_count(books, parse_count) is not None and own_count(books, parse_count)[1] == 5


@pytest.mark.parametrize(("stated", "fires"), [(7, False), (12, True)])
def test_a_last_page_holding_one_item_may_add_one(stated: int, fires: bool):
    counts = {"travel": stated, "books": 2}
    pages = [category("travel", n, counts) for n in (1, 2, 3)]  # 3, 3 and 1 posts
    found = check_count_mismatch(pages[0], SITE.fetcher(*pages))
    assert [f.kind for f in found] == (["count_mismatch"] if fires else [])


def test_a_lone_counted_link_counts_something_else():
    # "Design (7)" the one counted link of its list (an unread badge's shape): no widget, no claim
    counts = {"design": 7}
    first, second = category("design", 1, counts), category("design", 2, counts)
    assert own_count(first, parse_count) is None
    assert check_count_mismatch(first, SITE.fetcher(first, second)) == []
