"""Readable tables for the reproduction and for ablation summaries (rich), rounded as the seed rounds."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from .stats import PROPORTION_METRICS, pct, round_half_up
from .summary import AblationSummary

PROPORTIONS = PROPORTION_METRICS


def _int(x: float) -> str:
    return f"{int(round_half_up(x, 0)):,}"


def _pp2(x: float) -> str:
    """A proportion's half-width in percentage points with two decimals, half up."""
    return f"{round_half_up(x * 100, 2):.2f}"


def render_reproduction(report: dict[str, Any], console: Console) -> None:
    n = report["runs"]
    first, last = report["seeds"]
    console.print(
        f"[bold]Seed experiment[/]: {n} runs per configuration (seeds {first}–{last}), "
        f"budget {report['budget']} steps, unlimited memory unless stated"
    )
    t = Table(title="Strategies over the 30-step budget", title_justify="left")
    for col in (
        "strategy",
        "coverage % [95% CI]",
        "repeat visits %",
        "bugs found",
        "duplicate reports",
        "tokens",
    ):
        t.add_column(col, justify="left" if col == "strategy" else "right")
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
    console.print(t)

    t = Table(title="Coverage difference vs random, paired by seed (percentage points)", title_justify="left")
    for col in ("comparison", "mean [95% CI]", "higher", "bootstrap 95%", "half-width paired / unpaired"):
        t.add_column(col, justify="left" if col == "comparison" else "right")
    for key, p in report["paired"].items():
        t.add_row(
            key.replace("_vs_", " − "),
            f"{pct(p['mean'], True)} [{pct(p['lo'], True)}, {pct(p['hi'], True)}]",
            f"{p['wins']}/{p['n']}",
            f"[{pct(p['bootstrap']['lo'], True)}, {pct(p['bootstrap']['hi'], True)}]",
            f"{_pp2((p['hi'] - p['lo']) / 2)} / {_pp2(p['unpaired_half_width'])}",
        )
    console.print(t)

    s = report["strategies"]
    extra = s["frontier"]["tokens"] / s["random"]["tokens"] - 1
    console.print(
        f"Tokens over {report['budget']} steps: frontier {_int(s['frontier']['tokens'])} vs random "
        f"{_int(s['random']['tokens'])} ({pct(extra, True)}% per run); per bug found: frontier "
        f"{_int(s['frontier']['tokens_per_bug'])} vs random {_int(s['random']['tokens_per_bug'])}"
    )

    t = Table(title="Until all bugs are found (cap 5,000 steps)", title_justify="left")
    for col in (
        "strategy",
        "steps (mean)",
        "tokens (mean)",
        "tokens per bug",
        "tokens vs random %",
        "all found",
    ):
        t.add_column(col, justify="left" if col == "strategy" else "right")
    for name, u in report["until_all_bugs"].items():
        t.add_row(
            name,
            f"{u['steps_mean']:.1f}",
            _int(u["tokens_mean"]),
            _int(u["tokens_per_bug"]),
            pct(u["tokens_vs_random"]),
            f"{u['all_found']}/{n}",
        )
    console.print(t)

    t = Table(title="Limited capacity (frontier strategy): mean coverage %", title_justify="left")
    t.add_column("capacity", justify="right")
    policies = list(next(iter(report["capacity"].values())))
    for p in policies:
        t.add_column(p, justify="right")
    for cap, row in report["capacity"].items():
        t.add_row(cap, *(pct(row[p]) for p in policies))
    console.print(t)
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


def render_summary(summary: AblationSummary, console: Console) -> None:
    console.print(
        f"[bold]{summary.name}[/]: {len(summary.configs)} configurations × {summary.n_tasks} tasks"
        f" × {summary.runs_per_task} run(s) per task. Proportions in %, 95% intervals over tasks: bootstrap "
        "percentile (Wilson for 0/1 values) for proportions, mean ± 1.96·s/√n otherwise"
    )
    t = Table(title="Per configuration", title_justify="left")
    t.add_column("configuration")
    for m in summary.metrics:
        t.add_column(m, justify="right")
    for c in summary.configs:
        row = [c]
        for m in summary.metrics:
            iv = summary.intervals[c][m]
            row.append(f"{_fmt(m, iv.mean)} [{_fmt(m, iv.lo)}, {_fmt(m, iv.hi)}]")
        t.add_row(*row)
    console.print(t)
    if not summary.paired:
        return
    t = Table(
        title=f"Paired by task vs {summary.baseline} (differences; pp for proportions)", title_justify="left"
    )
    t.add_column("configuration")
    t.add_column("metric")
    for col in ("mean [95% CI]", "bootstrap 95%", "higher / equal / lower", "half-width paired / unpaired"):
        t.add_column(col, justify="right")
    for c, ms in summary.paired.items():
        for m, p in ms.items():
            hw = (p.hi - p.lo) / 2
            t.add_row(
                c,
                m,
                f"{_fmt(m, p.mean, True)} [{_fmt(m, p.lo, True)}, {_fmt(m, p.hi, True)}]",
                f"[{_fmt(m, p.bootstrap_lo, True)}, {_fmt(m, p.bootstrap_hi, True)}]",
                f"{p.wins.wins} / {p.wins.ties} / {p.wins.losses}",
                f"{_fmt(m, hw)} / {_fmt(m, p.unpaired_half_width)}",
            )
    console.print(t)
