"""Scoring one exploration against the planted bugs.

A reported bug matches a planted one when the kind is equal and the planted route regex fullmatches
the route bughunt reports for it (or one of the routes its fingerprint was seen on). On the clean
build nothing is planted, so every report is a false positive.

A *suspected* report (a destructive link bughunt saw but did not open: no `--allow-destructive`) is
no evidence — the clean build's link reads the same when it leads to a confirmation page — so it is
scored as what bughunt's CI gates make of it, a lead: never a found bug, never a false positive,
listed in `leads` (with the planted bug it points at, if any, in `suspected`).

A report an app file's `[[upstream]]` entry explains (a misbehaviour of the application as published,
verified by hand) is the explorer right about the app: on either build it is neither a find nor a
false positive, listed in `upstream` with the entry's id. A planted bug's match comes first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from corpus.spec import Bug, Upstream


@dataclass(frozen=True)
class Report:
    """One live bug entry of the explorer: its routes (reported first) and the click it was first seen."""

    kind: str
    routes: tuple[str, ...]
    first_click: int | None
    suspected: bool
    fingerprint: str = ""


@dataclass
class Score:
    found: dict[str, int | None] = field(default_factory=dict)  # planted id -> click first found
    missed: list[str] = field(default_factory=list)
    suspected: list[str] = field(default_factory=list)  # missed, but pointed at by a lead
    false_positives: list[Report] = field(default_factory=list)
    duplicates: list[Report] = field(default_factory=list)
    leads: list[tuple[Report, str | None]] = field(
        default_factory=list
    )  # suspected reports, their planted bug
    upstream: list[tuple[Report, str]] = field(default_factory=list)  # reports an upstream entry explains


def reports(explore: dict[str, Any], memory: dict[str, Any]) -> list[Report]:
    """The live bugs of `explore --json`, with the occurrences `memory --json` holds for each."""
    occurrences: dict[str, list[dict[str, Any]]] = {}
    for entry in memory.get("bugs", []):
        if entry.get("superseded_by") is None:
            occurrences[str(entry.get("fingerprint"))] = list(entry.get("occurrences") or [])
    out = []
    for bug in explore.get("bugs", []):
        seen = occurrences.get(str(bug.get("fingerprint")), [])
        routes = [str(bug.get("route"))] + [
            str(o["route"]) for o in seen if o.get("route") != bug.get("route")
        ]
        steps = [int(o["first_step"]) for o in seen if isinstance(o.get("first_step"), int)]
        out.append(
            Report(
                str(bug.get("kind")),
                tuple(routes),
                min(steps) if steps else None,
                bool(bug.get("suspected")),
                str(bug.get("fingerprint") or ""),
            )
        )
    return out


def _matches(planted: Bug, report: Report) -> bool:
    return report.kind == planted.kind and any(planted.route.fullmatch(r) for r in report.routes)


def _explains(entry: Upstream, report: Report) -> bool:
    if report.kind != entry.kind:
        return False
    if entry.route is None:
        return bool(report.fingerprint) and report.fingerprint == entry.fingerprint
    return any(entry.route.fullmatch(r) for r in report.routes)


def score(planted: tuple[Bug, ...], found: list[Report], upstream: tuple[Upstream, ...] = ()) -> Score:
    result = Score()
    for report in sorted(found, key=lambda r: (r.first_click is None, r.first_click or 0)):
        bug = next((b for b in planted if _matches(b, report)), None)
        known = next((u for u in upstream if _explains(u, report)), None) if bug is None else None
        if report.suspected:
            result.leads.append((report, bug.id if bug is not None else None))
        elif known is not None:
            result.upstream.append((report, known.id))
        elif bug is None:
            result.false_positives.append(report)
        elif bug.id in result.found:
            result.duplicates.append(report)
        else:
            result.found[bug.id] = report.first_click
    result.missed = [b.id for b in planted if b.id not in result.found]
    pointed = {bug_id for _, bug_id in result.leads}
    result.suspected = [bug_id for bug_id in result.missed if bug_id in pointed]
    return result
