"""Searches over the links memory knows: breadth-first from the current page (`_reachable`), advanced only
as far as a question needs (`_Search`), and whether a better page is known elsewhere (`_better_elsewhere`).

Cut from `planner` (a pure move): where the planner goes when no link here is worth taking."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Generic, TypeVar

from .bfs import breadth_first
from .memory import KnownLinks

N = TypeVar("N", bound=Hashable)


def _better_elsewhere(
    cur: N,
    dist: Mapping[N, int],
    memory: KnownLinks[N],
    again: set[N],
    sampled: Callable[[N], int],
    level: int,
) -> bool:
    """Does memory know an unvisited node, reachable from here (`dist`), of a template sampled less
    than `level`?"""
    return any(q not in memory and q not in again and sampled(q) < level for q in dist if q != cur)


def _remembered(cur: N, links: Sequence[N], memory: KnownLinks[N]) -> list[N]:
    """The remembered pages; a view that cannot list itself gives those reachable over known links."""
    if isinstance(memory, Iterable):
        return list(memory)
    dist, _ = _reachable(cur, links, memory)
    return [p for p in dist if p in memory]


class _Search(Generic[N]):
    """`_reachable`, advanced only as far as a question needs: the nodes found so far, in the order
    `_reachable` finds them, with their distances and first steps; later questions go on from there."""

    __slots__ = ("cur", "dist", "first", "_walk", "_done")

    def __init__(self, cur: N, links: Sequence[N], memory: KnownLinks[N]) -> None:
        def known(p: N) -> Sequence[N]:
            if p == cur:
                return links
            return memory.links(p) if p in memory else ()  # an unvisited page's links are unknown

        self.cur = cur
        self.dist: dict[N, int] = {cur: 0}
        self.first: dict[N, N] = {}
        self._walk = breadth_first(cur, known)
        next(self._walk)  # (cur, cur)
        self._done = False

    def _next(self) -> N | None:
        if self._done:
            return None
        step = next(self._walk, None)
        if step is None:
            self._done = True
            return None
        q, p = step
        self.dist[q] = self.dist[p] + 1
        self.first[q] = q if p == self.cur else self.first[p]
        return q

    def find(self, wanted: Callable[[N], bool]) -> bool:
        """Is a node found so far or reachable `wanted` (not the current one)? Searches no further
        than the first that is."""
        if any(wanted(q) for q in self.dist if q != self.cur):
            return True
        while (q := self._next()) is not None:
            if wanted(q):
                return True
        return False

    def layer_with(self, wanted: Callable[[N], bool]) -> list[N] | None:
        """The `wanted` nodes of the nearest layer holding one, in the order found; None (the whole
        map searched) when no reachable node is `wanted`."""
        depth: int | None = None
        found: list[N] = []
        for q in [q for q in self.dist if q != self.cur]:
            if depth is not None and self.dist[q] > depth:
                return found
            if wanted(q):
                depth = self.dist[q] if depth is None else depth
                found.append(q)
        while (n := self._next()) is not None:
            if depth is not None and self.dist[n] > depth:
                return found
            if wanted(n):
                depth = self.dist[n] if depth is None else depth
                found.append(n)
        return found if depth is not None else None


def _reachable(cur: N, links: Sequence[N], memory: KnownLinks[N]) -> tuple[dict[N, int], dict[N, N]]:
    """BFS over the current page's links and remembered links: distance and first step to each node."""
    dist: dict[N, int] = {cur: 0}
    first: dict[N, N] = {}

    def known(p: N) -> Sequence[N]:
        if p == cur:
            return links
        return memory.links(p) if p in memory else ()  # an unvisited page's links are unknown

    for q, p in breadth_first(cur, known):
        if q != cur:
            dist[q] = dist[p] + 1
            first[q] = q if p == cur else first[p]
    return dist, first
