"""Summaries of a grid of runs: per-configuration intervals and paired comparisons against a baseline.

Generic over task runners: anything `run_grid` produced, simulator or web explorer. Intervals are over
per-task means (several runs of a task are averaged first), never over pooled runs.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memgpt_lite.errors import UsageError

from .runner import GridResult
from .stats import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    PROPORTION_METRICS,
    Z95,
    Interval,
    PairedComparison,
    compare_paired,
    mean_ci,
    proportion_ci,
)


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
            means = [statistics.fmean(v) for v in by_task.values()]
            intervals[c][m] = (
                proportion_ci(means, resamples, bootstrap_seed) if m in PROPORTION_METRICS else mean_ci(means)
            )
        if baseline is not None and c != baseline:
            paired[c] = {
                m: compare_paired(
                    result.values(c, m),
                    result.values(baseline, m),
                    resamples,
                    bootstrap_seed,
                    bounds=(-1.0, 1.0) if m in PROPORTION_METRICS else None,
                )
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


@dataclass(frozen=True, slots=True)
class PilotEstimate:
    """Effect and SDs recovered from a pilot's paired comparison (its interval and task count)."""

    comparison: str
    metric: str
    effect: float
    sd_paired: float
    sd_unpaired: float
    n_tasks: int


def pilot_estimate(
    data: dict[str, Any], comparison: str | None = None, metric: str = "coverage"
) -> PilotEstimate:
    """Read a `--json` file of `bughunt ablate` (a config ablation or `--reproduce`).

    The SD of per-task differences is the paired half-width · √n / 1.96; the per-configuration SD
    (for an unpaired design) comes from the unpaired half-width assuming equal variances:
    half = 1.96 · √(2s²/n), so s = half · √(n/2) / 1.96.
    """
    paired = data.get("paired") if isinstance(data, dict) else None
    if not isinstance(paired, dict) or not paired:
        raise UsageError(
            "pilot: no paired comparisons in this file (run `bughunt ablate ... --json FILE` first)"
        )
    if comparison is None:
        if len(paired) != 1:
            raise UsageError(f"pilot: choose a comparison with --comparison: {', '.join(paired)}")
        comparison = next(iter(paired))
    if comparison not in paired:
        raise UsageError(f"pilot: no comparison {comparison!r}; the file has {', '.join(paired)}")
    entry = paired[comparison]
    if "mean" not in entry:  # a config ablation: one entry per metric
        if metric not in entry:
            raise UsageError(f"pilot: no metric {metric!r} in {comparison}; it has {', '.join(entry)}")
        entry = entry[metric]
    try:
        n = int(entry.get("n_tasks", entry.get("n")))
        half = (float(entry["hi"]) - float(entry["lo"])) / 2
        return PilotEstimate(
            comparison=comparison,
            metric=metric,
            effect=float(entry["mean"]),
            sd_paired=half * math.sqrt(n) / Z95,
            sd_unpaired=float(entry["unpaired_half_width"]) * math.sqrt(n / 2) / Z95,
            n_tasks=n,
        )
    except (KeyError, TypeError, ValueError) as e:
        raise UsageError(
            f"pilot: {comparison} lacks {e} (not a file written by `bughunt ablate --json`)"
        ) from None
