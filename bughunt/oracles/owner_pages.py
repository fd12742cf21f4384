"""A deletion seen on its owner page: the page the deleted thing belonged to stops linking to it.

A destructive GET is judged by its effect on the page that offered it (the control gone) or on its
resource (now 404). Neither shows when the thing's own page outlives it and a history keeps it
listed: a version-control wiki keeps a deleted attachment's page (the artifact stays) and its
attachment list links it still (history); what changes is the wiki page it was attached to, which
drops it. Likewise a tracker's issue drops a deleted attachment (Trac, Redmine), a post drops a
deleted comment, a folder a deleted file — while the item's own page, or a log of changes, stays.

The owner is found in memory: the pages that linked to the thing's page (`OracleConfig.linked_from`),
fewest of the thing's kind first (a record's parent links to its few attachments; a list or a log to
many: `links_of`, memory's links of a page). An owner that linked to it and, fetched after the
action, answers 2xx without the link, saw it deleted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bughunt.actions import extract_links
from bughunt.fingerprint import route_shape
from bughunt.oracles.base import Fetch, fetch_again
from bughunt.page import FetchedPage
from bughunt.urls import route_of

MAX_OWNERS = 2
"""Owner pages fetched again after an opening (each one request of the page's oracle budget)."""


def owner_routes(
    thing: str,
    linked_from: Callable[[str], Iterable[str]] | None,
    links_of: Callable[[str], Iterable[str]] | None = None,
    *,
    besides: Iterable[str] = (),
) -> list[str]:
    """Remembered pages that link to `thing` (a route), not `thing` itself nor `besides` (the page
    that offered the action: judged already), those linking to fewest pages of `thing`'s shape first."""
    if linked_from is None:
        return []
    skip = {thing, *besides}
    pages = [
        r for r in linked_from(thing) if r not in skip and r.partition("?")[0] != thing.partition("?")[0]
    ]
    if links_of is None:
        return pages[:MAX_OWNERS]
    shape = route_shape(thing)
    kin = {r: sum(1 for link in links_of(r) if route_shape(link) == shape) for r in pages}
    return sorted(pages, key=lambda r: kin[r])[:MAX_OWNERS]


def links_to(page: FetchedPage, thing: str) -> bool:
    """Whether `page` links to the route `thing`."""
    return any(route_of(u) == thing for u in extract_links(page))


def linking_now(origin: str, owners: Iterable[str], thing: str, fetch: Fetch) -> list[str]:
    """The owner pages that link to `thing` as they answer now, before the action: memory's links
    may be stale (another opening) or read from markup other than a link."""
    out = []
    for owner in owners:
        try:
            before = fetch(origin + owner)
        except OSError:
            continue
        if 200 <= before.status < 300 and links_to(before, thing):
            out.append(owner)
    return out


def gone_from_owner(origin: str, owners: Iterable[str], thing: str, fetch: Fetch) -> str | None:
    """The first owner page (a route that linked to `thing` before the action, `linking_now`) that,
    fetched anew, answers 2xx and links to `thing` no more; None when none does (or none could be
    fetched)."""
    for owner in owners:
        try:
            after = fetch_again(fetch, origin + owner)
        except OSError:
            continue
        if 200 <= after.status < 300 and after.is_html and not links_to(after, thing):
            return owner
    return None
