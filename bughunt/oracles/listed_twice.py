"""One record listed twice on one page: two items of one list alike in every word and in every address
that names a record (`/items/58/edit`, `/items/delete/58`).

A list of records draws each record once: its row's links to the record's own pages and actions carry
the record's identifier, so two rows carrying the same identifiers and reading the same are one record
drawn twice — a query joined to a one-to-many table (a record with two tags listed once per tag), a
loop run over a list with its own items appended. Items that share a link but not their words are
other entries about one record (two comments on one post, two revisions of one page, an activity feed's
lines), and items with no address naming a record (a stock line, a menu's entries) say nothing of
which record they are, so neither counts. A list whose items all read alike (a widget's repeated
placeholder) is no list of records. Stated on what a list of records means, for every family: an admin's
table, a shop's basket, a feed of posts.

The finding is a `duplicate_pagination`: the records the list shows again are read as a faulty pager's
(one query slicing rows it should not repeat); it names no previous page, its list is the one page.
"""

from __future__ import annotations

from collections.abc import Callable

from bughunt.dom import Node
from bughunt.oracles.base import Finding, evidence, page_shape, quoted, short
from bughunt.oracles.item_identity import addresses_record
from bughunt.oracles.list_finding import item_runs
from bughunt.oracles.lists import item_title, targets
from bughunt.oracles.reading import resolve
from bughunt.oracles.server_error import error_key
from bughunt.page import FetchedPage, base_url
from bughunt.urls import route_of, same_origin

MIN_ITEMS = 3
"""Items a list needs before a repeat in it is read: two alike may be a pair the page draws on purpose."""


def _record_routes(item: Node, base: str, page_url: str) -> frozenset[str]:
    """The item's links on the page's site that name a record (`item_identity.addresses_record`: an
    identifier or a slug in the path, `/items/58/edit`, `/r/lentil-soup-no-2`, or in the query,
    `/user?userid=7` — a front controller names its records there): what names the record it stands
    for. A slug names a record as its number would: a site mints it from the record's title."""
    routes = set()
    for node, href in targets(item):
        url = resolve(base, href) if node.tag == "a" else None
        if url is None or not same_origin(url, page_url):
            continue
        if addresses_record(url):
            routes.add(route_of(url))
    return frozenset(routes)


def _texts_repeat(root: Node) -> bool:
    """Whether a run of `MIN_ITEMS` items or more (`item_runs`) holds two items of one text. A content
    list's items are a run's or some of them (`pagination._items_by_position` keeps runs, their
    items less a frame's), and a record listed twice reads alike: without such a pair no content list
    can show one, so the lists need not be found."""
    for _container, _sig, items in item_runs(root):
        if len(items) >= MIN_ITEMS and len({" ".join(i.text().split()) for i in items}) < len(items):
            return True
    return False


def listed_twice(page: FetchedPage, lists: Callable[[], dict[str, list[Node]]]) -> list[Finding]:
    """One finding for the first of the page's content lists (`lists()`, by position) that shows a
    record twice, naming the records shown again."""
    if not _texts_repeat(page.document):
        return []  # most pages: their content lists (a dearer reading) need not be found
    base = base_url(page)
    for key, items in lists().items():
        if len(items) < MIN_ITEMS:
            continue
        seen: set[tuple[str, frozenset[str]]] = set()
        again: list[Node] = []
        for item in items:
            routes = _record_routes(item, base, page.url)
            if not routes:
                continue
            mark = (" ".join(item.text().split()), routes)
            if mark in seen:
                again.append(item)
            seen.add(mark)
        if not again or len(seen) < 2:
            continue
        names = list(dict.fromkeys(short(item_title(i), 80) for i in again))
        return [
            Finding(
                "duplicate_pagination",
                page.route,
                "list shows one record twice on one page",
                evidence(page, names[0], repeated=quoted(names), list=key, list_key=error_key(key)),
                shape=page_shape(page),
            )
        ]
    return []
