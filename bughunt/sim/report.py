"""Readable tables for the reproduction and for ablation summaries (rich), rounded as the seed rounds.

The tables fit an 80-column terminal (and a pipe, which rich treats as 80 columns unless $COLUMNS says
otherwise): light borders, titles printed above the table instead of squeezed into its width, numbers
never broken across lines, and long configuration names folded onto a second line instead of cut off
with an ellipsis. `bughunt ablate --wide` prints them unfolded for wide terminals.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from memgpt_lite.text_tables import print_table

from .stats import PROPORTION_METRICS, pct, round_half_up
from .summary import AblationSummary

PROPORTIONS = PROPORTION_METRICS


def _int(x: float) -> str:
    return f"{int(round_half_up(x, 0)):,}"


def _pp2(x: float) -> str:
    """A proportion's half-width in percentage points with two decimals, half up."""
    return f"{round_half_up(x * 100, 2):.2f}"


def _table(console: Console, title: str) -> Table:
    """A compact table; its title goes above it as a line of its own (never wrapped to the table's width)."""
    console.print(f"[bold]{title}[/]", highlight=False)
    return Table(
        box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, collapse_padding=True, header_style="bold"
    )


def _name_column(t: Table, header: str) -> None:
    t.add_column(header, overflow="fold")


def _number_column(t: Table, header: str) -> None:
    t.add_column(header, justify="right", overflow="fold")


def _print(console: Console, t: Table) -> None:
    """Numbers keep their full width (headers may wrap at spaces); the name column takes what is left."""
    for col in t.columns:
        if col.justify == "right":  # fixed: wide enough for every number and the header's longest word
            lines = str(col.header).splitlines()
            col.width = max([len(str(c)) for c in col._cells] + [len(w) for w in lines])
    print_table(console, t)


def render_reproduction(report: dict[str, Any], console: Console) -> None:
    n = report["runs"]
    first, last = report["seeds"]
    console.print(
        f"[bold]Seed experiment[/]: {n} runs per configuration (seeds {first}–{last}), "
        f"budget {report['budget']} steps, unlimited memory unless stated"
    )
    t = _table(console, f"Strategies over the {report['budget']}-step budget")
    _name_column(t, "strategy")
    for col in ("coverage %\n[95% CI]", "repeat\nvisits %", "bugs\nfound", "duplicate\nreports", "tokens"):
        _number_column(t, col)
    for s, m in report["strategies"].items():
        c = m["coverage"]
        t.add_row(
            s,
            f"{pct(c['mean'])} [{pct(c['lo'])}, {pct(c['hi'])}]",
            pct(m["repeat_rate"]),
            f"{m['bugs_found']:.2f}",
            f"{m['duplicate_reports']:.2f}",
            _int(m["tokens"]),
        )
    _print(console, t)

    t = _table(console, "Coverage difference vs random, paired by seed (percentage points)")
    _name_column(t, "comparison")
    for col in ("mean [95% CI]", "higher", "bootstrap 95%", "half-width\npaired /\nunpaired"):
        _number_column(t, col)
    for key, p in report["paired"].items():
        t.add_row(
            key.replace("_vs_", " − "),
            f"{pct(p['mean'], True)} [{pct(p['lo'], True)}, {pct(p['hi'], True)}]",
            f"{p['wins']}/{p['n']}",
            f"[{pct(p['bootstrap']['lo'], True)}, {pct(p['bootstrap']['hi'], True)}]",
            f"{_pp2((p['hi'] - p['lo']) / 2)} / {_pp2(p['unpaired_half_width'])}",
        )
    _print(console, t)

    s = report["strategies"]
    extra = s["frontier"]["tokens"] / s["random"]["tokens"] - 1
    console.print(
        f"Tokens over {report['budget']} steps: frontier {_int(s['frontier']['tokens'])} vs random "
        f"{_int(s['random']['tokens'])} ({pct(extra, True)}% per run); per bug found: frontier "
        f"{_int(s['frontier']['tokens_per_bug'])} vs random {_int(s['random']['tokens_per_bug'])}"
    )

    t = _table(console, "Until all bugs are found (cap 5,000 steps)")
    _name_column(t, "strategy")
    for col in ("steps\n(mean)", "tokens\n(mean)", "tokens\nper bug", "tokens vs\nrandom %", "all\nfound"):
        _number_column(t, col)
    for name, u in report["until_all_bugs"].items():
        t.add_row(
            name,
            f"{u['steps_mean']:.1f}",
            _int(u["tokens_mean"]),
            _int(u["tokens_per_bug"]),
            pct(u["tokens_vs_random"]),
            f"{u['all_found']}/{n}",
        )
    _print(console, t)

    t = _table(console, "Limited capacity (frontier strategy): mean coverage %")
    _number_column(t, "capacity")
    policies = list(next(iter(report["capacity"].values())))
    for p in policies:
        _number_column(t, p)
    for cap, row in report["capacity"].items():
        t.add_row(cap, *(pct(row[p]) for p in policies))
    _print(console, t)
    c = report["capacity_12_random_vs_fifo"]
    console.print(
        f"Capacity 12: random eviction − FIFO {pct(c['mean'], True)} pp "
        f"[{pct(c['lo'], True)}, {pct(c['hi'], True)}] (paired), higher in {c['wins']}/{n}"
    )


