"""`--repeat N`: one build at one budget explored N times, read as one row that shows timing.

A report that shows in one run and not the next on the same build depends on timing (a clock on the
page, the load, the order of openings). Read like a flaky test: a false positive counts if **any**
repeat made it (`false_positives`, `false_positives_union`; one report of two runs is one kind and
route, request tokens masked); a planted bug counts found only if
**every** repeat found it (`found`, `found_intersection`). Both other readings are kept beside them
(`found_union`: found in any repeat; `false_positives_intersection`: made in every repeat), and each
repeat's own row is in `repeats`. The row's scalar figures (clicks, pages, repeat clicks, stop
reason, load) are its first repeat's; `wall_s` is the time of all of them.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

from bughunt.sim.route_keys import TOKEN_KEY

if TYPE_CHECKING:
    from corpus.run import Run


def _key(report: dict[str, Any]) -> tuple[str, str]:
    """A report across repeats: its kind and route, the values of token-like query keys masked
    (`csrf_token`: drawn afresh in every run, it made one toggle two reports of two runs)."""
    parts = urlsplit(report["route"])
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = "&".join(f"{k}={'' if TOKEN_KEY.search(k) else v}" for k, v in pairs)
    return report["kind"], parts._replace(query=query).geturl()


def _reports(runs: list[Run], which: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The reports of `which` (false_positives, leads, upstream) in any run and in every run, by kind and route,
    each as first seen with `runs`: how many repeats made it."""
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for run in runs:
        for report in {_key(r): r for r in getattr(run, which)}.values():
            kept = seen.setdefault(_key(report), {**report, "runs": 0})
            kept["runs"] += 1
    union = list(seen.values())
    return union, [r for r in union if r["runs"] == len(runs)]


def merge(runs: list[Run]) -> Run:
    """One row for the repeats of one build at one budget (see the module)."""
    first = runs[0]
    planted = list(first.found) + [m for m in first.missed if m not in first.found]
    every = [b for b in planted if all(b in r.found for r in runs)]
    anywhere = [b for b in planted if any(b in r.found for r in runs)]
    clicks = {b: [r.found[b] for r in runs if b in r.found] for b in anywhere}
    found_union = {b: min((c for c in clicks[b] if c is not None), default=None) for b in anywhere}
    found_all = {b: max((c for c in clicks[b] if c is not None), default=None) for b in every}
    fps_union, fps_all = _reports(runs, "false_positives")
    leads, _ = _reports(runs, "leads")
    upstream, _ = _reports(runs, "upstream")
    missed = [b for b in planted if b not in found_all]
    errors = [f"repeat {i}: {r.error}" for i, r in enumerate(runs, 1) if r.error]
    return replace(
        first,
        found=found_all,
        missed=missed,
        suspected=[b for b in missed if any(b in r.suspected for r in runs)],
        false_positives=fps_union,
        leads=leads,
        upstream=upstream,
        duplicates=max(r.duplicates for r in runs),
        wall_s=round(sum(r.wall_s for r in runs), 1),
        load=", ".join(r.load for r in runs),
        error="; ".join(errors) or None,
        repeat=len(runs),
        found_union=found_union,
        found_intersection=found_all,
        false_positives_union=fps_union,
        false_positives_intersection=fps_all,
        repeats=[{k: v for k, v in asdict(r).items() if k != "repeats"} for r in runs],
    )


def found_cell(run: Run) -> str:
    """The table's "found" of a repeated buggy row: in every repeat, then what only some found."""
    hits = ", ".join(f"{b}@{c}" for b, c in sorted(run.found.items(), key=lambda kv: kv[1] or 0))
    cell = f"{len(run.found)}/{run.planted} in every one of {run.repeat} runs" + (f": {hits}" if hits else "")
    some = [f"{b}@{c}" for b, c in run.found_union.items() if b not in run.found]
    return cell + (f"; in some runs only: {', '.join(some)}" if some else "")


def false_positives_cell(run: Run) -> str:
    """The table's "false pos." of a repeated row: any repeat's, each with how many runs made it."""
    every = len(run.false_positives_intersection)
    cell = f"{len(run.false_positives_union)} in any run ({every} in every one)"
    listed = "; ".join(
        f"{r['kind']} {r['route']} ({r['runs']}/{run.repeat})" for r in run.false_positives_union
    )
    return cell + (f": {listed}" if listed else "")
