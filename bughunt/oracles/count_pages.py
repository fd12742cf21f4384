"""Reading a counted list over all its pages: the list's other pages when its pagers lead to at most
`MAX_PAGES` of them, and on each the list labelled with the same noun, its items and their
identities (an item a faulty pager repeats on two pages is one item). Moved whole from `counts.py`
(which re-exports the public names).
"""

from __future__ import annotations

from collections.abc import Callable

from bughunt.dom import Node
from bughunt.oracles.base import Fetch, fetch_or_none
from bughunt.oracles.count_labels import _labels
from bughunt.oracles.counted_list import _counted_list, _with_nested, _without_placeholder, drawn_empty
from bughunt.oracles.lists import (
    find_lists,
    first_page_number,
    identities,
    item_facts,
    other_pages,
)
from bughunt.oracles.reading import list_page_key
from bughunt.page import FetchedPage, base_url

MAX_PAGES = 5
"""Other pages of a paginated list fetched to count it whole; a longer list is not compared."""


def _all_pages(
    page: FetchedPage, fetch: Fetch | None, ends: Callable[[FetchedPage], bool] | None = None
) -> list[FetchedPage] | None:
    """The list's other pages, when its pagers lead to at most `MAX_PAGES` of them and all answer;
    None when the list cannot be walked whole (longer, a page failed, or no fetch). A page `ends`
    says the list ends at (it lists nothing: the pages past it hold nothing either) stops the walk
    there, however many pages the pager offers: a count that pages a short list on into pages of
    nothing (a search's "64 records found" over its three rows) is walked whole at its second page."""
    if fetch is None:
        return None
    first = first_page_number(page)
    seen = {list_page_key(page.url, first)}
    queue = other_pages(page)
    out: list[FetchedPage] = []
    while queue:
        url = queue.pop(0)
        if list_page_key(url, first) in seen:
            continue
        seen.add(list_page_key(url, first))
        if len(out) >= MAX_PAGES:
            return None
        other = fetch_or_none(fetch, url, "count")
        if other is None or other.status >= 400 or not other.is_html:
            return None
        out.append(other)
        if ends is not None and ends(other):
            return out
        queue += other_pages(other)
    return out


def _listed(page: FetchedPage, noun: str) -> tuple[int, int, list[frozenset[str]]] | None:
    """Items of the list labelled `noun` on another page of it (alone, with nested ones, and their
    identities), or None when that page has no such labelled list (then the list's pages cannot be
    told apart). Kept with the page: the pages of one list are walked again from each of them."""
    kept = page.derived(_no_lists)
    if noun not in kept:
        kept[noun] = _labelled_as(page, noun)
    return kept[noun]


def _no_lists(page: FetchedPage) -> dict[str, tuple[int, int, list[frozenset[str]]] | None]:
    return {}


def _labelled_as(page: FetchedPage, noun: str) -> tuple[int, int, list[frozenset[str]]] | None:
    for _label, other_noun, _shown, items in _labelled(page):
        if other_noun == noun and items is not None:
            return len(items), _with_nested(items), _keys(items, page)
    return None


def _labelled(page: FetchedPage) -> list[tuple[Node, str, int, list[Node] | None]]:
    """The page's count labels with the items of the list each labels (None: no list follows it),
    read once per page."""
    return page.derived(_read_labelled)


def _read_labelled(page: FetchedPage) -> list[tuple[Node, str, int, list[Node] | None]]:
    labels = _labels(page)
    if not labels:
        return []  # most pages show no count: their lists need not be found
    containers = {id(c) for c, _ in find_lists(page.document)}
    return [
        (label, noun, shown, _drawn(label, _without_placeholder(_counted_list(label, containers, page))))
        for label, noun, shown in labels
    ]


def _drawn(label: Node, items: list[Node] | None) -> list[Node] | None:
    """The items, or none at all where no list follows the label but a line saying it is empty."""
    return [] if items is None and drawn_empty(label) else items


def ends_list(noun: str) -> Callable[[FetchedPage], bool]:
    """Whether another page of the list labelled `noun` lists none of its items: the list ends there."""
    return lambda other: (found := _listed(other, noun)) is not None and found[0] == 0


def _keys(items: list[Node], page: FetchedPage) -> list[frozenset[str]]:
    return [frozenset(k) for k in identities(items, base_url(page), item_facts(page))]


def _distinct(keys: list[frozenset[str]]) -> int | None:
    """Items of a list walked over its pages, an item repeated on two pages counted once (a pager's
    own bug is not the count's); an item with no identity (a tree's root row, whose only words are
    its label) counts as one of its own. None when no item has an identity. A repeat among the items
    that have one is a repeat however the others read: a pager overlapping its pages by a row made a
    count of 31 over 32 walked rows a count bug on every list it paged, beside the pager's own."""
    known = [k for k in keys if k]
    return len(set(known)) + len(keys) - len(known) if known else None
