"""PNG plots of ablation results (matplotlib, headless Agg backend)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .stats import Interval, pct


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_intervals(
    intervals: Mapping[str, Interval], path: Path, title: str, ylabel: str = "coverage (%)"
) -> Path:
    """Bar per configuration with its 95% interval."""
    plt = _pyplot()
    names = list(intervals)
    means = [intervals[n].mean * 100 for n in names]
    errs = [
        [(intervals[n].mean - intervals[n].lo) * 100 for n in names],
        [(intervals[n].hi - intervals[n].mean) * 100 for n in names],
    ]
    fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(names)), 4))
    ax.bar(range(len(names)), means, yerr=errs, capsize=5, color="#4c78a8")
    ax.set_xticks(
        range(len(names)),
        names,
        rotation=20 if len(names) > 4 else 0,
        ha="right" if len(names) > 4 else "center",
    )
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 100)
    ax.set_title(title)
    for i, m in enumerate(means):
        ax.text(i, m + 2, pct(m / 100), ha="center", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_capacity_sweep(series: Mapping[str, Mapping[int, float]], path: Path, title: str) -> Path:
    """Mean coverage against memory capacity, one line per series (e.g. eviction policy)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    caps: set[int] = set()
    for label, points in series.items():
        xs = sorted(points)
        caps.update(xs)
        ax.plot(xs, [points[c] * 100 for c in xs], marker="o", label=label)
    ax.set_xlabel("memory capacity (entries)")
    ax.set_ylabel("mean coverage (%)")
    ax.set_xticks(sorted(caps))
    ax.set_title(title)
    ax.legend(title="eviction")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_curves(curves: Mapping[str, Sequence[float]], path: Path, title: str) -> Path:
    """Mean coverage after each step, one line per configuration."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, curve in curves.items():
        ax.plot(range(len(curve)), [c * 100 for c in curve], label=name)
    ax.set_xlabel("step")
    ax.set_ylabel("mean coverage (%)")
    ax.set_ylim(0, 100)
    ax.set_title(title)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
