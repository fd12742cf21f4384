"""The generic ablation runner: configurations × tasks × runs → records, on any backend.

A *task runner* is a picklable module-level function `fn(config, task, run) -> dict` returning one
run's record: numeric metrics by name, optionally a `"curve"` (coverage after each step). The
simulator's is `sim_task`; the web explorer plugs in its own with the same tables, JSON and plots.
Work is cut into units of a few tasks so a slow configuration spreads over all workers.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from memgpt_lite.errors import UsageError

from .backends import Backend, OnDone, SerialBackend
from .engine import BUILTIN_SITE, RunConfig, RunResult, run
from .results import coverage_curve
from .rng import derive_seed

__all__ = ["GridResult", "coverage_curve", "run_grid", "sim_task", "sim_task_metrics"]

Record = dict[str, Any]
TaskRunner = Callable[[Any, Any, int], Record]


@dataclass(frozen=True, slots=True)
class GridResult:
    """records[config][i][r] is run r of task i (tasks in `tasks` order)."""

    configs: tuple[str, ...]
    tasks: tuple[Hashable, ...]
    runs_per_task: int
    records: Mapping[str, list[list[Record]]]

    def values(self, config: str, metric: str) -> dict[Hashable, list[float]]:
        """task → that task's run values of `metric` for one configuration."""
        if config not in self.records:
            raise UsageError(f"unknown configuration {config!r}")
        return {
            t: [float(r[metric]) for r in runs]
            for t, runs in zip(self.tasks, self.records[config], strict=True)
        }

    def all_records(self, config: str) -> list[Record]:
        return [r for runs in self.records[config] for r in runs]


def _run_unit(fn: TaskRunner, config: Any, items: Sequence[tuple[Any, int]]) -> list[Record]:
    return [fn(config, task, r) for task, r in items]


def run_grid(
    fn: TaskRunner,
    configs: Mapping[str, Any],
    tasks: Sequence[Hashable],
    runs_per_task: int = 1,
    backend: Backend | None = None,
    on_done: OnDone | None = None,
    unit_size: int = 25,
    runners: Mapping[str, TaskRunner] | None = None,
) -> GridResult:
    """Run every configuration on every task `runs_per_task` times; `on_done(k)` counts finished runs.

    `runners` may give some configurations their own task runner instead of `fn`.
    """
    if not configs:
        raise UsageError("no configurations to run")
    if not tasks:
        raise UsageError("no tasks to run")
    if runs_per_task < 1:
        raise UsageError("runs_per_task: must be at least 1")
    backend = backend or SerialBackend()
    items = [(t, r) for t in tasks for r in range(runs_per_task)]
    size = max(1, unit_size)
    units: list[tuple[Any, ...]] = []
    owners: list[str] = []
    for name, cfg in configs.items():
        for start in range(0, len(items), size):
            units.append(((runners or {}).get(name, fn), cfg, items[start : start + size]))
            owners.append(name)
    sizes = [len(u[2]) for u in units]
    done_cb = None
    if on_done is not None:
        # backends report finished units; callers want finished runs
        it = iter(sizes)
        done_cb = lambda k: on_done(sum(next(it) for _ in range(k)))  # noqa: E731
    results = backend.map(_run_unit, units, done_cb)
    flat: dict[str, list[Record]] = {name: [] for name in configs}
    for name, recs in zip(owners, results, strict=True):
        flat[name].extend(recs)
    records = {
        name: [flat[name][i * runs_per_task : (i + 1) * runs_per_task] for i in range(len(tasks))]
        for name in configs
    }
    return GridResult(tuple(configs), tuple(tasks), runs_per_task, records)


SimMetric = Literal[
    "coverage", "repeat_rate", "bugs_found", "duplicate_reports", "tokens", "steps", "complete"
]
"""Every metric `sim_task` records."""
SIM_METRICS: tuple[SimMetric, ...] = (
    "coverage",
    "repeat_rate",
    "bugs_found",
    "duplicate_reports",
    "tokens",
    "steps",
)
"""The metrics an ablation reports unless its config names others."""


def sim_task(config: RunConfig, task: int, run_index: int = 0) -> Record:
    """Task runner of the simulator on the built-in site: a task is a seed; run r uses a derived seed.

    Budget runs also carry their coverage curve (for the coverage-vs-step plot); until-all-bugs runs,
    hundreds of steps long, do not.
    """
    res = run(config, derive_seed(task, run_index), BUILTIN_SITE)
    rec = _metrics(res)
    if not config.until_all_bugs:
        rec["curve"] = coverage_curve(res.path, BUILTIN_SITE.n_nodes)
    return rec


def sim_task_metrics(config: RunConfig, task: int, run_index: int = 0) -> Record:
    """`sim_task` without the coverage curve, for runs nobody will plot by step."""
    return _metrics(run(config, derive_seed(task, run_index), BUILTIN_SITE))


def _metrics(res: RunResult) -> Record:
    rec: Record = {m: getattr(res, m) for m in SIM_METRICS}
    rec["complete"] = float(res.coverage == 1.0)
    return rec
