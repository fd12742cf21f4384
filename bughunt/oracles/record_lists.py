"""A deletion seen on the list that led to the record's page.

A record's own page may outlive its deletion: a store that never forgets (a version-control
artifact, an append-only log) keeps the deleted attachment's page; a soft delete keeps its permalink.
Opening the page's Delete then changes nothing on the page itself, nor makes it answer 404 — but the
list that linked to the page (memory's `OracleConfig.linked_from`: the attachments of a wiki page, the
records of a table) no longer does. The list is read before the action (it must link to the page
then) and twice after it, afresh: a list that rotates or reorders on its own (a "recent" panel)
shows the page again on one of those reads, so only a list that drops it and keeps it dropped is an
effect. Applies to any family: the evidence is a link that one request took away."""

from __future__ import annotations

from urllib.parse import urlsplit

from bughunt.oracles.base import Fetch, OracleConfig, fetch_again
from bughunt.oracles.lists import targets
from bughunt.oracles.reading import resolve
from bughunt.page import FetchedPage, base_url
from bughunt.urls import route_of

MAX_LISTS = 2
"""Pages memory says link to the record's page, read before the action (each a request of the
oracles' step allowance, `MAX_ORACLE_FETCHES`); the first that links to it now is the one watched."""


def links_to(listing: FetchedPage, url: str) -> bool:
    """Whether `listing` links to `url`'s page (its route: fragments and spelling aside)."""
    if not listing.is_html or listing.status >= 400:
        return False
    want, base = route_of(url), base_url(listing)
    return any(
        (to := resolve(base, href)) is not None and route_of(to) == want
        for _, href in targets(listing.document)
    )


def listing_page(page: FetchedPage, fetch: Fetch, config: OracleConfig) -> str | None:
    """A page that memory says links to `page` and links to it now: the list to watch, or None."""
    if config.linked_from is None:
        return None
    parts = urlsplit(page.url)
    origin = f"{parts.scheme}://{parts.netloc}"
    tried = 0
    for route in config.linked_from(page.route):
        if route == page.route or not route.startswith("/"):
            continue
        if tried >= MAX_LISTS:
            break
        tried += 1
        try:
            listing = fetch(origin + route)
        except OSError:
            continue
        if links_to(listing, page.url):
            return origin + route
    return None


def dropped(listing: str, page: FetchedPage, fetch: Fetch) -> bool:
    """Whether `listing`, read twice afresh, no longer links to `page` (and answers both times)."""
    for _ in range(2):
        try:
            after = fetch_again(fetch, listing)
        except OSError:
            return False
        if not after.is_html or after.status >= 400 or links_to(after, page.url):
            return False
    return True
