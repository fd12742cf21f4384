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
action, answers 2xx without the link, saw it deleted. A record named by a hash is often linked by an
abbreviation of it (`/ainfo/79d93ae652c0faf7` for the page at the full hash: Fossil, gitweb, cgit,
Gitea commit and blob pages): a hex segment of 8 or more that begins the other names the same thing
(`same_thing`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from bughunt.actions import extract_links
from bughunt.fingerprint import route_shape
from bughunt.oracles.base import Fetch, fetch_again
from bughunt.page import FetchedPage
from bughunt.urls import absolute, route_of

MAX_OWNERS = 2
"""Owner pages fetched again after an opening (each one request of the page's oracle budget)."""
_HASH = re.compile(r"^[0-9a-fA-F]{8,}$")


def same_thing(route: str, thing: str) -> bool:
    """Whether `route` names `thing`: the same route, or the same but for a hash segment of one that
    abbreviates the other's (at least 8 hex digits, a prefix of it)."""
    if route == thing:
        return True
    (path_a, _, query_a), (path_b, _, query_b) = route.partition("?"), thing.partition("?")
    parts_a, parts_b = path_a.split("/"), path_b.split("/")
    if query_a != query_b or len(parts_a) != len(parts_b):
        return False
    return all(a == b or _abbreviates(a, b) for a, b in zip(parts_a, parts_b, strict=True))


def _abbreviates(a: str, b: str) -> bool:
    short, full = sorted((a.lower(), b.lower()), key=len)
    return bool(_HASH.match(short) and _HASH.match(full)) and full.startswith(short)


def owner_routes(
    thing: str,
    linked_from: Callable[[str], Iterable[str]] | None,
    links_of: Callable[[str], Iterable[str]] | None = None,
    known: Callable[[], Iterable[str]] | None = None,
) -> list[str]:
    """Remembered pages that link to `thing` (a route) or to a route naming it (`same_thing`, among
    the `known` routes), none a view of the thing itself, those linking to fewest pages of `thing`'s
    shape first."""
    if linked_from is None:
        return []
    names = [thing, *(r for r in (known() if known else ()) if r != thing and same_thing(r, thing))]
    own = {n.partition("?")[0] for n in names}
    pages = sorted({r for n in names for r in linked_from(n) if r.partition("?")[0] not in own})
    if links_of is None:
        return pages[:MAX_OWNERS]
    shape = route_shape(thing)
    kin = {r: sum(1 for link in links_of(r) if route_shape(link) == shape) for r in pages}
    return sorted(pages, key=lambda r: kin[r])[:MAX_OWNERS]


def links_to(page: FetchedPage, thing: str) -> bool:
    """Whether `page` links to the route `thing` (or a route naming it, `same_thing`)."""
    return any(same_thing(route_of(u), thing) for u in extract_links(page))


def linking_now(base: str, owners: Iterable[str], thing: str, fetch: Fetch) -> list[str]:
    """The owner pages (routes, resolved against `base`, the judged page's URL) that link to `thing`
    as they answer now, before the action: memory's links may be stale (another opening) or read from
    markup other than a link."""
    out = []
    for owner in owners:
        url = absolute(base, owner)
        if url is None:
            continue
        try:
            before = fetch(url)
        except OSError:
            continue
        if 200 <= before.status < 300 and links_to(before, thing):
            out.append(owner)
    return out


def gone_from_owner(base: str, owners: Iterable[str], thing: str, fetch: Fetch) -> str | None:
    """The first owner page (a route that linked to `thing` before the action, `linking_now`) that,
    fetched anew, answers 2xx and links to `thing` no more; None when none does (or none could be
    fetched)."""
    for owner in owners:
        url = absolute(base, owner)
        if url is None:
            continue
        try:
            after = fetch_again(fetch, url)
        except OSError:
            continue
        if 200 <= after.status < 300 and after.is_html and not links_to(after, thing):
            return owner
    return None
