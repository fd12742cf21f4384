"""Summaries of a grid of runs: per-configuration intervals and paired comparisons against a baseline.

Generic over task runners: anything `run_grid` produced, simulator or web explorer. Intervals are over
per-task means (several runs of a task are averaged first), never over pooled runs.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memgpt_lite.errors import UsageError

from .runner import GridResult
from .stats import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, Interval, PairedComparison, compare_paired, mean_ci


@dataclass(slots=True)
class AblationSummary:
    name: str
    configs: tuple[str, ...]
    metrics: tuple[str, ...]
    baseline: str | None
    n_tasks: int
    runs_per_task: int
    intervals: dict[str, dict[str, Interval]]
    paired: dict[str, dict[str, PairedComparison]]
    curves: dict[str, list[float]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "tasks": self.n_tasks,
            "runs_per_task": self.runs_per_task,
            "baseline": self.baseline,
            "configs": {c: {m: iv.to_json() for m, iv in ms.items()} for c, ms in self.intervals.items()},
            "paired": {
                f"{c}_vs_{self.baseline}": {m: p.to_json() for m, p in ms.items()}
                for c, ms in self.paired.items()
            },
            "curves": self.curves,
        }


def mean_curve(curves: Sequence[Sequence[float]], length: int | None = None) -> list[float]:
    """Point-wise mean of per-run curves; a run that stopped early keeps its last value."""
    if not curves:
        return []
    n = length if length is not None else max(len(c) for c in curves)
    out = []
    for k in range(n):
        out.append(statistics.fmean(c[k] if k < len(c) else c[-1] for c in curves))
    return out


def summarize(
    result: GridResult,
    metrics: Sequence[str],
    baseline: str | None = None,
    name: str = "ablation",
    resamples: int = BOOTSTRAP_RESAMPLES,
    bootstrap_seed: int = BOOTSTRAP_SEED,
    curve_length: int | None = None,
) -> AblationSummary:
    """Intervals for every configuration and metric; paired comparisons of each configuration vs `baseline`."""
    if baseline is not None and baseline not in result.configs:
        raise UsageError(f"baseline: {baseline!r} is not one of the configurations {list(result.configs)}")
    intervals: dict[str, dict[str, Interval]] = {}
    paired: dict[str, dict[str, PairedComparison]] = {}
    curves: dict[str, list[float]] = {}
    for c in result.configs:
        intervals[c] = {}
        for m in metrics:
            by_task = result.values(c, m)
            intervals[c][m] = mean_ci([statistics.fmean(v) for v in by_task.values()])
        if baseline is not None and c != baseline:
            paired[c] = {
                m: compare_paired(result.values(c, m), result.values(baseline, m), resamples, bootstrap_seed)
                for m in metrics
            }
        recs = result.all_records(c)
        if recs and "curve" in recs[0]:
            curves[c] = mean_curve([r["curve"] for r in recs], curve_length)
    return AblationSummary(
        name=name,
        configs=result.configs,
        metrics=tuple(metrics),
        baseline=baseline,
        n_tasks=len(result.tasks),
        runs_per_task=result.runs_per_task,
        intervals=intervals,
        paired=paired,
        curves=curves,
    )
