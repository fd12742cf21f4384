"""How fast can a walk that does not know where the bugs are find all of them? Bounds for the planner.

A policy that reads only the link table and URLs (no bug locations) orders pages the same way
whichever pages hold the bugs. Its fair score is therefore the expected number of steps to find all
`k` bugs when the `k` bug pages are drawn uniformly among the pages other than the start; on a given
site the real placement can land above or below that expectation by luck.

`expected_steps_to_all(walk, k, n)` scores one walk that way. `best_blind_walk` finds, by branch and
bound over the complete map (more than any memory-only policy knows), the walk with the lowest such
expectation: no bug-blind policy can do better on average over placements. ``python -m
bughunt.planning_bounds`` prints the numbers for the built-in site next to the planner's and
frontier's (`docs/simulator.md`, "Beyond the seed").
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from memgpt_lite.errors import UsageError

N = TypeVar("N", bound=Hashable)


def _not_all_found(k: int, n: int) -> list[float]:
    """P(some bug is still unfound | `found` of the `n` candidate pages visited), for found = 0..n."""
    total = math.comb(n, k)
    return [1 - math.comb(found, k) / total for found in range(n + 1)]


def expected_steps_to_all(walk: Sequence[Hashable], k: int, n: int) -> float:
    """Expected steps until `walk` has visited all of `k` bug pages drawn uniformly from `n` pages.

    The `n` candidates are every page but the start (`walk[0]`). E[T] = Σ_t P(T > t): each step adds
    the chance that a bug is still unfound before it. A walk that stops before visiting every page is
    completed optimistically (one new page per further step), so the value is a lower bound for it.
    """
    if not 0 < k <= n:
        raise UsageError(f"need 0 < bugs <= candidate pages, got {k} and {n}")
    p = _not_all_found(k, n)
    seen = {walk[0]}
    cost = 0.0
    for page in walk[1:]:
        found = len(seen) - 1
        if found == n:
            break
        cost += p[found]
        seen.add(page)
    return cost + sum(p[min(len(seen) - 1, n) : n])


@dataclass(frozen=True, slots=True)
class BlindOptimum:
    expected_steps: float
    walk: tuple[Hashable, ...]
    states: int
    """Search states expanded (the size of the proof)."""


def best_blind_walk(
    links: Mapping[N, Sequence[N]],
    start: N,
    k: int,
    bound: float,
    progress: Callable[[int, float], None] | None = None,
) -> BlindOptimum | None:
    """The walk with the lowest `expected_steps_to_all` below `bound`, or None if none beats it.

    Exact branch and bound over walks on the full map: a partial walk is cut when its cost so far
    plus the cost of finding one new page per remaining step reaches the best found, or when another
    partial walk reached the same page with the same pages visited at no higher cost (the future
    cost depends on nothing else). Every page must be reachable from `start`. `progress(states, best)`
    is called every 100,000 expanded states (the search takes minutes on the built-in site).
    """
    nodes = list(links)
    index = {v: i for i, v in enumerate(nodes)}
    adj = [[index[q] for q in links[v]] for v in nodes]
    n = len(nodes) - 1
    p = _not_all_found(k, n)
    rest = [sum(p[f:n]) for f in range(n + 1)]  # cost if every further step finds a new page
    best_cost = [bound]
    best_walk: list[list[int]] = []
    seen_at: dict[int, float] = {}
    path = [index[start]]
    shift = len(nodes)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(nodes) + 1000))

    def search(v: int, mask: int, found: int, cost: float) -> None:
        if found == n:
            if cost < best_cost[0]:
                best_cost[0] = cost
                best_walk[:] = [list(path)]
            return
        if cost + rest[found] >= best_cost[0] - 1e-12:
            return
        key = mask << shift | v
        if seen_at.get(key, math.inf) <= cost:
            return
        seen_at[key] = cost
        if progress is not None and len(seen_at) % 100_000 == 0:
            progress(len(seen_at), best_cost[0])
        step = cost + p[found]
        for q in adj[v]:
            path.append(q)
            bit = 1 << q
            search(q, mask | bit, found + (not mask & bit), step)
            path.pop()

    search(index[start], 1 << index[start], 0, 0.0)
    if not best_walk:
        return None
    return BlindOptimum(best_cost[0], tuple(nodes[i] for i in best_walk[0]), len(seen_at))


def main(argv: Sequence[str] | None = None) -> int:
    import argparse
    import json
    import statistics

    from rich.console import Console

    from bughunt import site
    from bughunt.sim.engine import RunConfig, run

    from .planning import shortest_tour

    parser = argparse.ArgumentParser(
        prog="python -m bughunt.planning_bounds",
        allow_abbrev=False,  # as every bughunt command line: no option matched by a prefix
        description="Steps to find all bugs: bug-blind optimum over the full map vs planner and frontier.",
    )
    parser.add_argument("--seeds", type=int, default=200, help="seeds from 1000 (default 200)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    console = Console(stderr=True)
    k, n = len(site.BUG_PAGES), site.N_PAGES - 1
    seeds = range(1000, 1000 + args.seeds)
    out: dict[str, object] = {
        "known_map_known_bugs": shortest_tour(site.LINKS, site.START_PAGE, site.BUG_PAGES).steps
    }
    strategies: dict[str, dict[str, float]] = {}
    best_policy_walk = math.inf
    started = time.monotonic()
    last_note = [started]

    def note(states: int, best: float) -> None:
        # a line every 15 s, on a terminal or a pipe alike: the search is silent work for minutes
        now = time.monotonic()
        if now - last_note[0] >= 15:
            last_note[0] = now
            console.print(
                f"{now - started:4.0f} s: {states:,} states searched, best expectation {best:.2f} steps"
            )

    with console.status("running the strategies (2 × 2 × seeds runs)"):
        for name in ("frontier", "planner"):
            console.print(f"{name}: {args.seeds} runs until all bugs, {args.seeds} walks of 200 steps")
            actual = [run(RunConfig(name, until_all_bugs=True), s).steps for s in seeds]
            # long enough to cover every page on every seed, so the expectation is not truncated
            walks = [run(RunConfig(name, budget=200), s).path for s in seeds]
            blind = [expected_steps_to_all(w, k, n) for w in walks]
            best_policy_walk = min(best_policy_walk, *blind)
            strategies[name] = {
                "actual_bugs_mean": statistics.fmean(actual),
                "random_placement_mean": statistics.fmean(blind),
            }
    with console.status("branch and bound over every walk of the full map (a few minutes)"):
        console.print("branch and bound over every walk of the full map: minutes; a line every 15 s")
        opt = best_blind_walk(site.LINKS, site.START_PAGE, k, best_policy_walk + 1e-9, note)
        console.print(f"done in {time.monotonic() - started:.0f} s")
    out["known_map_unknown_bugs"] = {
        "expected_steps": opt.expected_steps if opt else best_policy_walk,
        "walk": list(opt.walk) if opt else None,
        "states": opt.states if opt else None,
    }
    out["strategies"] = strategies
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    blind_opt = out["known_map_unknown_bugs"]["expected_steps"]  # type: ignore[index]
    print(f"known map, known bugs (shortest tour): {out['known_map_known_bugs']} steps")
    print(f"known map, bugs placed at random (best walk's expectation): {blind_opt:.2f} steps")
    for name, s in strategies.items():
        print(
            f"{name}: {s['actual_bugs_mean']:.2f} steps on the site's bugs, "
            f"{s['random_placement_mean']:.2f} expected over random placements"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
