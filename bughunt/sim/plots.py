"""PNG plots of ablation results (matplotlib, headless Agg backend).

Readable at a glance whatever the number of configurations: interval bars are horizontal, so every
configuration name is written out in full on its own line; legends sit outside the data; many curves
are drawn as small multiples (one panel per family of configurations, the same colour for the same
variant in every panel) instead of one tangle of repeating colours.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .stats import Interval, pct

# one panel holds at most this many curves before the plot switches to small multiples
MAX_CURVES_PER_PANEL = 8


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _colours(n: int) -> list[Any]:
    """n distinct colours: tab10 up to 10, tab20 up to 20, then evenly spaced hues."""
    from matplotlib import colormaps

    if n <= 10:
        return [colormaps["tab10"](i) for i in range(n)]
    if n <= 20:
        # tab20 pairs a dark and a light shade of each hue; take the dark shades first
        order = [*range(0, 20, 2), *range(1, 20, 2)]
        return [colormaps["tab20"](i) for i in order[:n]]
    return [colormaps["hsv"](i / n) for i in range(n)]


_DASHES = ("-", "--", "-.", ":")


def _line_style(i: int, n: int) -> dict[str, Any]:
    """Earlier lines wider and each with its own dash pattern, so curves that coincide stay visible."""
    return {"ls": _DASHES[i % len(_DASHES)], "lw": 1.2 + 1.8 * (n - 1 - i) / max(n - 1, 1)}


def _save(fig: Any, path: Path) -> Path:
    fig.savefig(path, dpi=110, bbox_inches="tight")
    _pyplot().close(fig)
    return path


def plot_intervals(
    intervals: Mapping[str, Interval], path: Path, title: str, ylabel: str = "coverage (%)"
) -> Path:
    """One horizontal bar per configuration with its 95% interval; names in full on the y axis."""
    plt = _pyplot()
    names = list(intervals)
    means = [intervals[n].mean * 100 for n in names]
    errs = [
        [(intervals[n].mean - intervals[n].lo) * 100 for n in names],
        [(intervals[n].hi - intervals[n].mean) * 100 for n in names],
    ]
    longest = max((len(n) for n in names), default=10)
    fig, ax = plt.subplots(figsize=(5.5 + 0.07 * longest, 1.2 + 0.32 * len(names)))
    ys = range(len(names))
    ax.barh(ys, means, xerr=errs, capsize=3, color="#4c78a8", height=0.6)
    ax.set_yticks(ys, names)
    ax.invert_yaxis()  # first configuration on top, as in the tables
    ax.set_xlabel(ylabel)
    ax.set_xlim(0, 112)  # room for the value labels right of a full bar
    ax.set_xticks(range(0, 101, 20))
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title)
    for i, n in enumerate(names):
        ax.text(intervals[n].hi * 100 + 1.5, i, pct(intervals[n].mean), va="center", fontsize=8)
    fig.tight_layout()
    return _save(fig, path)


def plot_capacity_sweep(series: Mapping[str, Mapping[int, float]], path: Path, title: str) -> Path:
    """Mean coverage against memory capacity, one line per series (e.g. eviction policy)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    caps: set[int] = set()
    for (label, points), colour in zip(series.items(), _colours(len(series)), strict=True):
        xs = sorted(points)
        caps.update(xs)
        ax.plot(xs, [points[c] * 100 for c in xs], marker="o", label=label, color=colour)
    ax.set_xlabel("memory capacity (entries)")
    ax.set_ylabel("mean coverage (%)")
    ax.set_xticks(sorted(caps))
    ax.set_title(title)
    ax.legend(title="eviction", loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return _save(fig, path)


def _families(names: Sequence[str]) -> dict[str, list[str]]:
    """Group configuration names by everything before their last '/' ("frontier/cap12/lru" → "frontier/cap12")."""
    groups: dict[str, list[str]] = {}
    for n in names:
        groups.setdefault(n.rsplit("/", 1)[0] if "/" in n else n, []).append(n)
    return groups


def plot_curves(curves: Mapping[str, Sequence[float]], path: Path, title: str) -> Path:
    """Mean coverage after each step, one line per configuration; small multiples for many."""
    names = list(curves)
    families = _families(names)
    multi = len(names) > MAX_CURVES_PER_PANEL and 1 < len(families) < len(names)
    if not multi:
        return _single_panel(curves, path, title)
    return _small_multiples(curves, families, path, title)


def _single_panel(curves: Mapping[str, Sequence[float]], path: Path, title: str) -> Path:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    n = len(curves)
    for i, ((name, curve), colour) in enumerate(zip(curves.items(), _colours(n), strict=True)):
        ax.plot(range(len(curve)), [c * 100 for c in curve], label=name, color=colour, **_line_style(i, n))
    ax.set_xlabel("step")
    ax.set_ylabel("mean coverage (%)")
    ax.set_ylim(0, 100)
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0, fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return _save(fig, path)


def _small_multiples(
    curves: Mapping[str, Sequence[float]], families: Mapping[str, list[str]], path: Path, title: str
) -> Path:
    """One panel per family; the variant (last name part) keeps its colour in every panel, and the
    configurations that form no family of their own are drawn in grey in every panel for reference."""
    plt = _pyplot()
    singles = [f[0] for f in families.values() if len(f) == 1]
    panels = [(k, v) for k, v in families.items() if len(v) > 1]
    variants = list(dict.fromkeys(n.rsplit("/", 1)[-1] for _, members in panels for n in members))
    colour = dict(zip(variants, _colours(len(variants)), strict=True))
    style = {v: _line_style(i, len(variants)) for i, v in enumerate(variants)}
    cols = min(3, len(panels))
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(
        rows, cols, figsize=(3.6 * cols + 1.6, 2.7 * rows + 0.6), sharex=True, sharey=True
    )
    flat = list(axes.flat) if hasattr(axes, "flat") else [axes]
    greys = ("#777777", "#aaaaaa", "#444444", "#bbbbbb")
    for ax, (family, members) in zip(flat, panels, strict=False):
        for i, ref in enumerate(singles):
            ax.plot(
                range(len(curves[ref])),
                [c * 100 for c in curves[ref]],
                color=greys[i % 4],
                lw=1.0,
                ls=(0, (1, 1)),
            )
        for n in members:
            v = n.rsplit("/", 1)[-1]
            ax.plot(range(len(curves[n])), [c * 100 for c in curves[n]], color=colour[v], **style[v])
        ax.set_title(family, fontsize=9)
        ax.set_ylim(0, 100)
        ax.grid(alpha=0.3)
    for ax in flat[len(panels) :]:
        ax.set_visible(False)
    for ax in flat[(rows - 1) * cols :]:
        ax.set_xlabel("step")
    for r in range(rows):
        flat[r * cols].set_ylabel("mean coverage (%)")
    handles = [plt.Line2D([], [], color=colour[v], label=v, **style[v]) for v in variants]
    handles += [
        plt.Line2D([], [], color=greys[i % 4], lw=1.0, ls=(0, (1, 1)), label=ref)
        for i, ref in enumerate(singles)
    ]
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 0.95), fontsize=8, frameon=False)
    fig.suptitle(title)
    fig.tight_layout()
    return _save(fig, path)
