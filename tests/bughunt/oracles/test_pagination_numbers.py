"""A number in the path is a page number only when the list's own pager says so (issue 28).

Generic markup, no application's templates: a list of cards, a pager (`ul.pagination`), and boxes of
links to neighbouring resources whose identifiers happen to be consecutive numbers. Every fetch the
oracle makes is recorded, so the tests see both what it reports and what it asked for.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.oracles.pagination import page_number, previous_page_url
from bughunt.page import FetchedPage
from bughunt.urls import route_of
from tests.support.pages import Recorder

ORIGIN = "http://library.test"


def page(path: str, body: str) -> FetchedPage:
    html = f"<!doctype html><html><head><title>t</title></head><body>{body}</body></html>"
    return FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)


def cards(*titles: str) -> str:
    return (
        '<div class="results">'
        + "".join(
            f'<div class="card"><h3><a href="/book/{t.lower()}">{t}</a></h3><p>A book.</p></div>'
            for t in titles
        )
        + "</div>"
    )


def pager(path: str, pages: range, current: int) -> str:
    links = "".join(
        f"<li><span>{n}</span></li>" if n == current else f'<li><a href="{path}/{n}">{n}</a></li>'
        for n in pages
    )
    return f'<ul class="pagination">{links}</ul>'


def box(title: str, hrefs: list[str]) -> str:
    return (
        f'<aside class="box"><h4>{title}</h4><ul class="links">'
        + "".join(f'<li><a href="{h}">Shelf {h.rsplit("/", 1)[-1]}</a></li>' for h in hrefs)
        + "</ul></aside>"
    )


def check(p: FetchedPage, fetch: Recorder) -> list[str]:
    return [f.kind for f in ORACLES["duplicate_pagination"](p, fetch)]


def test_an_identifier_beside_its_neighbour_in_a_related_box_is_not_a_page_number():
    # /shelf/93 and /shelf/92 are two shelves that share a book; the box links the neighbours.
    shelf_92 = page(
        "/shelf/92", cards("Dune", "Emma", "Ulysses") + box("Nearby shelves", ["/shelf/91", "/shelf/93"])
    )
    shelf_93 = page(
        "/shelf/93", cards("Ulysses", "Walden", "Beloved") + box("Nearby shelves", ["/shelf/92", "/shelf/94"])
    )
    fetch = Recorder(shelf_92)
    assert previous_page_url(shelf_93) is None
    assert check(shelf_93, fetch) == [] and fetch.asked == []


def test_a_section_menu_does_not_make_section_1_the_page_before_section_2():
    menu = (
        '<nav><ul class="menu">'
        + "".join(f'<li><a href="/section/{k}">S{k}</a></li>' for k in (1, 2, 3))
        + "</ul></nav>"
    )
    second = page("/section/2", menu + cards("Ada", "Bea", "Cal"))
    fetch = Recorder(page("/section/1", menu + cards("Ada", "Dot", "Eve")))
    assert check(second, fetch) == [] and fetch.asked == []


def test_related_items_with_consecutive_ids_are_not_a_previous_page():
    related = (
        '<ul class="related">'
        + "".join(
            f'<li class="related-item"><a href="/book/{n}">Book {n}</a> <span>4 stars</span></li>'
            for n in (10, 12, 15)
        )
        + "</ul>"
    )
    book_11 = page("/book/11", f"<h1>Book 11</h1>{related}")
    fetch = Recorder(page("/book/10", f"<h1>Book 10</h1>{related}"))
    assert check(book_11, fetch) == [] and fetch.asked == []


def test_the_pager_says_so_the_same_path_numbers_are_pages():
    # The same kind of URL, but N-1 is a link of the list's pager: compared, and the repeat reported.
    first = page("/shelf/1", cards("Dune", "Emma", "Ulysses") + pager("/shelf", range(1, 4), 1))
    second = page("/shelf/2", cards("Ulysses", "Walden", "Beloved") + pager("/shelf", range(1, 4), 2))
    fetch = Recorder(first)
    assert previous_page_url(second) == first.url
    assert check(second, fetch) == ["duplicate_pagination"] and fetch.asked == [first.url]


def test_a_previous_control_still_names_the_previous_page_without_a_pager_list():
    # "« Previous page" beside the list (no pager list): the control itself says so.
    first = page("/feed/2", cards("Dune", "Emma", "Ulysses"))
    third = page("/feed/3", '<div class="bar"><a href="/feed/2">« Previous page</a> <span>3 of 3</span></div>'
                 + cards("Ulysses", "Walden", "Beloved"))  # fmt: skip
    fetch = Recorder(first)
    assert check(third, fetch) == ["duplicate_pagination"] and fetch.asked == [first.url]


def test_a_named_page_parameter_says_so_itself():
    # ?page=3 is a page number whatever box links ?page=2 (a "back to page 2" link, not in a pager).
    second = page("/search?q=x&page=2", cards("Dune", "Emma", "Ulysses"))
    third = page("/search?q=x&page=3", '<p><a href="/search?q=x&page=2">back to page 2</a></p>'
                 + cards("Ulysses", "Walden", "Beloved"))  # fmt: skip
    fetch = Recorder(second)
    assert check(third, fetch) == ["duplicate_pagination"] and fetch.asked == [second.url]


def test_page_numbers_say_where_they_come_from():
    assert page_number("http://x.test/list?sort=new&page=3") == ("/list?sort=new&page=#", 3, True)
    assert page_number("http://x.test/tag/93") == ("/tag/#", 93, False)
    assert page_number("http://x.test/tag/python") is None


def spaced_pager(path: str, pages: range, current: int) -> str:
    # A template that breaks each href over lines (`?page=\n   2`): URL parsers drop the newline and
    # keep the spaces, so the link names `?page=%20%20%202`, which servers read as page 2.
    items = "".join(
        f'<li class="{"active" if n == current else ""}"><a href="{path}?page=\n   {n}"> {n} </a></li>'
        for n in pages
    )
    return f'<ul class="pagination">{items}</ul>'


def test_a_page_number_with_spaces_around_it_is_that_page():
    assert page_number("http://x.test/list?page=%20%203") == ("/list?page=#", 3, True)
    assert page_number("http://x.test/list?page=%20") is None
    second = page(
        "/shelf?page=   2", cards("Ulysses", "Walden", "Beloved") + spaced_pager("/shelf", range(1, 3), 2)
    )
    first = page(
        "/shelf?page=   1", cards("Dune", "Emma", "Ulysses") + spaced_pager("/shelf", range(1, 3), 1)
    )
    fetch = Recorder(first)
    assert check(second, fetch) == ["duplicate_pagination"] and fetch.asked == [first.url]


def test_a_count_over_pages_linked_with_spaced_numbers_counts_every_page():
    # "5 books" over two pages of 3 and 2: the spaced link to page 2 is another page, not this one.
    label = "<p>There are <strong>5 books</strong> on this shelf.</p>"
    first = page("/shelf", label + cards("Dune", "Emma", "Ulysses") + spaced_pager("/shelf", range(1, 3), 1))
    second_url = "/shelf?page=   2"  # as the link resolves; the engine encodes it
    second = page(second_url, label + cards("Walden", "Beloved") + spaced_pager("/shelf", range(1, 3), 2))
    fetch = Recorder(second)
    assert [f.kind for f in ORACLES["count_mismatch"](first, fetch)] == []
    assert fetch.asked == [ORIGIN + second_url]
    # and a count that page 2 does not make up is still wrong
    wrong = page("/shelf", label.replace("5 books", "7 books") + cards("Dune", "Emma", "Ulysses")
                 + spaced_pager("/shelf", range(1, 3), 1))  # fmt: skip
    assert [f.kind for f in ORACLES["count_mismatch"](wrong, Recorder(second))] == ["count_mismatch"]


def log_rows(*rows: tuple[int, str, str]) -> str:
    # A change log: each row an edit of a book, linking to the book (one book edited twice links twice).
    body = "".join(
        f'<tr><td>{rev}</td><td><a href="/book/{book.lower()}">{book}</a></td><td>{note}</td></tr>'
        for rev, book, note in rows
    )
    return f'<table class="log"><tr><th>Rev</th><th>Book</th><th>Note</th></tr>{body}</table>'


def test_two_entries_of_a_log_about_one_resource_are_not_a_repeat():
    first = page("/changes?page=1", log_rows((3, "Dune", "typo"), (2, "Emma", "tip"), (5, "Walden", "new cover"))
                 + pager_q("/changes", 2, 1))  # fmt: skip
    second = page("/changes?page=2", log_rows((2, "Dune", "first draft"), (1, "Emma", "imported"), (1, "Ada", "new"))
                  + pager_q("/changes", 2, 2))  # fmt: skip
    assert check(second, Recorder(first)) == []
    # the same entry shown again (its rank or revision number aside) is a repeat
    again = page("/changes?page=2", log_rows((5, "Walden", "new cover"), (1, "Emma", "imported"), (1, "Ada", "new"))
                 + pager_q("/changes", 2, 2))  # fmt: skip
    assert check(again, Recorder(first)) == ["duplicate_pagination"]


def pager_q(path: str, last: int, current: int) -> str:
    return (
        '<ul class="pagination">'
        + "".join(
            f"<li><span>{n}</span></li>" if n == current else f'<li><a href="{path}?page={n}">{n}</a></li>'
            for n in range(1, last + 1)
        )
        + "</ul>"
    )
