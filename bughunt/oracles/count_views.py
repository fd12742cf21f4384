"""A view of a list whose link on the list's page counts its records ("View trash (5)", "Drafts (2)"),
and the view, opened, lists another number of them.

A list page offers views of its own collection as links to its own address with a query added (a
status tab `?status=draft`, the trash `?trash=1`, an archive `?archived=yes`), each labelled with how
many records the view holds. The view's page draws the collection's list again, at the same place in
the page, holding the records the view selects: the label's count and that list's length are two views
of one set, and must agree. Read on the view's page: its address without the query is the list's page
(the session's copy; a disagreement is read again on a fresh copy before it is reported, as the walk may
have changed the collection since it loaded the list), and its link to this view, the whole of its text
a count, is the claim.

Only a view that shows its whole list is compared: not paged (`has_pagination`), and its list at the
place the list's page draws its own, redrawn (other records: a list the same on both pages is the
page's furniture). A label led by a destroying verb ("Delete all (5)", "Empty trash (3)") counts what
an action will act on, not a view. Stated on what the pages mean — the count-labelled filter tabs of
admin lists, mail folders and trackers — never on one application's markup; the browser's click
states are `count_filters`' (a filter drawn by script redraws the list in place).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

from bughunt.dom import Node
from bughunt.oracles.base import Fetch, Finding, evidence, fetch_again, page_shape, quoted
from bughunt.oracles.count_labels import parse_count
from bughunt.oracles.destructive_words import destructive_label
from bughunt.oracles.lists import has_pagination, targets
from bughunt.oracles.pagination import FURNITURE_ROLES, content_items, frame_element
from bughunt.oracles.reading import is_page_key, resolve
from bughunt.page import FetchedPage, base_url
from bughunt.sim.route_keys import query_pairs

_READING_VERB = re.compile(r"^(?:view|show|see|browse|open)\s+(?=\S)", re.I)
"""A link's own verb before what it counts ("View trash (5)", "Show archived (3)"): the count is of the
words after it (read with it, "View" took the count for a number of page views)."""
MESSAGE = "a view's count on the list's page disagrees with the number of records the view lists"


def _pairs(url: str) -> frozenset[tuple[str, str]]:
    return frozenset(query_pairs(urlsplit(url).query, decoded=True))


def _list_page(url: str) -> str | None:
    """The list's page a view of it is (`/items?trash=1` → `/items`), or None: no query, or one naming
    only a page of the list (`?page=2` is the list itself, paged)."""
    parts = urlsplit(url)
    keys = [k for k, _ in query_pairs(parts.query, decoded=True)]
    if not keys or all(is_page_key(k) for k in keys):
        return None
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


_SECTIONS = frozenset({"main", "section", "article", "aside"})
_FRAME_ROLES = FURNITURE_ROLES - {"tablist"}


def _in_frame(node: Node) -> bool:
    """In the page's frame (`pagination.frame_element`) — save a `header` inside a section, which heads
    that section (a list's title bar with its views beside it), and a tab strip (views drawn as tabs are
    the claims read here)."""
    chain = (node, *node.ancestors())
    for at, n in enumerate(chain):
        if n.tag == "header" and any(a.tag in _SECTIONS for a in chain[at + 1 :]):
            continue
        if frame_element(n, _FRAME_ROLES):
            return True
    return False


def _claims(listing: FetchedPage, view: FetchedPage) -> list[tuple[str, int]]:
    """(text, count) of each link of the list's page to this view whose whole text is a count."""
    want, path, base = _pairs(view.url), urlsplit(view.url).path, base_url(listing)
    found = []
    for node, href in targets(listing.document):
        url = resolve(base, href) if node.tag == "a" else None
        if url is None or urlsplit(url).path != path or _pairs(url) != want or _in_frame(node):
            continue
        text = " ".join(node.text().split())
        parsed = parse_count(_READING_VERB.sub("", text))
        if parsed is not None and not destructive_label(text):
            found.append((text, parsed[1]))
    return found


def view_mismatch(page: FetchedPage, fetch: Fetch | None) -> Finding | None:
    """The finding for a view of a list (`page`) whose count on the list's page disagrees with the
    records it lists (see the module), or None."""
    if fetch is None or not page.is_html or page.status >= 400 or page.clicked_from is not None:
        return None
    where = _list_page(page.url)
    if where is None or has_pagination(page):
        return None
    # The session's copy of the list's page first: most views agree with their link, and a fresh load
    # of the list for each costs a request a view; a disagreement is read again on a fresh copy (the
    # walk may have changed the collection since it loaded the list) before it is reported.
    for load in (fetch, lambda url: fetch_again(fetch, url)):
        try:
            listing = load(where)
        except OSError:
            return None
        found = _mismatch(page, listing, where)
        if found is None:
            return None
    return found


def _mismatch(page: FetchedPage, listing: FetchedPage, where: str) -> Finding | None:
    if not listing.is_html or listing.status >= 400:
        return None
    claims = _claims(listing, page)
    if len({n for _, n in claims}) != 1:
        return None  # no claim, or two links that disagree with each other: which one counts is unsaid
    text, shown = claims[0]
    theirs = content_items(listing)
    for place, items in content_items(page).items():
        if place not in theirs or [i.text() for i in theirs[place]] == [i.text() for i in items]:
            continue
        if len(items) != shown:
            return Finding(
                "count_mismatch",
                page.route,
                MESSAGE,
                evidence(
                    page,
                    "",
                    label=quoted([text]),
                    shown=shown,
                    listed=len(items),
                    mismatches=1,
                    list_url=where,
                ),
                shape=page_shape(page),
            )
        return None
    return None
