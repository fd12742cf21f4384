"""Pagers that count from 0 and page parameters named for their list (`?page_books=1`).

Generic markup: a table of books with a show link per row and a pager whose link "2" opens
`?page_books=1` (the first page is the bare URL, or `?page_books=0`).
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.oracles.lists import first_page_number, other_pages
from bughunt.oracles.reading import is_page_key, list_page_key
from bughunt.page import FetchedPage
from bughunt.urls import route_of

from .test_pagination_numbers import Recorder

ORIGIN = "http://shelf.test"


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>t</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def table(*ids: int) -> str:
    rows = "".join(f'<tr><td><a href="/books/show/{i}">Show</a></td><td>Book {i}</td></tr>' for i in ids)
    return f'<table class="table"><thead><tr><th></th><th>Title</th></tr></thead>{rows}</table>'


def pager(current: int, pages: int = 3) -> str:
    # page numbers in the URL count from 0; the texts from 1
    links = "".join(
        f'<li class="active"><a href="#">{n + 1}</a></li>'
        if n == current
        else f'<li><a href="/books/list/?page_books={n}">{n + 1}</a></li>'
        for n in range(pages)
    )
    return f'<ul class="pagination">{links}</ul>'


def test_page_parameters_named_for_their_list_are_page_keys_and_their_sizes_are_not():
    assert is_page_key("page") and is_page_key("page_books") and is_page_key("Page-Comments")
    assert not is_page_key("page_size") and not is_page_key("psize_books") and not is_page_key("pages")


def test_a_pager_counting_from_zero_makes_the_bare_list_page_zero():
    first = page("/books/list/", table(1, 2, 3) + pager(0))
    assert first_page_number(first) == 0
    assert list_page_key(first.url, 0) == list_page_key(ORIGIN + "/books/list/?page_books=0", 0)
    # the link "2" (`?page_books=1`) is another page, not this one
    assert ORIGIN + "/books/list/?page_books=1" in other_pages(first)
    one_based = page("/books/list/", table(1, 2) + pager(0).replace("page_books=1", "page_books=2"))
    assert first_page_number(one_based) == 1


def test_the_second_page_of_a_zero_based_pager_is_compared_with_the_first():
    first = page("/books/list/?page_books=0", table(1, 2, 3) + pager(0))
    second = page("/books/list/?page_books=1", table(3, 4, 5) + pager(1))
    fetch = Recorder(first)
    assert [f.kind for f in ORACLES["duplicate_pagination"](second, fetch)] == ["duplicate_pagination"]
    assert fetch.asked == [first.url]
    clean = page("/books/list/?page_books=1", table(4, 5, 6) + pager(1))
    assert ORACLES["duplicate_pagination"](clean, Recorder(first)) == []
