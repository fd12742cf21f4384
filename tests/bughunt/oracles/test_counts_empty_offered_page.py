"""A pager offering a page of its list that lists nothing (`pager_empty`): a page count of
`floor(total / size) + 1` offers one page too many when the total is a multiple of the size, and a
single-page app's page buttons kept from the list shown before offer pages the list now shown does
not have. Reported on the empty page as a count mismatch, one bug per list whatever its filter; a
last page with items, a page still loading and a page the pager does not offer are not. Pages of our
own, in the shape a server-rendered feed and an SPA's page buttons draw."""

from __future__ import annotations

import dataclasses

from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from tests.support.pages import Fetcher, Site, not_found

_page = Site("http://feed.test", "<html><body><main>", "</main></body></html>").page

TABS = '<ul class="tabs"><li><a href="/?feed=all">All</a></li><li><a href="/?feed=mine">Mine</a></li></ul>'


def _feed(
    query: str, number: int, entries: range, pages: int, empty: str = "Nothing is listed here yet."
) -> FetchedPage:
    items = "".join(
        f'<div class="entry"><a href="/posts/{n}"><h2>Entry {n}</h2></a><p>About {n}.</p></div>'
        for n in entries
    )
    listing = items or f'<div class="entry">{empty}</div>'
    pager = "".join(f'<li><a href="/?{query}page={p}">{p}</a></li>' for p in range(1, pages + 1))
    body = f'<div class="col">{TABS}<div>{listing}</div><nav><ul class="pagination">{pager}</ul></nav></div>'
    return _page(body, f"/?{query}page={number}")


def _found(*pages: FetchedPage) -> list:
    return check_count_mismatch(pages[-1], Fetcher(*pages, missing=not_found(_page)))


def test_a_page_offered_past_the_lists_end_is_a_count_mismatch():
    (found,) = _found(_feed("", 2, range(11, 21), 3), _feed("", 3, range(0), 3))
    assert found.kind == "count_mismatch" and found.evidence["page_offered"] == 3


def test_one_list_under_two_filters_is_one_bug():
    (a,) = _found(_feed("", 2, range(11, 21), 3), _feed("", 3, range(0), 3))
    (b,) = _found(_feed("tag=x&", 1, range(1, 11), 2), _feed("tag=x&", 2, range(0), 2))
    assert a.fingerprint == b.fingerprint


def test_a_last_page_with_items_is_no_mismatch():
    assert _found(_feed("", 2, range(11, 21), 3), _feed("", 3, range(21, 24), 3)) == []


def test_a_list_still_loading_is_not_empty():
    assert _found(_feed("", 2, range(11, 21), 3), _feed("", 3, range(0), 3, empty="Loading entries...")) == []


def test_a_page_the_pager_does_not_offer_is_not_its_claim():
    assert _found(_feed("", 2, range(11, 21), 2), _feed("", 3, range(0), 2)) == []


def test_a_click_on_a_page_button_showing_nothing_is_a_mismatch():
    origin = _feed("", 1, range(1, 11), 5)
    shown = dataclasses.replace(_feed("", 1, range(0), 5), clicked_from=(origin, "3"))
    (found,) = check_count_mismatch(shown, None)
    assert found.evidence["page_offered"] == 3
