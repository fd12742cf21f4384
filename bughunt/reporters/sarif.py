"""SARIF 2.1.0 of an exploration: one rule per bug kind (CWE tags where one fits), one result per
open bug with its absolute URL as the location and its fingerprint in `partialFingerprints`, so code
scanning tools track a bug across runs the way the bug table does."""

from __future__ import annotations

from typing import Any

from bughunt.oracles.kinds import KIND_INFO, KindInfo, severity

from .records import ReportedBug, StoredRun

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
FINGERPRINT_KEY = "bughuntFingerprint/v1"


RULES: dict[str, KindInfo] = KIND_INFO
"""One rule per bug kind: the kinds' own table (`bughunt.oracles.kinds`)."""


def level(bug: ReportedBug) -> str:
    """SARIF's level: "error" for a confirmed finding of high severity, "warning" for the other
    confirmed ones, "none" for a suspected one (its `kind` is "review", and SARIF allows no other level
    beside a kind that is not "fail")."""
    if bug.suspected:
        return "none"
    return "error" if severity(bug.kind) == "high" else "warning"


def result_kind(bug: ReportedBug) -> str:
    """SARIF's `kind`: "fail" for an observed bug; "review" ("requires review by a human user to
    decide if it represents a problem", SARIF 2.1.0 §3.27.9) for a suspected one, which code scanning
    gates do not count as a failure."""
    return "review" if bug.suspected else "fail"


def sarif_log(run: StoredRun, accepted: frozenset[str] | None = None) -> dict[str, Any]:
    """The SARIF log of `run`. With `accepted` (a baseline's fingerprints) each result carries its
    `baselineState`: "unchanged" when accepted, else "new"."""
    kinds = list(RULES) + sorted({b.kind for b in run.bugs} - set(RULES))
    index = {kind: i for i, kind in enumerate(kinds)}
    results = []
    for bug in run.open_bugs():
        result: dict[str, Any] = {
            "ruleId": bug.kind,
            "ruleIndex": index[bug.kind],
            "kind": result_kind(bug),
            "level": level(bug),
            "message": {
                "text": f"{bug.message} ({bug.route}{', suspected: not opened' if bug.suspected else ''})"
            },
            "locations": [_location(bug.url or bug.route)],
            "partialFingerprints": {FINGERPRINT_KEY: bug.fingerprint},
            "properties": {
                "route": bug.route,
                "status": bug.status,
                "suspected": bug.suspected,
                "appVersion": bug.version,
                "firstSeen": bug.seen_iso,
            },
        }
        if len(bug.routes) > 1:
            result["relatedLocations"] = [
                {"id": i, **_location(_sibling(bug, route))} for i, route in enumerate(bug.routes[1:], 1)
            ]
        if accepted is not None:
            result["baselineState"] = "unchanged" if bug.fingerprint in accepted else "new"
        results.append(result)
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "BugHunt",
                        "version": _version(),
                        "rules": [_rule(kind) for kind in kinds],
                    }
                },
                "invocations": [{"executionSuccessful": True}],
                "results": results,
                "properties": {
                    "baseUrl": run.base_url,
                    "engine": run.engine,
                    "pagesVisited": len(run.pages_visited),
                    "appVersion": run.app_version,
                },
            }
        ],
    }


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("memgpt-lite")  # the distribution BugHunt ships in
    except PackageNotFoundError:
        return "unknown"


def _rule(kind: str) -> dict[str, Any]:
    rule = RULES.get(kind, KindInfo(kind.title().replace("_", ""), kind.replace("_", " "), "medium"))
    tags = [f"external/cwe/cwe-{n}" for n in rule.cwe]
    return {
        "id": kind,
        "name": rule.rule,
        "shortDescription": {"text": rule.text},
        "defaultConfiguration": {"level": "error" if rule.severity == "high" else "warning"},
        "properties": {"tags": (["security"] if rule.cwe else ["correctness"]) + tags},
    }


def _location(uri: str) -> dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": {"uri": uri}}}


def _sibling(bug: ReportedBug, route: str) -> str:
    # the other routes of one bug sit on the same site as its first
    if bug.url and bug.url.endswith(bug.route):
        return bug.url[: len(bug.url) - len(bug.route)] + route
    return route
