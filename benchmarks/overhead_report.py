"""`benchmarks.overhead`'s rounds summarised (medians, the steady split's medians, the counted round) and
printed as its tables. The figures are those of `benchmarks.overhead`'s docstring."""

from __future__ import annotations

import statistics
from typing import Any

from benchmarks.figures import num

Record = dict[str, Any]
TARGET = 3.0
"""The judged ratio's bound (issue 28): explorer CPU after start-up ≤ 3 × the bare loop's."""


def summarise(rounds: list[Record]) -> Record:
    """Medians over the repeats; ratios per repeat first, then their median."""

    def med(key: str) -> float:
        return statistics.median(float(r[key]) for r in rounds)

    first = rounds[0]
    clicks, fetches = max(1, first["clicks"]), max(1, first["requests_after_start"])
    explorer_s, bare_s = med("explorer_cpu_s"), med("bare_cpu_s")
    ratios = [r["over_bare"] for r in rounds if r["over_bare"] is not None]
    paced = [r["over_paced"] for r in rounds if r.get("over_paced") is not None]
    return {
        "clicks": first["clicks"],
        "requests": first["requests"],
        "requests_after_start": first["requests_after_start"],
        "start_cpu_s": med("start_cpu_s"),
        "explorer_cpu_s": explorer_s,
        "bare_cpu_s": bare_s,
        "explorer_ms_per_click": 1000 * explorer_s / clicks,
        "bare_ms_per_click": 1000 * bare_s / clicks,
        "explorer_ms_per_fetch": 1000 * explorer_s / fetches,
        "bare_ms_per_fetch": 1000 * bare_s / fetches,
        "over_bare": statistics.median(ratios) if ratios else None,
        **spread("over_bare", ratios),
        **_loop_figures(rounds, clicks, fetches),
        "within_target": bool(ratios) and statistics.median(ratios) <= TARGET,
        "paced_cpu_s": med("paced_cpu_s"),
        "paced_ms_per_fetch": 1000 * med("paced_cpu_s") / fetches,
        "over_paced": statistics.median(paced) if paced else None,
        # every repeat must have made the same walk and the same requests, else the medians mix runs
        "same_walks": len({r["walk_digest"] for r in rounds}) == 1,
        "same_start": all(r["same_start"] for r in rounds),
        "walk_digest": first["walk_digest"],
        "bugs": first["bugs"],
        **summarise_steady(rounds),
        **summarise_instructions(rounds, fetches),
    }


def _loop_figures(rounds: list[Record], clicks: int, fetches: int) -> Record:
    """The click loop's CPU read in the explorer's process (`benchmarks.loop_marks`) and its ratio to the
    bare loop's, median and spread; {} when the tree measured has no mark."""
    marked = [r for r in rounds if r.get("over_bare_loop") is not None]
    if not marked:
        return {}
    loop_s = statistics.median(float(r["loop_cpu_s"]) for r in marked)
    ratios = [float(r["over_bare_loop"]) for r in marked]
    return {
        "loop_cpu_s": loop_s,
        "loop_ms_per_click": 1000 * loop_s / clicks,
        "loop_ms_per_fetch": 1000 * loop_s / fetches,
        "over_bare_loop": statistics.median(ratios),
        **spread("over_bare_loop", ratios),
    }


STEADY_KEYS = (
    "explorer_ms_per_fetch_steady", "explorer_once_ms", "bare_ms_per_fetch_steady", "bare_once_ms", "over_bare_steady",
)  # fmt: skip


