"""Inlined twins of `engine.run` for the built-in strategies.

The seed experiment is a few hundred thousand simulator steps; in pure Python, function calls per
draw and per memory write are most of the cost. These loops make exactly the draws and choices of the
general loop (mulberry32, `pick`, the memory's eviction) with the calls written out. Anything else
(custom strategies, the bug-list-only component) takes the general loop. Tests run both on many seeds
and configurations and require identical results.
"""

from __future__ import annotations

from typing import Any

from .memory import Memory
from .results import RunConfig, RunResult, SimSite
from .strategies import step_toward_nearest_unknown

_MASK = 0xFFFFFFFF


def run_memoryless_random(config: RunConfig, seed: int, site: SimSite) -> RunResult:
    """The random strategy with nothing remembered (the seed's no-memory baseline)."""
    mask = _MASK
    a = seed & mask
    links, bugs, n_bugs = site.links, site.bugs, len(site.bugs)
    cur = site.start
    seen = {cur}
    reported: set[Any] = set()
    path = [cur]
    reports = 0
    until = config.until_all_bugs
    limit = config.max_steps if until else config.budget
    step = 0
    while step < limit:
        a = (a + 0x6D2B79F5) & mask
        t = ((a ^ (a >> 15)) * (a | 1)) & mask
        t = ((t + (((t ^ (t >> 7)) * (t | 61)) & mask)) & mask) ^ t
        ls = links[cur]
        cur = ls[int(((t ^ (t >> 14)) & mask) / 4294967296 * len(ls))]
        step += 1
        path.append(cur)
        seen.add(cur)
        if cur in bugs:
            reports += 1
            if cur not in reported:
                reported.add(cur)
                if until and len(reported) == n_bugs:
                    break
    return RunResult.of_walk(path, len(seen), site.n_nodes, reports, len(reported), config.base_tokens * step, False)


def run_remembering(config: RunConfig, seed: int, site: SimSite, frontier: bool) -> RunResult:
    """The visited (frontier=False) or frontier strategy with a visit record, any capacity and eviction."""
    mask = _MASK
    a = seed & mask
    cap = config.capacity
    lru = config.eviction == "lru"
    random_eviction = config.eviction == "random"
    dedup = config.components == "both"
    links, bugs, n_bugs = site.links, site.bugs, len(site.bugs)
    mem: Memory[Any] = Memory()  # capacity is enforced below; Memory gives the BFS its `links` view
    cur = site.start
    seen = {cur}
    reported: set[Any] = set()
    path = [cur]
    reports = tokens = 0
    mem[cur] = links[cur]
    base, per_entry, per_bug = config.base_tokens, config.entry_tokens, config.bug_entry_tokens
    until = config.until_all_bugs
    limit = config.max_steps if until else config.budget
    step = 0
    stopped = False
    while step < limit:
        tokens += base + per_entry * len(mem) + (per_bug * len(reported) if dedup else 0)
        ls = links[cur]
        fresh = [q for q in ls if q not in mem]
        if fresh or not frontier:
            choices = fresh or ls
            a = (a + 0x6D2B79F5) & mask
            t = ((a ^ (a >> 15)) * (a | 1)) & mask
            t = ((t + (((t ^ (t >> 7)) * (t | 61)) & mask)) & mask) ^ t
            cur = choices[int(((t ^ (t >> 14)) & mask) / 4294967296 * len(choices))]
        else:
            nxt = step_toward_nearest_unknown(cur, ls, mem)
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
        if cur in mem:
            if lru:
                del mem[cur]
                mem[cur] = links[cur]
        else:
            if cap is not None and len(mem) >= cap:
                if random_eviction:
                    a = (a + 0x6D2B79F5) & mask
                    t = ((a ^ (a >> 15)) * (a | 1)) & mask
                    t = ((t + (((t ^ (t >> 7)) * (t | 61)) & mask)) & mask) ^ t
                    keys = list(mem)
                    del mem[keys[int(((t ^ (t >> 14)) & mask) / 4294967296 * len(keys))]]
                else:
                    del mem[next(iter(mem))]
            mem[cur] = links[cur]
        if until and len(reported) == n_bugs:
            break
    return RunResult.of_walk(path, len(seen), site.n_nodes, reports, len(reported), tokens, stopped)
