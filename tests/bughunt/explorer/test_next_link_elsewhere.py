"""A "next >>" link to a list's next batch on another address than the page's own is the way on
(`PageFacts.next_pages`): a tracker's front page lists the first tickets of its index, whose later
batches are `/ticket?@startwith=3`. The planner takes the next page of this page's list before the
page's other links, as it does for a pager's click; a link the URLs already show as the next page
(`/ticket?page=2` from `/ticket`) is left to the URL rule. Pages of our own."""

from __future__ import annotations

from bughunt.explorer.facts import read_page
from bughunt.explorer.http_engine import HttpEngine
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://tracker.test"


def _facts(path: str, pager: str):
    html = (
        '<html><body><nav><a href="/ticket?@template=search">Search</a></nav><table>'
        '<tr><td><a href="/ticket1">Printer jams</a></td></tr><tr><td><a href="/ticket2">Slow search</a></td></tr>'
        f'<tr class="navigation"><th>1..2 out of 5</th><th>{pager}</th></tr></table></body></html>'
    )
    page = FetchedPage(ORIGIN + path, route_of(ORIGIN + path), 200, {}, "text/html", html, 1.0)
    return read_page(page, HttpEngine(ORIGIN + "/", respect_robots=False))


def test_the_front_pages_next_batch_on_the_index_is_the_way_on():
    facts = _facts("/", '<a href="ticket?@startwith=2&amp;@pagesize=2">next &gt;&gt;</a>')
    assert facts.next_pages == {"/ticket?@startwith=2&@pagesize=2"}


def test_a_next_page_the_urls_show_and_other_links_are_left_alone():
    assert _facts("/ticket", '<a href="/ticket?page=2">Next</a>').next_pages == set()
    # a "next" link to a page that names no later page of a list (the next article) is no pager
    assert _facts("/", '<a href="/ticket3">next &gt;&gt;</a>').next_pages == set()


def test_a_next_link_drawn_with_an_arrow_is_the_way_on():
    # a list shown at a pretty address whose pager links the query-routed address (`?controller=…`)
    facts = _facts("/projects", '<a href="/?controller=Projects&amp;action=show&amp;page=2">Next &rarr;</a>')
    assert facts.next_pages == {"/?controller=Projects&action=show&page=2"}


def test_older_from_a_lists_first_page_with_numbers_under_unnamed_keys_is_the_way_on():
    # a forum's thread list newest first: "↓ Older..." adds rows skipped and a page size (`?x=2&n=2`)
    facts = _facts("/forum", '<a href="/forum?x=2&amp;n=2">&darr; Older...</a>')
    assert facts.next_pages == {"/forum?x=2&n=2"}
    # from a later page the next is left to wait like any page (the keys are already there), and a
    # link that adds words, or says nothing of later rows, is no way on
    assert _facts("/forum?x=2&n=2", '<a href="/forum?x=4&amp;n=2">&darr; Older...</a>').next_pages == set()
    assert _facts("/forum", '<a href="/forum?t=hot">&darr; Older...</a>').next_pages == set()
    assert _facts("/forum", '<a href="/forum?x=2&amp;n=2">Thread 2</a>').next_pages == set()