def summarise_steady(rounds: list[Record]) -> Record:
    """Medians of the rounds' steady split (`steady_split`), each figure on its own; {} without short
    runs. The short runs must have walked alike too."""
    with_short = [r for r in rounds if "short_explorer_cpu_s" in r]
    if not with_short:
        return {}
    out: Record = {
        "short_budget": with_short[0]["short_budget"],
        "short_clicks": with_short[0]["short_clicks"],
        "short_requests_after_start": with_short[0]["short_requests_after_start"],
        "short_same_walks": len({r["short_walk_digest"] for r in with_short}) == 1,
        "short_same_start": all(r["short_same_start"] for r in with_short),
    }
    for key in STEADY_KEYS:
        values = [r[key] for r in with_short if r.get(key) is not None]
        out[key] = statistics.median(values) if values else None
    out.update(
        spread(
            "over_bare_steady",
            [r["over_bare_steady"] for r in with_short if r.get("over_bare_steady") is not None],
        )
    )
    return out


def spread(key: str, values: list[float]) -> Record:
    """How far the rounds' ratios lie apart, printed beside their median: `KEY_min`, `KEY_max`, the
    quartiles `KEY_q1`, `KEY_q3` (inclusive: the median's own neighbours at few rounds) and `KEY_iqr`.
    A median judges a bound only when its rounds agree to well under its distance from the bound."""
    if not values:
        return {}
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else (values[0],) * 3
    return {
        f"{key}_min": min(values),
        f"{key}_max": max(values),
        f"{key}_q1": q1,
        f"{key}_q3": q3,
        f"{key}_iqr": q3 - q1,
    }


def summarise_instructions(rounds: list[Record], fetches: int) -> Record:
    """The counted round's figures (counts do not move with the load: one round is enough)."""
    counted = next((r for r in rounds if "ir_explorer" in r), None)
    if counted is None:
        return {}
    ratio = counted["ir_over_bare"]
    return {
        "ir_explorer": counted["ir_explorer"],
        "ir_bare": counted["ir_bare"],
        "ir_explorer_per_fetch": counted["ir_explorer"] / fetches,
        "ir_bare_per_fetch": counted["ir_bare"] / fetches,
        "ir_over_bare": ratio,
        # the counted runs walked and asked as the timed ones did
        "ir_same": counted["ir_walk_digest"] == counted["walk_digest"] and counted["ir_same_requests"],
        **{
            key: counted[key]
            for key in (
                "ir_short_explorer",
                "ir_short_bare",
                "ir_explorer_per_fetch_steady",
                "ir_explorer_once",
                "ir_bare_per_fetch_steady",
                "ir_bare_once",
                "ir_steady_over_bare",
                "ir_short_same_requests",
            )  # fmt: skip
            if key in counted
        },
    }


HEADER = (
    f"{'site':<14}{'clicks':>7}{'fetches':>8}{'start s':>8}{'once ms':>8}{'cpu s':>7}{'ms/click':>9}{'ms/fetch':>9}"
    f"{'bare ms/click':>14}{'bare ms/fetch':>14}{'× bare':>8}{'IQR':>11}{'× loop':>8}{'IQR':>11}{'× steady':>9}{'IQR':>11}"
    f"{'paced ms/fetch':>15}{'× paced':>8}  walk"
)
"""`once ms`: the explorer's cost once a run beyond start-up (the steady split's intercept); `× steady`:
its steady cost a fetch ÷ the bare loop's (the slopes); both `—` without a short run. `× loop`: the click
loop's CPU read in the explorer's process ÷ the bare loop's. `IQR`: the rounds' ratios' first and third
quartiles, beside their median."""


IR_HEADER = (
    f"{'instructions (callgrind)':<28}{'M a fetch':>14}{'bare M/fetch':>14}{'× bare':>8}"
    f"{'M steady':>10}{'bare M steady':>14}{'× steady':>9}{'once M':>8}{'bare once M':>12}"
)


