"""Two routes one tenant apart: the same page of two tenants, projects or workspaces of one site.

`fingerprint.one_template` reads routes alone and never joins two first segments (`/followers/x`,
`/following/x` are two pages). But a site that names its tenants by a word in the first segment
(`/demo/`, `/flatmates/`: two projects of a budget app; `/acme/issues`, `/globex/issues`: a tracker's
projects; `/ops/wiki/Home`, `/dev/wiki/Home`: a wiki's namespaces) serves each of them from one
template, and a bug in it is found once per tenant the walk met. Structure hashes do not join them:
each tenant's page lists its own rows, members and counts (Session 33 measured two different hashes).

What does hold is what the page links to: a tenant's page keeps the tenant in its own links (its
menu: `/demo/statistics`, `/demo/history`, `/demo/settle`), and two tenants' pages offer the same
places below their tenant. A first segment is a tenant when the page's own links carry it as their
first segment with at least `MIN_PLACES` different plain words below it; two routes are one page of
two tenants when both are, and they share at least `MIN_PLACES` of those words, at least half of
each side's. Two collections of a CRUD site (`/users/`, `/groups/`) share their record links
(`/<n>`, `/<n>/edit`) and one or two action words (`new`), not a menu of places: they stay two
templates."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from bughunt.fingerprint import segment_shape

MIN_PLACES = 3
"""Plain words below a tenant that make it one (a menu), and that two tenants' pages must share."""


def first_segment(route: str) -> str:
    """The first path segment of a route (`/demo/?search=x` → `demo`), empty for the root."""
    return urlsplit(route).path.lstrip("/").partition("/")[0]


def places_below(tenant: str, links: Iterable[str]) -> frozenset[str]:
    """The plain words right below `tenant` in the links that carry it as their first segment
    (`/demo/statistics`, `/demo/members/add` → `statistics`, `members`); identifiers and slugs are
    records, not places."""
    out = set()
    for link in links:
        path = urlsplit(link).path
        segments = path.lstrip("/").split("/")
        if len(segments) < 2 or segments[0] != tenant or not segments[1]:
            continue
        if segment_shape(segments[1]) == segments[1]:
            out.add(segments[1])
    return frozenset(out)


def swapped_tenant(route: str, tenant: str) -> str:
    """`route` with its first segment replaced by `tenant`."""
    path, sep, query = route.partition("?")
    rest = path.lstrip("/").partition("/")
    return "/" + tenant + rest[1] + rest[2] + sep + query


def tenant_twin(a: str, b: str, links_of: Callable[[str], Iterable[str]]) -> str | None:
    """`b` under `a`'s tenant, when `a` and `b` begin with two tenants' words (plain words, not
    identifiers) whose pages (their links, `links_of`) offer one menu of places below each; else None.
    The caller decides whether the rest of the two routes is one template (its own rules, with the
    tenant's word equal)."""
    tenant_a, tenant_b = first_segment(a), first_segment(b)
    if not tenant_a or not tenant_b or tenant_a == tenant_b:
        return None
    if segment_shape(tenant_a) != tenant_a or segment_shape(tenant_b) != tenant_b:
        return None  # an identifier or a slug beside a word: a record and a page, not two tenants
    places_a = places_below(tenant_a, links_of(a))
    if len(places_a) < MIN_PLACES:
        return None
    places_b = places_below(tenant_b, links_of(b))
    shared = places_a & places_b
    if len(shared) < MIN_PLACES or 2 * len(shared) < max(len(places_a), len(places_b)):
        return None
    return swapped_tenant(b, tenant_a)


def tenant_template(template: str) -> str:
    """A template found on one tenant's routes, read for every tenant: its first segment `<slug>`."""
    return swapped_tenant(template, "<slug>")
