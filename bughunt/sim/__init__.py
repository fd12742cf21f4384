"""The BugHunt simulator: the seed experiment's engine, statistics and ablation runner.

`engine.run(RunConfig(...), seed)` is one run; `stats` holds the paired statistics; `runner` runs
configurations × tasks on a backend (`backends`: local processes, Dask, Ray) and `summary` summarises
them. Ablation configs and their task runners are `bughunt.ablation`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memgpt_lite.lazy_names import lazy_names

if TYPE_CHECKING:
    from .engine import BUILTIN_SITE, RunConfig, RunResult, SimSite, run
    from .memory import Eviction, Memory, Policy
    from .rng import mulberry32, pick
    from .strategies import STRATEGIES, get_strategy, register_strategy

# Loaded on first use: every `bughunt.sim.X` import runs this file first, and the explorer, which
# needs the planner, memory and strategies, need not import the engine and its results (~5 ms CPU).
_SUBMODULE: dict[str, str] = {
    "BUILTIN_SITE": ".engine",
    "Eviction": ".memory",
    "Memory": ".memory",
    "Policy": ".memory",
    "RunConfig": ".engine",
    "RunResult": ".engine",
    "STRATEGIES": ".strategies",
    "SimSite": ".engine",
    "get_strategy": ".strategies",
    "mulberry32": ".rng",
    "pick": ".rng",
    "register_strategy": ".strategies",
    "run": ".engine",
}

__all__ = [
    "BUILTIN_SITE",
    "STRATEGIES",
    "Memory",
    "Eviction",
    "Policy",
    "RunConfig",
    "RunResult",
    "SimSite",
    "get_strategy",
    "mulberry32",
    "pick",
    "register_strategy",
    "run",
]

__getattr__, __dir__ = lazy_names(__name__, _SUBMODULE)
