"""One planner walk over a loopback site, for tests that read where the clicks went."""

from __future__ import annotations

from pathlib import Path

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore


def planner_walk(url: str, store_dir: Path, budget: int, seed: int = 1000) -> list[tuple[str, str | None]]:
    """(route, final route) of every step of a planner session of `budget` clicks from `url`."""
    store = ExplorerStore(store_dir)
    try:
        fetcher = HttpEngine(url, timeout=2.0, respect_robots=False)
        with make_policy("planner", store=store) as policy:
            Explorer(store, fetcher, policy, SessionConfig(budget=budget, seed=seed, retries=0)).run()
        return [(s.route, s.final_route) for s in store.history.steps()]
    finally:
        store.close()
