"""Scoring one exploration against the planted bugs.

A reported bug matches a planted one when the kind is equal and the planted route regex fullmatches
the route bughunt reports for it (or one of the routes its fingerprint was seen on). On the clean
build nothing is planted, so every report is a false positive.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from corpus.spec import Bug


@dataclass(frozen=True)
class Report:
    """One live bug entry of the explorer: its routes (reported first) and the click it was first seen."""

    kind: str
    routes: tuple[str, ...]
    first_click: int | None
    suspected: bool


@dataclass
class Score:
    found: dict[str, int | None] = field(default_factory=dict)  # planted id -> click first found
    missed: list[str] = field(default_factory=list)
    suspected: list[str] = field(default_factory=list)  # found only by a suspected (unopened) report
    false_positives: list[Report] = field(default_factory=list)
    duplicates: list[Report] = field(default_factory=list)


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
                str(bug.get("kind")), tuple(routes), min(steps) if steps else None, bool(bug.get("suspected"))
            )
        )
    return out


def _matches(planted: Bug, report: Report) -> bool:
    return report.kind == planted.kind and any(planted.route.fullmatch(r) for r in report.routes)


def score(planted: tuple[Bug, ...], found: list[Report]) -> Score:
    result = Score()
    for report in sorted(found, key=lambda r: (r.first_click is None, r.first_click or 0)):
        bug = next((b for b in planted if _matches(b, report)), None)
        if bug is None:
            result.false_positives.append(report)
        elif bug.id in result.found:
            result.duplicates.append(report)
        else:
            result.found[bug.id] = report.first_click
            if report.suspected:
                result.suspected.append(bug.id)
    result.missed = [b.id for b in planted if b.id not in result.found]
    return result