def render(result: Record) -> str:
    load = [" ".join(f"{x:.2f}" for x in result[k]) for k in ("load_start", "load_end")]
    lines = [
        f"{result['policy']}, --budget {result['budget']}, medians of {result['repeats']}; {result['cpus']} CPUs; "
        f"load {load[0]} at the start, {load[1]} at the end",
        HEADER,
    ]
    for name, s in result["sites"].items():
        flags = "" if s["same_walks"] and s["same_start"] else "  (repeats differ!)"
        if not (s.get("short_same_walks", True) and s.get("short_same_start", True)):
            flags += "  (short runs differ!)"
        lines.append(
            f"{name:<14}{s['clicks']:>7}{s['requests_after_start']:>8}{s['start_cpu_s']:>8.2f}"
            f"{num(s.get('explorer_once_ms'), '.1f'):>8}"
            f"{s['explorer_cpu_s']:>7.2f}{s['explorer_ms_per_click']:>9.2f}{s['explorer_ms_per_fetch']:>9.2f}"
            f"{s['bare_ms_per_click']:>14.2f}{s['bare_ms_per_fetch']:>14.2f}{num(s['over_bare'], '.2f'):>8}"
            f"{quartiles(s, 'over_bare'):>11}{num(s.get('over_bare_loop'), '.2f'):>8}{quartiles(s, 'over_bare_loop'):>11}"
            f"{num(s.get('over_bare_steady'), '.2f'):>9}"
            f"{quartiles(s, 'over_bare_steady'):>11}"
            f"{s['paced_ms_per_fetch']:>15.2f}{num(s['over_paced'], '.2f'):>8}  {s['walk_digest']}{flags}"
        )
    counted = {n: s for n, s in result["sites"].items() if "ir_over_bare" in s}
    if counted:
        lines.append(IR_HEADER)
        for name, s in counted.items():
            flags = "" if s["ir_same"] else "  (the counted run walked otherwise!)"
            if not s.get("ir_short_same_requests", True):
                flags += "  (the counted short run asked otherwise!)"
            lines.append(
                f"{name:<28}{s['ir_explorer_per_fetch'] / 1e6:>14.2f}{s['ir_bare_per_fetch'] / 1e6:>14.2f}"
                f"{num(s['ir_over_bare'], '.2f'):>8}{mega(s.get('ir_explorer_per_fetch_steady'), 10)}"
                f"{mega(s.get('ir_bare_per_fetch_steady'), 14)}{num(s.get('ir_steady_over_bare'), '.2f'):>9}"
                f"{mega(s.get('ir_explorer_once'), 8, '.1f')}{mega(s.get('ir_bare_once'), 12, '.1f')}{flags}"
            )
    verdicts = [f"{n} {'≤' if s['within_target'] else '>'} {TARGET:g}" for n, s in result["sites"].items()]
    lines.append("× bare (explorer CPU after start-up ÷ bare CPU, same requests): " + ", ".join(verdicts))
    if counted:
        lines.append(
            "instructions × bare (callgrind, first round; counted, not timed: the load does not move it). "
            f"Not on the CPU ratio's scale — the kernel's work is left out — so not judged against {TARGET:g}× "
            "(docs/benchmarks.md, Session 22: at low load it runs 1.4-1.6× the CPU ratio)"
        )
    lines.append(
        "× loop: the CPU of the explorer's click loop, read in its own process (no start-up run subtracted), "
        "÷ the same bare CPU; IQR: the rounds' first and third quartiles"
    )
    lines.append(
        "× paced (shown beside, not judged): ÷ the same loop idling before each request as long as the "
        "explorer worked per request"
    )
    if result.get("short_budget"):
        lines.append(
            f"× steady (shown beside, not judged): the explorer's CPU a fetch ÷ the bare loop's, each the slope "
            f"between a --budget {result['short_budget']} run and the --budget {result['budget']} one; once ms: the "
            "explorer's CPU once a run beyond start-up (the intercept), medians of the rounds"
        )
    return "\n".join(lines)


def quartiles(summary: Record, key: str) -> str:
    """`q1–q3` of a ratio's rounds (`spread`), or `—`."""
    q1, q3 = summary.get(f"{key}_q1"), summary.get(f"{key}_q3")
    return "—" if q1 is None or q3 is None else f"{q1:.2f}–{q3:.2f}"


def mega(value: float | None, width: int, spec: str = ".2f") -> str:
    return f"{num(None if value is None else value / 1e6, spec):>{width}}"
