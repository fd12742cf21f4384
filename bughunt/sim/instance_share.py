"""No one record's own pages take the click budget: once the pages under one record took a share of
the budget, and a sibling record with pages of the same names waits, the pages under the first wait
like a saturated type's (issue 25).

A record with pages of its own below its address — a repository's views of each file at each commit
(`/<repo>/log/src/a.c?id=…`, `/<repo>/diff/README?id=…&id2=…`), a project's issues, wiki and files, a
mailbox's folders — offers more page types than the budget: views × paths × query keys, each a new
route shape, so each is wanted as an unsampled template and the walk reads one record's combinations
while its siblings in the list wait. A bug that lives in one record's data (a message quoting markup,
the first commit of a small repository, a long history's second page) is then never reached. The
record's share is `activity_share.ACTIVITY_SHARE` of the budget (never fewer than `MIN_INSTANCES`
pages), the same share one page type may take.

A record is a path prefix (`/kv-store/` of `/kv-store/diff/src/a.c`) that a sibling prefix (the same
path but for its last segment, `/atlas/`) mirrors: the pages known under both start with at least
`SHARED_VIEWS` names in common (`log`, `tree`, `commit`…: words, not values) — the views every record
of the type has.
The URL alone says it, whatever the record's name looks like (a word, a hyphenated slug, a number)
and before either record's page is loaded. A site with one record of a type (one project) is left
alone: its pages are the site. Stated on routes alone, for any family whose records have sub-pages.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Set

from .activity_share import ACTIVITY_SHARE, MIN_INSTANCES

SHARED_VIEWS = 2
"""Names of sub-pages two prefixes must share to be records of one type: one in common (`new`,
`edit`) may be two sections' actions."""

_VIEW_NAME = re.compile(r"^[^\W\d_][^\W\d]*$")
"""A sub-page's name is a word (`log`, `tree`, `merge_requests`): identifiers below two sections
(`/post/3`, `/category/3`) are values, which two lists of small numbers always share."""


def _segments(route: str) -> tuple[str, ...]:
    path = route.split("#", 1)[0].split("?", 1)[0]
    return tuple(s for s in path.split("/") if s)


def _prefix(segments: tuple[str, ...]) -> str:
    return "/" + "/".join(segments) + "/"


def crowded_instances(visited: Iterable[str], known: Iterable[str], budget: int) -> frozenset[str]:
    """The records (path prefixes ending in `/`) whose visited pages — their own and those under them —
    reached their share of a `budget` of clicks while a sibling record of theirs, below its share, has
    pages known and unvisited (see the module)."""
    return InstanceShare().crowded(visited, known, budget)


class InstanceShare:
    """`crowded_instances` kept up to date as pages are visited and found: asked at every choice, it
    reads only the routes visited or known since it was last asked (rescanning every route at every
    choice cost 64 % of a 3,000-click walk's CPU on a 14,700-page site, and grew with memory). A route
    that left either set (a memory reset) rebuilds it from the sets as they are."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self._seen: set[str] = set()
        self._known: set[str] = set()
        self._segments: dict[str, tuple[str, ...]] = {}
        self._counts: Counter[tuple[str, ...]] = Counter()
        self._waiting_routes: set[str] = set()
        # per depth asked: each prefix's parent → value → sub-page names; routes known, unvisited, below
        self._views: dict[int, dict[tuple[str, ...], dict[str, set[str]]]] = {}
        self._waiting: dict[int, Counter[tuple[str, ...]]] = {}

    def crowded(self, visited: Iterable[str], known: Iterable[str], budget: int) -> frozenset[str]:
        """`crowded_instances(visited, known, budget)`."""
        if budget <= 0:
            return frozenset()
        seen: Set[str] = visited if isinstance(visited, Set) else set(visited)
        known_now: Set[str] = known if isinstance(known, Set) else set(known)
        if not (self._seen <= seen and self._known <= known_now):
            self._reset()  # a route left a set: start again from the sets as they are
        self._add(set(seen - self._seen), set(known_now - self._known), seen)
        cap = max(MIN_INSTANCES, math.ceil(ACTIVITY_SHARE * budget))
        counts = self._counts
        full = sorted((p for p, n in counts.items() if n >= cap), key=len)
        if not full:
            return frozenset()
        for k in {len(p) for p in full}:
            if k not in self._views:
                self._depth(k)
        crowded: list[tuple[str, ...]] = []
        for prefix in full:
            if any(prefix[: len(c)] == c for c in crowded):
                continue  # below a record already crowded
            siblings = self._views[len(prefix)].get(prefix[:-1], {})
            waiting = self._waiting[len(prefix)]
            own = siblings.get(prefix[-1], set())
            if any(
                value != prefix[-1]
                and len(names & own) >= SHARED_VIEWS
                and waiting[prefix[:-1] + (value,)] > 0
                and counts[prefix[:-1] + (value,)] < cap
                for value, names in siblings.items()
            ):
                crowded.append(prefix)
        return frozenset(_prefix(p) for p in crowded)

    def _split(self, route: str) -> tuple[str, ...]:
        segments = self._segments.get(route)
        if segments is None:
            segments = self._segments[route] = _segments(route)
        return segments

    def _add(self, new_seen: set[str], new_known: set[str], seen: Collection[str]) -> None:
        for route in new_seen:
            segments = self._split(route)
            for k in range(1, len(segments) + 1):
                self._counts[segments[:k]] += 1
            if route in self._waiting_routes:
                self._waiting_routes.discard(route)
                self._count_waiting(segments, -1, self._waiting)
        for route in new_seen | new_known:
            if route in self._known or route in self._seen:
                continue  # already read as a route of either set
            segments = self._split(route)
            for k, views in self._views.items():
                self._view(views, segments, k)
            if route not in seen:
                self._waiting_routes.add(route)
                self._count_waiting(segments, 1, self._waiting)
        self._seen |= new_seen
        self._known |= new_known

    def _depth(self, k: int) -> None:
        """The views and waiting routes at depth `k`, read from every route so far."""
        views: dict[tuple[str, ...], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        waiting: Counter[tuple[str, ...]] = Counter()
        for route in self._seen | self._known:
            segments = self._split(route)
            self._view(views, segments, k)
            if route in self._waiting_routes:
                self._count_waiting(segments, 1, {k: waiting})
        self._views[k], self._waiting[k] = views, waiting

    @staticmethod
    def _view(views: dict[tuple[str, ...], dict[str, set[str]]], segments: tuple[str, ...], k: int) -> None:
        if len(segments) > k and _VIEW_NAME.match(segments[k]):
            views[segments[: k - 1]][segments[k - 1]].add(segments[k])

    @staticmethod
    def _count_waiting(
        segments: tuple[str, ...], step: int, by_depth: dict[int, Counter[tuple[str, ...]]]
    ) -> None:
        for k, waiting in by_depth.items():
            if len(segments) > k:
                waiting[segments[:k]] += step


def under(route: str, prefixes: Collection[str]) -> bool:
    """Whether `route` is one of `prefixes` or a page below one."""
    path = route.split("#", 1)[0].split("?", 1)[0]
    path = path if path.endswith("/") else path + "/"
    return any(path.startswith(p) for p in prefixes)
