"""The seed experiment (`bughunt ablate --reproduce`): its runs and figures come from
`bughunt.sim.reproduce`; here they become an `Outcome` — the JSON document, the tables, the plots."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bughunt.sim.backends import Backend, OnDone
from bughunt.sim.reproduce import CAPACITIES, build_report, coverage_curves, run_reproduction, total_runs
from bughunt.sim.runner import GridResult

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["Reproduction", "reproduce", "total_runs"]


@dataclass(frozen=True, slots=True)
class Reproduction:
    grid: GridResult
    document: dict[str, Any]

    def render(self, console: Console) -> None:
        from bughunt.sim.report import render_reproduction

        render_reproduction(self.document, console)

    def plot(self, folder: Path) -> list[Path]:
        from bughunt.sim.plots import plot_capacity_sweep, plot_curves, plot_intervals
        from bughunt.sim.stats import Interval

        report = self.document
        ivs = {s: Interval(**m["coverage"]) for s, m in report["strategies"].items()}
        cap = report["capacity"]
        series = {p: {c: cap[str(c)][p] for c in CAPACITIES} for p in cap[str(CAPACITIES[0])]}
        return [
            plot_intervals(
                ivs, folder / "coverage_by_strategy.png", "Coverage after 30 steps (95% CI, 200 seeds)"
            ),
            plot_capacity_sweep(series, folder / "capacity_sweep.png", "Frontier strategy, limited memory"),
            plot_curves(
                coverage_curves(self.grid),
                folder / "coverage_vs_step.png",
                "Mean coverage by step (200 seeds)",
            ),
        ]


def reproduce(backend: Backend | None = None, on_done: OnDone | None = None) -> Reproduction:
    """Run the seed experiment (`total_runs()` runs; `on_done(k)` counts finished ones)."""
    grid = run_reproduction(backend, on_done)
    return Reproduction(grid, build_report(grid))
