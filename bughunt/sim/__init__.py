"""The BugHunt simulator: the seed experiment's engine, statistics and ablation runner.

`engine.run(RunConfig(...), seed)` is one run; `stats` holds the paired statistics; `runner` runs
configurations × tasks on a backend (`backends`: local processes, Dask, Ray) and `summary` summarises
them. Ablation configs and their task runners are `bughunt.ablation`'s.
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
