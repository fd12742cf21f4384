"""A table paged by a keyset cursor that only goes on: "Next page" opens `?_next=<last id shown>`, and
no control leads back. The cursor key is read however it is marked (`_next`, `page_token`); the page
the walk takes next is that link, and the page it opens is compared with the list's first page, the
URL without its cursor (a list that pages right shares no row of its first page with a later one).
A `?next=/path` is where a login sends one back, no page. Made-up data browser, generic markup."""

from __future__ import annotations

import pytest

from bughunt.explorer.facts import read_page
from bughunt.explorer.http_engine import HttpEngine
from bughunt.oracles.pagination import check_duplicate_pagination, previous_page_url
from bughunt.oracles.reading import is_cursor, names_later_page
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site(
    "http://data.test",
    '<html><head><title>books</title></head><body><nav><a href="/">home</a> <a href="/-/login?next=/db">Log in</a>'
    '</nav><h1>books</h1><form action="/db/books" method="get"><select name="_sort"><option>id</option></select>'
    '<input type="submit" value="Apply"></form>',
    "</body></html>",
)


def table(ids: range, path: str, next_id: int | None) -> FetchedPage:
    rows = "".join(
        f'<tr><td><a href="/db/books/{n}">{n}</a></td><td>Book number {n}</td><td>{1900 + n}</td></tr>'
        for n in ids
    )
    pager = f'<p><a href="/db/books?_next={next_id}">Next page</a></p>' if next_id is not None else ""
    return SITE.page(
        f"<p>{len(ids)} rows shown</p><table><thead><tr><th>id</th><th>title</th><th>year</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>{pager}",
        path,
    )


@pytest.mark.parametrize(("second", "fires"), [(range(6, 11), False), (range(5, 10), True)])
def test_a_keyset_page_with_no_way_back_is_compared_with_the_lists_first_page(second: range, fires: bool):
    first = table(range(1, 6), "/db/books", 5)
    two = table(second, "/db/books?_next=5", second[-1])
    assert previous_page_url(two) == first.url
    found = check_duplicate_pagination(two, SITE.fetcher(first))
    assert [f.kind for f in found] == (["duplicate_pagination"] if fires else [])


def test_cursor_keys_are_read_however_marked_and_a_path_is_no_cursor():
    assert is_cursor("_next", "20") and is_cursor("page_token", "CgQIARAB") and is_cursor("after", "k2p9")
    assert (
        not is_cursor("next", "/admin")
        and not is_cursor("next", "http://x.test/")
        and not is_cursor("_next", "")
    )
    assert names_later_page("http://data.test/db/books?_next=20")
    assert not names_later_page("http://data.test/-/login?next=/db")


def test_the_next_page_link_of_a_keyset_table_is_the_way_on():
    page = table(range(1, 6), "/db/books", 5)
    facts = read_page(page, HttpEngine(SITE.origin + "/", respect_robots=False))
    assert facts.next_pages == {"/db/books?_next=5"}


def test_a_cursor_carried_into_another_lists_link_is_not_compared_with_that_lists_first_page():
    # a filter added on page 2 of the whole table keeps its cursor (`?_next=5&genre=2`): that list
    # starts past row 5, while its own first page pages on by another cursor and may show those rows
    first = table(range(1, 6), "/db/books?genre=2", 5)
    carried = table(range(3, 8), "/db/books?_next=3&genre=2", 7)
    assert previous_page_url(carried) == first.url
    assert check_duplicate_pagination(carried, SITE.fetcher(first)) == []
