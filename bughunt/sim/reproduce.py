"""The seed experiment, recomputed: three strategies, paired differences, cost to find every bug and
the capacity sweep — every figure from the engine, none typed in.

Seeds 1000–1199, one run each, budget 30 steps, unlimited memory unless stated; "until all bugs" runs
stop at the sixth bug or 5,000 steps; the capacity sweep uses the frontier strategy.
"""

from __future__ import annotations

import statistics
from typing import Any

from .backends import Backend, OnDone
from .engine import BUDGET, BUILTIN_SITE, RunConfig
from .memory import EVICTIONS
from .runner import GridResult, run_grid, sim_task, sim_task_metrics
from .stats import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, compare_paired

STRATEGIES = ("random", "visited", "frontier")
# How the intervals in the report were computed (also in docs/simulator.md).
INTERVALS = {
    "proportions": "95% bootstrap percentile over seeds (10,000 seeded resamples); Wilson score for 0/1 values",
    "paired_differences": "95% normal approximation, mean ± 1.96·s/√n of per-seed differences (the seed's method)",
}
CAPACITIES = (4, 8, 12, 16, 20)
SEED0 = 1000
RUNS = 200


def reproduce_configs() -> dict[str, RunConfig]:
    configs: dict[str, RunConfig] = {}
    for s in STRATEGIES:
        configs[s] = RunConfig(s)
    for s in STRATEGIES:
        configs[f"{s}/all_bugs"] = RunConfig(s, until_all_bugs=True)
    for c in CAPACITIES:
        for p in EVICTIONS:
            configs[f"frontier/cap{c}/{p}"] = RunConfig("frontier", capacity=c, eviction=p)
    return configs


def total_runs(seeds: int = RUNS) -> int:
    return len(reproduce_configs()) * seeds


def run_reproduction(
    backend: Backend | None = None, on_done: OnDone | None = None, seeds: int = RUNS
) -> GridResult:
    tasks = list(range(SEED0, SEED0 + seeds))
    # units of 50 runs: the long random until-all-bugs runs spread over every worker, few round trips
    configs = reproduce_configs()
    # only the three budget runs are plotted by step; the others skip the coverage curve
    plain = {name: sim_task_metrics for name in configs if name not in STRATEGIES}
    return run_grid(sim_task, configs, tasks, 1, backend, on_done, unit_size=50, runners=plain)


def _mean(grid: GridResult, config: str, metric: str) -> float:
    return statistics.fmean(r[metric] for r in grid.all_records(config))


def build_report(
    grid: GridResult, resamples: int = BOOTSTRAP_RESAMPLES, bootstrap_seed: int = BOOTSTRAP_SEED
) -> dict[str, Any]:
    """The `--json` document of `bughunt ablate --reproduce` (proportions in [0, 1], tokens as counts)."""
    from .stats import proportion_ci

    strategies: dict[str, Any] = {}
    for s in STRATEGIES:
        cov = proportion_ci([r["coverage"] for r in grid.all_records(s)], resamples, bootstrap_seed)
        bugs = _mean(grid, s, "bugs_found")
        tokens = _mean(grid, s, "tokens")
        strategies[s] = {
            "coverage": cov.to_json(),
            "repeat_rate": _mean(grid, s, "repeat_rate"),
            "bugs_found": bugs,
            "duplicate_reports": _mean(grid, s, "duplicate_reports"),
            "tokens": tokens,
            "tokens_per_bug": tokens / bugs if bugs else None,
        }
    paired: dict[str, Any] = {}
    for s in ("visited", "frontier"):
        c = compare_paired(
            grid.values(s, "coverage"), grid.values("random", "coverage"), resamples, bootstrap_seed
        )
        d = c.to_json()
        paired[f"{s}_vs_random"] = {
            "mean": d["mean"],
            "lo": d["lo"],
            "hi": d["hi"],
            "wins": d["wins"],
            "n": d["n_tasks"],
            "bootstrap": d["bootstrap"],
            "unpaired_half_width": d["unpaired_half_width"],
            "method": d["method"],
        }
    n_bugs = len(BUILTIN_SITE.bugs)
    random_tokens = _mean(grid, "random/all_bugs", "tokens")
    until: dict[str, Any] = {}
    for s in STRATEGIES:
        tokens = _mean(grid, f"{s}/all_bugs", "tokens")
        until[s] = {
            "steps_mean": _mean(grid, f"{s}/all_bugs", "steps"),
            "tokens_mean": tokens,
            "tokens_per_bug": tokens / n_bugs,
            "tokens_vs_random": tokens / random_tokens,
            "all_found": sum(r["bugs_found"] == n_bugs for r in grid.all_records(f"{s}/all_bugs")),
        }
    capacity = {
        str(cap): {p: _mean(grid, f"frontier/cap{cap}/{p}", "coverage") for p in EVICTIONS}
        for cap in CAPACITIES
    }
    c12 = compare_paired(
        grid.values("frontier/cap12/random", "coverage"),
        grid.values("frontier/cap12/fifo", "coverage"),
        resamples,
        bootstrap_seed,
    )
    return {
        "runs": len(grid.tasks),
        "seeds": [grid.tasks[0], grid.tasks[-1]],
        "budget": BUDGET,
        "strategies": strategies,
        "paired": paired,
        "until_all_bugs": until,
        "capacity": capacity,
        "capacity_12_random_vs_fifo": {"mean": c12.mean, "lo": c12.lo, "hi": c12.hi, "wins": c12.wins.wins},
        "intervals": INTERVALS,
    }


def coverage_curves(grid: GridResult) -> dict[str, list[float]]:
    from .summary import mean_curve

    return {s: mean_curve([r["curve"] for r in grid.all_records(s)], BUDGET + 1) for s in STRATEGIES}
