"""What a finished ablation hands back to its caller: the `--json` document, the tables and the plots.

The package computes; the caller (the `bughunt ablate` command) decides where each goes — JSON to a
file or stdout, tables to which console, plots into which folder — and shows progress through the
`on_done` callback it passes down. Nothing here reaches back into the caller.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from rich.console import Console

    from bughunt.sim.summary import AblationSummary


class Outcome(Protocol):
    """A finished ablation, whichever kind (simulator or explorer tasks, or the seed experiment)."""

    @property
    def document(self) -> dict[str, Any]:
        """The `--json` results."""
        ...

    def render(self, console: Console) -> None:
        """Print the tables."""
        ...

    def plot(self, folder: Path) -> list[Path]:
        """Draw the PNG plots into `folder` (which exists); returns the files written."""
        ...


@dataclass(frozen=True, slots=True)
class AblationOutcome:
    """A config's ablation: the summary of its grid of runs, its `--json` document (the summary, the
    config as validated, and whatever else its kind of task adds), and the capacity sweeps to plot
    (by configuration family: capacity → mean coverage)."""

    summary: AblationSummary
    document: dict[str, Any]
    sweeps: dict[str, dict[int, float]] = field(default_factory=dict)

    def render(self, console: Console) -> None:
        from bughunt.sim.report import render_summary

        render_summary(self.summary, console)

    def plot(self, folder: Path) -> list[Path]:
        from bughunt.sim.plots import plot_capacity_sweep, plot_curves, plot_intervals

        s, name = self.summary, self.summary.name
        files = []
        if "coverage" in s.metrics:
            ivs = {c: s.intervals[c]["coverage"] for c in s.configs}
            files.append(plot_intervals(ivs, folder / "coverage_by_config.png", f"{name}: coverage (95% CI)"))
            if self.sweeps:
                files.append(
                    plot_capacity_sweep(self.sweeps, folder / "capacity_sweep.png", f"{name}: capacity sweep")
                )
        if s.curves:
            files.append(
                plot_curves(s.curves, folder / "coverage_vs_step.png", f"{name}: mean coverage by step")
            )
        return files
