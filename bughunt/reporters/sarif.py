"""SARIF 2.1.0 of an exploration: one rule per bug kind (CWE tags where one fits), one result per
open bug with its absolute URL as the location and its fingerprint in `partialFingerprints`, so code
scanning tools track a bug across runs the way the bug table does."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .records import ReportedBug, StoredRun

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
FINGERPRINT_KEY = "bughuntFingerprint/v1"


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    text: str
    level: str
    """SARIF level of a confirmed bug of this kind ("error" or "warning"); suspected ones are warnings."""
    cwe: tuple[int, ...] = ()


RULES: dict[str, Rule] = {
    "server_error": Rule(
        "ServerError", "The server answered a page with an error status (5xx).", "error", (755,)
    ),
    "unescaped_script": Rule(
        "StoredCrossSiteScripting",
        "Stored text came back as live markup (a script the site did not write): stored XSS.",
        "error",
        (79,),
    ),
    "duplicate_pagination": Rule(
        "DuplicatePagination", "Consecutive pages of a paginated list repeat items.", "warning"
    ),
    "count_mismatch": Rule(
        "CountMismatch", "A stated count disagrees with the items the page lists.", "warning"
    ),
    "form_drops_value": Rule(
        "FormDropsValue", "An edit form does not show a stored value, so saving it loses data.", "warning"
    ),
    "unconfirmed_destructive": Rule(
        "DestructiveGet",
        "A plain link or GET form deletes or changes data without confirmation (unsafe GET, CSRF-prone).",
        "error",
        (650, 352),
    ),
    "client_error": Rule(
        "ClientError",
        "The page raised a script error, logged a console error or a request failed.",
        "warning",
    ),
}


def level(bug: ReportedBug) -> str:
    rule = RULES.get(bug.kind)
    if bug.suspected or rule is None:
        return "warning"
    return rule.level


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
    rule = RULES.get(kind, Rule(kind, kind.replace("_", " "), "warning"))
    tags = [f"external/cwe/cwe-{n}" for n in rule.cwe]
    return {
        "id": kind,
        "name": rule.name,
        "shortDescription": {"text": rule.text},
        "defaultConfiguration": {"level": rule.level},
        "properties": {"tags": (["security"] if rule.cwe else ["correctness"]) + tags},
    }


def _location(uri: str) -> dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": {"uri": uri}}}


def _sibling(bug: ReportedBug, route: str) -> str:
    # the other routes of one bug sit on the same site as its first
    if bug.url and bug.url.endswith(bug.route):
        return bug.url[: len(bug.url) - len(bug.route)] + route
    return route
