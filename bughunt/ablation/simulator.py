"""Simulator tasks: each run is one seeded walk of the simulated 24-page site (`bughunt.sim.runner.sim_task`)."""

from __future__ import annotations

from bughunt.sim.backends import Backend, OnDone
from bughunt.sim.runner import run_grid, sim_task
from bughunt.sim.summary import AblationSummary, summarize

from .config import SimulatorAblation
from .outcome import AblationOutcome


def run_simulator_ablation(
    cfg: SimulatorAblation, backend: Backend | None = None, on_done: OnDone | None = None
) -> AblationOutcome:
    """Every configuration on every seed; `on_done(k)` counts finished runs."""
    grid = run_grid(sim_task, cfg.run_configs(), cfg.task_keys(), cfg.runs_per_task, backend, on_done)
    summary = summarize(
        grid,
        cfg.metrics,
        cfg.baseline_name(),
        cfg.name,
        cfg.bootstrap.resamples,
        cfg.bootstrap.seed,
        # a budget run has budget + 1 points of coverage; until-all-bugs runs differ in length
        curve_length=None if cfg.until_all_bugs else cfg.budget + 1,
    )
    document = {**summary.to_json(), "config": cfg.model_dump(mode="json")}
    return AblationOutcome(summary, document, capacity_sweeps(cfg, summary))


def capacity_sweeps(cfg: SimulatorAblation, summary: AblationSummary) -> dict[str, dict[int, float]]:
    """Mean coverage by capacity wherever one strategy/memory/eviction was run at two or more capacities."""
    if "coverage" not in summary.metrics:
        return {}
    series: dict[str, dict[int, float]] = {}
    for spec in cfg.specs():
        if spec.capacity is not None:
            key = "/".join(x for x in (spec.strategy, spec.memory, spec.eviction) if x)
            series.setdefault(key, {})[spec.capacity] = summary.intervals[spec.label()]["coverage"].mean
    return {k: v for k, v in series.items() if len(v) > 1}