def _fmt(metric: str, x: float, sign: bool = False) -> str:
    if metric in PROPORTIONS:
        return pct(x, sign)
    if metric == "tokens":
        v = int(round_half_up(x, 0))
        return f"{v:+,}" if sign else f"{v:,}"
    return f"{x:+.2f}" if sign else f"{x:.2f}"


def _metric_groups(
    console: Console, summary: AblationSummary, cells: dict[str, dict[str, str]]
) -> list[list[str]]:
    """Split the metric columns over as many tables as it takes for each to fit the console, keeping
    room for configuration names (folded past 24 characters)."""
    name_width = min(24, max(len(c) for c in summary.configs))
    room = console.width - name_width
    groups: list[list[str]] = [[]]
    used = 0
    for m in summary.metrics:
        width = max([len(m)] + [len(cells[c][m]) for c in summary.configs]) + 2
        if groups[-1] and used + width > room:
            groups.append([])
            used = 0
        groups[-1].append(m)
        used += width
    return groups


def render_summary(summary: AblationSummary, console: Console) -> None:
    console.print(
        f"[bold]{summary.name}[/]: {len(summary.configs)} configurations × {summary.n_tasks} tasks"
        f" × {summary.runs_per_task} run(s) per task. Proportions in %, 95% intervals over tasks: bootstrap "
        "percentile (Wilson for 0/1 values) for proportions, mean ± 1.96·s/√n otherwise"
    )
    cells = {
        c: {m: f"{_fmt(m, iv.mean)} [{_fmt(m, iv.lo)}, {_fmt(m, iv.hi)}]" for m, iv in ms.items()}
        for c, ms in summary.intervals.items()
    }
    groups = _metric_groups(console, summary, cells)
    for i, group in enumerate(groups):
        part = f" ({i + 1}/{len(groups)})" if len(groups) > 1 else ""
        t = _table(console, f"Per configuration: mean [95% CI]{part}")
        _name_column(t, "configuration")
        for m in group:
            _number_column(t, m)
        for c in summary.configs:
            t.add_row(c, *(cells[c][m] for m in group))
        _print(console, t)
    if not summary.paired:
        return
    # one table per metric: the metric column would otherwise push the table past 80 columns
    for m in summary.metrics:
        unit = "pp" if m in PROPORTIONS else "difference"
        t = _table(console, f"{m}: paired by task vs {summary.baseline} ({unit})")
        _name_column(t, "configuration")
        for col in (
            "mean [95% CI]",
            "bootstrap 95%",
            "higher /\nequal /\nlower",
            "half-width\npaired /\nunpaired",
        ):
            _number_column(t, col)
        for c, ms in summary.paired.items():
            p = ms[m]
            hw = (p.hi - p.lo) / 2
            mark = "" if p.method == "normal" else " ᵇ"
            t.add_row(
                c,
                f"{_fmt(m, p.mean, True)} [{_fmt(m, p.lo, True)}, {_fmt(m, p.hi, True)}]{mark}",
                f"[{_fmt(m, p.bootstrap_lo, True)}, {_fmt(m, p.bootstrap_hi, True)}]",
                f"{p.wins.wins}/{p.wins.ties}/{p.wins.losses}",
                f"{_fmt(m, hw)} / {_fmt(m, p.unpaired_half_width)}",
            )
        _print(console, t)
    if any(p.method != "normal" for ms in summary.paired.values() for p in ms.values()):
        console.print(
            "ᵇ the normal interval would leave [−100, +100] pp: bootstrap percentile interval shown"
        )
