"""The BugHunt simulator: the seed experiment's engine, statistics and ablation runner.

`engine.run(RunConfig(...), seed)` is one run; `stats` holds the paired statistics; `ablation`
runs configurations × tasks on a backend (local processes, Dask, Ray) and summarises them.
"""

from .engine import BUILTIN_SITE, RunConfig, RunResult, SimSite, run
from .memory import Eviction, Memory, Policy
from .rng import mulberry32, pick
from .strategies import STRATEGIES, get_strategy, register_strategy

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
