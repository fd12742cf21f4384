"""Page templates: which remembered pages are instances of one page type, judged generically.

A *template* is a route shape plus, where the site shows it, the DOM structure. The shape comes from
the URL alone: numeric segments and query values become ``<n>``, long hexadecimal/UUID identifiers
``<id>``, hyphenated slugs and other query values ``<slug>`` (``/tag/web-dev?page=2`` →
``/tag/<slug>?page=<n>``). Two routes whose shapes differ in one literal segment at the same position
(``/tag/python``, ``/tag/webdev``) are one template when their pages have the same structure hash
(contract 1: tag/attribute-name structure, text ignored, repeated siblings collapsed). Nothing here
names a route of any one application.

`safe_route` is the harness's guard on every route that enters trusted memory: a canonical,
percent-encoded path+query (plus a single-page app's hash route, `/#/article/x`) of bounded length (the engine's `Fetcher.route_of` should already give
one; this makes the promise hold whatever a fetcher returns).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote, unquote

from bughunt.html import hash_route
from bughunt.planning import route_shape

__all__ = ["route_shape", "safe_route", "structure_hash", "template_function", "templates"]

MAX_ROUTE_CHARS = 300
# What may stay unencoded in a remembered route: RFC 3986 unreserved characters, the path and query
# delimiters, and '%' of existing escapes. Commas, spaces, quotes and brackets are encoded, so a route
# can never read as prose or split a comma-separated list in the working context.
_ROUTE_SAFE = "/?&=%-._~:@+!$;"


def safe_route(route: str) -> str | None:
    """The canonical form of `route` (percent-encoded, at most `MAX_ROUTE_CHARS`), or None when it
    cannot be one (not a path, or too long)."""
    if not route.startswith("/"):
        return None
    path, _, fragment = route.partition("#")
    # Decode once and re-encode, so "/a%20b" and "/a b" are the same route and escapes stay valid.
    encoded = quote(unquote(path), safe=_ROUTE_SAFE)
    if hash_route(fragment):
        # A single-page app's hash route is a page of its own (`/#/article/x`); a plain anchor is
        # a place on one and is dropped.
        encoded += "#" + quote(unquote(fragment), safe=_ROUTE_SAFE + "#")
    return encoded if len(encoded) <= MAX_ROUTE_CHARS else None


def templates(hashes: Mapping[str, str | None]) -> dict[str, str]:
    """Template of every route in `hashes` (route → structure hash, None when unknown).

    Shapes first; then routes of one shape save one literal segment, with the same known structure
    hash, share a template with that segment as ``<slug>``. A route with no known hash keeps its shape.
    """
    return _merge(hashes)[0]


def template_function(hashes: Mapping[str, str | None]) -> Callable[[str], str]:
    """`templates` as a function of any route, remembered or not: a route memory has not loaded yet
    belongs to a merged template when it differs from it in the merged segment only (`/profile/bob`
    once `/profile/carol` and `/profile/dave` showed one structure), else it keeps its shape."""
    table, merged = _merge(hashes)

    def template(route: str) -> str:
        known = table.get(route)
        if known is not None:
            return known
        shaped = route_shape(route)
        for key in _keys(shaped):
            if key in merged:
                return merged[key]
        return shaped

    return template


def _keys(shaped: str) -> list[tuple[Any, ...]]:
    """(query, segment count, position, segments before, segments after) for each literal segment."""
    path, _, query = shaped.partition("?")
    parts = path.split("/")
    return [
        (query, len(parts), i, tuple(parts[:i]), tuple(parts[i + 1 :]))
        for i, seg in enumerate(parts)
        if seg and not seg.startswith("<")
    ]


def _merge(hashes: Mapping[str, str | None]) -> tuple[dict[str, str], dict[tuple[Any, ...], str]]:
    shape = {r: route_shape(r) for r in hashes}
    out = dict(shape)
    groups: dict[tuple[Any, ...], list[str]] = {}
    for r, s in shape.items():
        h = hashes[r]
        if not h:
            continue
        for key in _keys(s):
            groups.setdefault((h, *key), []).append(r)
    merged: dict[tuple[Any, ...], str] = {}
    for (_h, query, n, i, before, after), routes in groups.items():
        if len({shape[r].split("?")[0].split("/")[i] for r in routes}) < 2:
            continue
        template = "/".join([*before, "<slug>", *after]) + (f"?{query}" if query else "")
        merged[(query, n, i, before, after)] = template
        for r in routes:
            out[r] = template
    return out, merged


def structure_hash(page: Any) -> str | None:
    """The fetched page's DOM structure hash (contract 1, the engine's `FetchedPage.structure_hash`),
    or None for a response that has none."""
    given = getattr(page, "structure_hash", None)
    return given if isinstance(given, str) and given else None
