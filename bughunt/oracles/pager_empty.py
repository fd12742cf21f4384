"""A pager that offers a page of its list that lists nothing (the count oracle, `counts`).

A pager draws one control per page the list has: the pages it offers are its claim of how many the
list fills. A page it offers past the list's end — a page count computed as `floor(total / size) + 1`
(one page too many whenever the total is a multiple of the page size), or page buttons kept from
another list the view showed before (a feed's five pages offered over a tag's one) — shows the list's
empty state ("No articles are here… yet", "Nothing found") under the same pager. That is a count the
page states (the pager's pages) disagreeing with the items the list has: reported on the page that
lists nothing when

- the page is page N ≥ 2 of the list: a named page parameter (`?page=6`), or a click state reached by
  clicking the pager's "N" at the same address (a single-page app's page buttons,
  `FetchedPage.clicked_from`);
- the page before it (the pager's previous page, fetched; for a click state, the state it was made on)
  listed items, two or more, where this page lists none of them: no run of items at that place, or
  only a line saying the list is empty;
- this page's pager still offers "N", and a short line near the pager (in one of its nearest
  ancestors) says the list is empty — an empty state the app drew, never a list still loading.

One bug per list template: the page's path, whatever the filter or feed (`?tab=all&page=6` and
`?tag=gardening&page=2` of one home page's list are one pager's arithmetic). Stated on pagers and
empty states only: any family that pages with numbered controls, server-rendered (a Django/Rails/
Express list's `?page=`) or a single-page app's page buttons.
"""

from __future__ import annotations

import re
from itertools import islice
from urllib.parse import urlsplit

from bughunt.dom import Node
from bughunt.fingerprint import fingerprint as make_fingerprint
from bughunt.fingerprint import route_shape
from bughunt.oracles.base import Fetch, Finding, evidence, fetch_or_none, page_shape
from bughunt.oracles.counted_list import _EMPTY_TEXT, _without_placeholder
from bughunt.oracles.pager_reading import pager_nodes
from bughunt.oracles.pagination import _content_items, content_lists, page_number, previous_page_url
from bughunt.page import FetchedPage

MESSAGE = "a pager offers a page of its list that lists nothing"
_EMPTY_LINE_CHARS = 80
"""An empty state is one short line ("No articles are here... yet.")."""
_NEAR = 3
"""Ancestors of the pager looked in for the list's empty state."""
_NUMBER = re.compile(r"^\s*(\d{1,4})\s*$")


def _number_offered(page: FetchedPage) -> int | None:
    """N when the page is page N ≥ 2 of a list by a named page parameter or a click on a control
    reading "N"; else None. Told by the URL or the click alone, before any page is read."""
    if page.clicked_from is not None:
        found = _NUMBER.match(page.clicked_from[1])
        return int(found.group(1)) if found is not None and int(found.group(1)) >= 2 else None
    here = page_number(page.url)
    return here[1] if here is not None and here[2] and here[1] >= 2 else None


def _previous(page: FetchedPage, fetch: Fetch | None) -> FetchedPage | None:
    """The page before page N ≥ 2 (`_number_offered`): the page whose pager's "N" was clicked at the
    same address, or the page the named page parameter's N − 1 loads; None when there is none."""
    if page.clicked_from is not None:
        origin = page.clicked_from[0]
        return origin if pager_nodes(origin) else None
    if fetch is None:
        return None
    url = previous_page_url(page)
    before = fetch_or_none(fetch, url, "count") if url else None
    if before is None or not before.is_html or before.status >= 400:
        return None
    return before


def _offers(pagers: list[Node], number: int) -> bool:
    return any(n.text().strip() == str(number) for p in pagers for n in p.find_all("a", "button"))


def _empty_state(pagers: list[Node]) -> Node | None:
    """A short line without links near the pager, outside it, saying the list is empty."""
    inside = {id(n) for p in pagers for n in p.iter()}
    for ancestor in islice(pagers[0].ancestors(), _NEAR):
        for node in ancestor.iter():
            if id(node) in inside:
                continue
            # the short line first (a node's text is kept): only its small subtree is searched for
            # links, not every element's below the page's body
            text = " ".join(node.text().split())
            if not (text and len(text) <= _EMPTY_LINE_CHARS and _EMPTY_TEXT.search(text)):
                continue
            if not node.find_all("a", "button"):
                return node
    return None


def offered_empty_page(page: FetchedPage, fetch: Fetch | None) -> Finding | None:
    """The finding for a page N the pager offers that lists nothing (see the module), or None."""
    number = _number_offered(page)
    if number is None:
        return None  # most pages: no page N ≥ 2 by their URL or click, so their pagers are not read
    pagers = pager_nodes(page)
    if not pagers:
        return None
    before = _previous(page, fetch)
    if before is None:
        return None
    same, was = content_lists(page), content_lists(before)
    # a list both pages show alike (the feed's tabs beside the pager) is the page's furniture
    listed_before = [
        key for key, items in _content_items(before).items() if len(items) >= 2 and same.get(key) != was[key]
    ]
    if not listed_before or not _offers(pagers, number):
        return None
    here = _content_items(page)
    if any(_without_placeholder(here.get(key)) for key in listed_before):
        return None  # the list is there with items
    empty = _empty_state(pagers)
    if empty is None:
        return None
    shape = route_shape(urlsplit(page.url).path or "/")
    return Finding(
        "count_mismatch",
        page.route,
        MESSAGE,
        evidence(page, empty.text(), page_offered=number, previous_url=before.url),
        fingerprint=make_fingerprint(shape, "count_mismatch", MESSAGE),
        shape=page_shape(page),
    )
