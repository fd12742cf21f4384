"""A page already seen at another address: its list's first page by number (`/list?page=1` beside `/list`),
or its query in another order (`first_page_alias`, `FirstPageAliases` for many routes at once).

Cut from `planner` (a pure move): the planner and its `KnownIndex` skip such links."""

from __future__ import annotations

from collections.abc import Iterable

from .route_keys import page_key, query_pairs
from .route_shapes import _NUMBER


def first_page_alias(route: str, siblings: Iterable[str], seen: Iterable[str]) -> bool:
    """Is `route` a page already `seen` with a first-page number added (``/list?page=1`` beside
    ``/list``), judging by the URLs alone? The number must be 0 or 1 and the smallest one that
    `siblings` (the links beside it) give that parameter; an empty value equals no value
    (``?own=&page=1`` is ``?own`` page 1). Most pagers link their first page by number while the
    list itself is linked without one: the same page at two addresses. A page `seen` with the same
    query parameters in another order (``?b=2&a=1`` beside ``?a=1&b=2``: links built by appending
    to the query they were given) is one too. (One route; to ask about many against the same
    siblings, build one `FirstPageAliases`.)"""
    return FirstPageAliases(siblings, seen)(route)


class FirstPageAliases:
    """`first_page_alias` for many routes against one set of siblings and seen pages: the seen pages'
    (path, query) keys and, per (path, parameter), the smallest number the siblings give it are
    indexed once (O(siblings + seen)), so each route costs only its own parameters. Asking route by
    route rebuilt both for every route — O(routes × (siblings + seen)) per choice, most of the
    planner's time on a site with thousands of paginated lists. Siblings and seen pages can be added
    later (`add_sibling`, `add_seen`): what `KnownIndex` keeps from choice to choice."""

    __slots__ = ("_seen", "_least")

    def __init__(self, siblings: Iterable[str] = (), seen: Iterable[str] = ()) -> None:
        self._seen: set[tuple[str, tuple[tuple[str, str], ...]]] = set()
        self._least: dict[tuple[str, str], int] = {}
        for sibling in siblings:
            self.add_sibling(sibling)
        for route in seen:
            self.add_seen(route)

    def add_sibling(self, sibling: str) -> None:
        path, _, query = sibling.partition("?")
        least = self._least
        for key, value in query_pairs(query):
            if _NUMBER.match(value):
                number = int(value)
                if (path, key) not in least or number < least[(path, key)]:
                    least[(path, key)] = number

    def add_seen(self, route: str) -> None:
        self._seen.add(page_key(route))

    def seen_in_another_order(self, route: str) -> bool:
        """Whether a page seen has `route`'s path and query parameters (in any order)."""
        return page_key(route) in self._seen

    def __call__(self, route: str) -> bool:
        path, _, query = route.partition("?")
        if not query:
            return False
        if "&" in query and self.seen_in_another_order(route):
            return True
        pairs = query_pairs(query)
        for i, (key, value) in enumerate(pairs):
            if value not in ("0", "1"):
                continue
            rest = pairs[:i] + pairs[i + 1 :]
            if (path, tuple(sorted(rest))) not in self._seen:
                continue
            least = self._least.get((path, key))
            if least is None or int(value) <= least:
                return True
        return False
