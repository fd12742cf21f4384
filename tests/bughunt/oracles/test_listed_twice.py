"""A list of records that shows one record twice on one page (a query joined to a one-to-many table:
a bookmark with two labels listed once per label) repeats it, with no pager in sight; entries that
share a record's link but not their words (two notes on one bookmark) do not. Made-up bookmark admin,
generic markup."""

from __future__ import annotations

from bughunt.oracles.pagination import check_duplicate_pagination
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site("http://marks.test", "<html><head><title>Marks</title></head><body>", "</body></html>")
MARKS = {3: "Garden planner", 7: "Conference notes", 9: "Bread at home", 12: "Night sky"}


def _row(n: int, title: str) -> str:
    return (
        f"<tr><td>{title}</td><td><a href='https://site{n}.example/'>site{n}</a></td>"
        f"<td><a href='/marks/{n}/edit' title='Edit'>✎</a></td><td><a href='/marks/{n}/remove'>🗑</a></td></tr>"
    )


def listing(order: list[int]) -> FetchedPage:
    rows = "".join(_row(n, MARKS[n]) for n in order)
    return SITE.page(
        f"<table><thead><tr><th>Title</th><th>Site</th></tr></thead><tbody>{rows}</tbody></table>", "/marks"
    )


def test_a_record_whose_row_is_drawn_twice_is_repeated():
    (finding,) = check_duplicate_pagination(listing([3, 7, 9, 7, 12]), SITE.fetcher())
    assert finding.kind == "duplicate_pagination"
    assert finding.route == "/marks"
    assert finding.evidence["repeated"] == "site7"


def test_each_record_once_is_silent():
    assert check_duplicate_pagination(listing([3, 7, 9, 12]), SITE.fetcher()) == []


def test_entries_about_one_record_in_other_words_are_silent():
    notes = "".join(
        f"<li><a href='/marks/7'>Conference notes</a> — {text}</li>"
        for text in ("slides added", "recording added", "slides fixed")
    )
    assert (
        check_duplicate_pagination(SITE.page(f"<ul class='log'>{notes}</ul>", "/log"), SITE.fetcher()) == []
    )


def test_items_with_no_address_naming_a_record_are_silent():
    lines = "".join("<li><a href='/help'>Help</a> <span>Ask us</span></li>" for _ in range(2))
    others = "<li><a href='/about'>About</a></li><li><a href='/terms'>Terms</a></li>"
    assert (
        check_duplicate_pagination(SITE.page(f"<ul class='m'>{lines}{others}</ul>", "/"), SITE.fetcher())
        == []
    )


def _card(slug: str, title: str) -> str:
    return f"<div class='card'><a href='/recipes/{slug}'><h3>{title}</h3></a><span>quick</span></div>"


DISHES = {
    "lentil-soup-for-two": "Lentil soup for two",
    "banana-bread-no-2": "Banana bread No. 2",
    "greek-salad-no-3": "Greek salad No. 3",
    "pumpkin-soup-no-2": "Pumpkin soup No. 2",
}


def test_a_record_named_by_its_slug_drawn_twice_is_repeated():
    """A grid whose records' addresses are slugs minted from their titles (a recipe box, a blog):
    the next batch an infinite scroll appended starts again with records already shown."""
    order = [
        "lentil-soup-for-two",
        "banana-bread-no-2",
        "greek-salad-no-3",
        "pumpkin-soup-no-2",
        "greek-salad-no-3",
    ]
    cards = "".join(_card(s, DISHES[s]) for s in order)
    (finding,) = check_duplicate_pagination(
        SITE.page(f"<div class='grid'>{cards}</div>", "/recipes"), SITE.fetcher()
    )
    assert finding.evidence["repeated"] == "Greek salad No. 3"


def test_each_slug_once_is_silent():
    cards = "".join(_card(s, t) for s, t in DISHES.items())
    assert (
        check_duplicate_pagination(SITE.page(f"<div class='grid'>{cards}</div>", "/recipes"), SITE.fetcher())
        == []
    )


PEOPLE = {1: "ada@example.org", 4: "ben@example.org", 5: "cy@example.org", 8: "di@example.org"}


def _person(n: int) -> str:
    return (
        f"<tr><td><a href='/admin/user.cgi?action=edit&userid={n}'>{PEOPLE[n]}</a></td>"
        f"<td>{PEOPLE[n].split('@')[0].title()}</td></tr>"
    )


def _people(order: list[int]) -> FetchedPage:
    rows = "".join(_person(n) for n in order)
    return SITE.page(
        f"<table><thead><tr><th>Login</th><th>Name</th></tr></thead><tbody>{rows}</tbody></table>",
        "/admin/user.cgi?action=list&matchstr=e",
    )


def test_a_record_named_in_the_query_drawn_twice_is_repeated():
    """A front controller names its records in the query (`?userid=4`), as a path names them by a
    segment: a user search joined to a one-to-many table lists one user once per joined row."""
    (finding,) = check_duplicate_pagination(_people([1, 4, 5, 4, 8]), SITE.fetcher())
    assert finding.evidence["repeated"] == "ben@example.org"


def test_each_record_named_in_the_query_once_is_silent():
    assert check_duplicate_pagination(_people([1, 4, 5, 8]), SITE.fetcher()) == []
