"""The BugHunt simulator: one seeded walk over a site graph, as the seed script's `run`.

Each step is one model call: it costs `base_tokens` plus `entry_tokens` per remembered page (plus
`bug_entry_tokens` per remembered bug, 0 in the seed). The strategy picks a link; the walk records
revisits, bug reports and duplicate reports.

Memory components (`memory`):

- ``both`` — visit record with link table *and* bug list (the seed's memory for visited/frontier);
- ``visited`` — visit record with link table only: strategies can avoid remembered pages, but a bug
  page passed again is reported again (nobody remembers the report);
- ``bugs`` — bug list only: no visit record (visited/frontier then walk exactly like random, with the
  same draws, and no entry tokens are charged), but a bug already reported is not reported again;
- ``none`` — nothing remembered (the seed's random strategy): every pass over a bug page reports it.

The default is ``none`` for the random strategy and ``both`` for every other one, which reproduces the
seed. Capacity and eviction apply to the visit record only; the bug list is never evicted.
"""

from __future__ import annotations

from typing import Any

from .. import site as _site
from .memory import Memory, NoMemory
from .results import (
    BASE_TOKENS,
    BUDGET,
    ENTRY_TOKENS,
    MAX_STEPS,
    MEMORY_COMPONENTS,
    MemoryComponents,
    RunConfig,
    RunResult,
    SimSite,
)
from .rng import mulberry32
from .strategies import get_strategy

__all__ = [
    "BASE_TOKENS",
    "BUDGET",
    "BUILTIN_SITE",
    "ENTRY_TOKENS",
    "MAX_STEPS",
    "MEMORY_COMPONENTS",
    "MemoryComponents",
    "RunConfig",
    "RunResult",
    "SimSite",
    "run",
]

BUILTIN_SITE = SimSite(
    links=_site.LINKS,
    start=_site.START_PAGE,
    bugs=frozenset(_site.BUG_PAGES),
    names={p.index: p.name for p in _site.PAGES},
    routes={p.index: p.route for p in _site.PAGES},
)


def run(config: RunConfig, seed: int, site: SimSite[Any] = BUILTIN_SITE) -> RunResult:
    """One seeded run; the seed script's `run`, generalised to memory components and token weights."""
    strategy = get_strategy(config.strategy)
    components = config.components
    # One loop for every strategy: inlined twins of the built-in ones saved ~0.1 s of the 3.5 s that
    # `bughunt ablate --reproduce` takes (python -m benchmarks.reproduce), not worth a second walk.
    if site.routes and hasattr(strategy, "with_routes"):
        strategy = strategy.with_routes(site.routes)  # a real explorer's nodes are their routes
    rnd = mulberry32(seed)
    keep_visits = components in ("visited", "both")
    dedup = components in ("bugs", "both")
    links, bugs, n_bugs = site.links, site.bugs, len(site.bugs)
    record: Memory[Any] | None = Memory(config.capacity, config.eviction, rnd) if keep_visits else None
    mem: Memory[Any] | NoMemory[Any] = record if record is not None else NoMemory()
    cur = site.start
    seen = {cur}
    reported: set[Any] = set()
    path = [cur]
    reports = tokens = 0
    if record is not None:
        record.write(cur, links[cur])
    base, per_entry, per_bug = config.base_tokens, config.entry_tokens, config.bug_entry_tokens
    limit = config.max_steps if config.until_all_bugs else config.budget
    step = 0
    stopped = False
    while step < limit:
        tokens += base + per_entry * len(mem) + (per_bug * len(reported) if dedup else 0)
        nxt = strategy(cur, links[cur], mem, rnd)
        if nxt is None:
            stopped = True
            break
        cur = nxt
        step += 1
        path.append(cur)
        seen.add(cur)
        if cur in bugs and not (dedup and cur in reported):
            reports += 1
            reported.add(cur)
        if record is not None:
            record.write(cur, links[cur])
        if config.until_all_bugs and len(reported) == n_bugs:
            break
    return RunResult.of_walk(path, len(seen), site.n_nodes, reports, len(reported), tokens, stopped)
