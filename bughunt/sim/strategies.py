"""Exploration strategies, exactly as the seed script defines them (including each random draw).

A strategy chooses the next node from the current node, the links observed on it now, and what memory
knows (`KnownLinks`). Returning None means "nothing left to explore": the run stops. Strategies are
generic over hashable node ids so the web explorer uses them with routes.

- ``random``: one draw among the current links; memory is not consulted.
- ``visited``: one draw among current links not in memory; if there are none, one draw among all links.
- ``frontier``: like visited, but when every neighbour is remembered it walks breadth-first over the
  remembered link table to the nearest node not in memory and steps toward it (no draw); if there is no
  such node, it stops.
- ``planner``: `bughunt.sim.planner` (rarest unvisited neighbour first, then the best straggler).

With an empty memory, `visited` and `frontier` make exactly the draws `random` makes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from memgpt_lite.errors import ConfigError

from .bfs import breadth_first
from .memory import KnownLinks
from .planner import planner_strategy
from .rng import Rng, pick

N = TypeVar("N", bound=Hashable)

Strategy = Callable[[N, Sequence[N], KnownLinks[N], Rng], "N | None"]


def random_strategy(cur: N, links: Sequence[N], memory: KnownLinks[N], rnd: Rng) -> N | None:
    return pick(rnd, links)


def visited_strategy(cur: N, links: Sequence[N], memory: KnownLinks[N], rnd: Rng) -> N | None:
    fresh = [q for q in links if q not in memory]
    return pick(rnd, fresh if fresh else links)


def frontier_strategy(cur: N, links: Sequence[N], memory: KnownLinks[N], rnd: Rng) -> N | None:
    fresh = [q for q in links if q not in memory]
    if fresh:
        return pick(rnd, fresh)
    return step_toward_nearest_unknown(cur, links, memory)


def step_toward_nearest_unknown(cur: N, links: Sequence[N], memory: KnownLinks[N]) -> N | None:
    """First step of a shortest remembered path from `cur` to the nearest node not in memory.

    The current node's links are the ones observed now; every other node's are the remembered ones.
    Breadth-first in link order, so ties go to the earliest link, as the seed's BFS. The seed tests a
    node when it leaves the queue; the queue is first-in first-out, so the first node *enqueued* that is
    not in memory is the one it would return — testing on enqueue gives the same answer sooner.
    """
    first: dict[N, N] = {}

    def known(p: N) -> Sequence[N]:
        return links if p == cur else memory.links(p)

    for q, p in breadth_first(cur, known):
        if q == cur:
            continue
        step = q if p == cur else first[p]
        if q not in memory:
            return step
        first[q] = step
    return None


# Any: the registry's strategies work on whatever node type a caller walks (ints here, routes in the explorer)
STRATEGIES: dict[str, Strategy[Any]] = {
    "random": random_strategy,
    "visited": visited_strategy,
    "frontier": frontier_strategy,
    "planner": planner_strategy,
}


def register_strategy(name: str, strategy: Strategy[Any]) -> None:
    """Make a strategy available by name to the simulator and its ablations."""
    STRATEGIES[name] = strategy


def get_strategy(name: str) -> Strategy[Any]:
    try:
        return STRATEGIES[name]
    except KeyError:
        raise ConfigError(f"strategy: unknown {name!r}; choose one of {', '.join(STRATEGIES)}") from None


def strategy_names() -> tuple[str, ...]:
    return tuple(STRATEGIES)
