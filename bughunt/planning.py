"""Planning over what memory knows, shared by the simulator and the web explorer.

Both are generic over hashable node ids (page indices in the simulator, routes on a real site) and
use only a link table — the pages remembered as visited and the links seen on them — plus, for the
planner, the shape of each page's URL when it has one. Nothing here names a page or route of the
built-in site.

- `planner_strategy` (a `Planner`, defined in `bughunt.sim.planner` and re-exported here) — an
  exploration strategy (the simulator's ``planner``) that beats
  ``frontier``: it takes the *rarest* unvisited neighbour first (linked from the fewest remembered
  pages: a page linked from everywhere, like a navigation target, can be reached from anywhere later
  at the cost of one step, so it is kept as an escape from dead ends); between equally rare links it
  takes one that *leads on* from the current URL (`leads_on`: a sub-path, the next numbered page, a
  path carrying this page's identifier — usually found only here, so leaving it costs a return trip).
  When every neighbour is visited it travels to the nearest unvisited page, preferring *stragglers* —
  unvisited pages whose remembered referrers have the fewest other unvisited links, since those trips
  cannot be shared with other discoveries later. Remaining ties are broken with the run's random
  generator (one draw per decision). URLs are read for their shape only (segments, numbers), never
  for words.
- `shortest_tour` — the exact shortest walk from a start visiting every target over a known directed
  graph (BFS distances + Held–Karp dynamic programming), used after a version change to re-test the
  remembered bug pages first.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import NamedTuple, TypeVar

from memgpt_lite.errors import UsageError

from .sim.bfs import breadth_first
from .sim.planner import TEMPLATE_SAMPLE, Planner, leads_on, planner_strategy, route_shape

__all__ = [
    "TEMPLATE_SAMPLE", "Planner", "Tour", "bfs_paths", "leads_on", "planner_strategy", "route_shape",
    "shortest_tour",
]  # fmt: skip

N = TypeVar("N", bound=Hashable)

EXACT_TOUR_LIMIT = 15
"""Held–Karp is O(2^k·k²); above this many targets `shortest_tour` uses nearest-neighbour order."""


def bfs_paths(graph: Mapping[N, Sequence[N]], source: N) -> dict[N, list[N]]:
    """Shortest path (as a node list from `source`) to every node reachable in the directed `graph`.

    Breadth-first in link order, so among equally short paths the one through earlier links wins.
    """
    paths: dict[N, list[N]] = {}
    for q, p in breadth_first(source, lambda n: graph.get(n, ())):
        paths[q] = [source] if q == source else [*paths[p], q]
    return paths


class Tour(NamedTuple):
    """A walk from `walk[0]` visiting every target; `order` is the order the walk heads for them."""

    order: tuple[Hashable, ...]
    walk: tuple[Hashable, ...]
    exact: bool

    @property
    def steps(self) -> int:
        return len(self.walk) - 1


def shortest_tour(graph: Mapping[N, Sequence[N]], start: N, targets: Iterable[N]) -> Tour:
    """Shortest walk from `start` that visits every target (an open path; it need not return).

    Exact for up to `EXACT_TOUR_LIMIT` targets (Held–Karp over BFS distances); beyond that a
    nearest-neighbour order (`exact=False`). Targets equal to `start` are visited already. Raises
    `UsageError` naming the targets the graph gives no way to reach.
    """
    goals = list(dict.fromkeys(t for t in targets if t != start))
    if not goals:
        return Tour((), (start,), True)
    paths = {n: bfs_paths(graph, n) for n in [start, *goals]}
    unreachable = [t for t in goals if t not in paths[start]]
    if unreachable:
        raise UsageError(f"targets not reachable over the known links: {unreachable}")
    inf = float("inf")

    def d(a: N, b: N) -> float:
        p = paths[a].get(b)
        return len(p) - 1 if p is not None else inf

    exact = len(goals) <= EXACT_TOUR_LIMIT
    order = _held_karp(goals, start, d) if exact else _nearest_first(goals, start, d)
    if order is None:
        raise UsageError("no single walk over the known links reaches every target (one-way links)")
    walk: list[N] = [start]
    for t in order:
        walk.extend(paths[walk[-1]][t][1:])
    return Tour(tuple(order), tuple(walk), exact)


def _held_karp(goals: list[N], start: N, d: Callable[[N, N], float]) -> list[N] | None:
    k = len(goals)
    inf = float("inf")
    # cost[mask][j]: shortest walk from start visiting exactly the goals in mask, ending at goal j
    cost = [[inf] * k for _ in range(1 << k)]
    back = [[-1] * k for _ in range(1 << k)]
    for j in range(k):
        cost[1 << j][j] = d(start, goals[j])
    for mask in range(1, 1 << k):
        row = cost[mask]
        for j in range(k):
            c = row[j]
            if c == inf or not mask >> j & 1:
                continue
            for n in range(k):
                if mask >> n & 1:
                    continue
                nc = c + d(goals[j], goals[n])
                nm = mask | 1 << n
                if nc < cost[nm][n]:  # strict: the first-found (earliest-listed) order wins ties
                    cost[nm][n] = nc
                    back[nm][n] = j
    full = (1 << k) - 1
    end = min(range(k), key=lambda j: cost[full][j])
    if cost[full][end] == inf:
        return None
    order = []
    mask, j = full, end
    while j != -1:
        order.append(goals[j])
        mask, j = mask ^ (1 << j), back[mask][j]
    return order[::-1]


def _nearest_first(goals: list[N], start: N, d: Callable[[N, N], float]) -> list[N] | None:
    left, at, order = list(goals), start, []
    while left:
        nxt = min(left, key=lambda g: d(at, g))
        if d(at, nxt) == float("inf"):
            return None
        order.append(nxt)
        left.remove(nxt)
        at = nxt
    return order
