"""What each bug kind means to the people and tools that read a finding: a rule name and sentence
(SARIF's rules), a severity, and the standard weakness identifiers (CWE) where one fits. One table,
read by the bug view (text, `--json`, `memory --json`, the report) and the SARIF reporter alike."""

from __future__ import annotations

from typing import Literal, NamedTuple

Severity = Literal["high", "medium", "low"]


class KindInfo(NamedTuple):
    rule: str
    """A CamelCase rule name (SARIF `rules[].name`)."""
    text: str
    severity: Severity
    """Of a confirmed finding; a suspected one (reported without being opened) is one step lower."""
    cwe: tuple[int, ...] = ()


KIND_INFO: dict[str, KindInfo] = {
    "server_error": KindInfo(
        "ServerError", "The server answered a page with an error status (5xx).", "high", (248,)
    ),
    "unescaped_script": KindInfo(
        "StoredCrossSiteScripting",
        "Stored text came back as live markup (a script the site did not write): stored XSS.",
        "high",
        (79,),
    ),
    "unconfirmed_destructive": KindInfo(
        "DestructiveGet",
        "A plain link or GET form deletes or changes data without confirmation (unsafe GET, CSRF-prone).",
        "high",
        (650, 352),
    ),
    "unsafe_get": KindInfo(
        "UnsafeGet",
        "A GET request changed server state (a follow, like, vote…): safe methods must not (RFC 9110 9.2.1).",
        "medium",
        (650, 352),
    ),
    "form_drops_value": KindInfo(
        "FormDropsValue", "An edit form does not show a stored value, so saving it loses data.", "medium"
    ),
    "client_error": KindInfo(
        "ClientError",
        "The page raised a script error, logged a console error or a request failed.",
        "medium",
    ),
    "count_mismatch": KindInfo(
        "CountMismatch", "A stated count disagrees with the items the page lists.", "low"
    ),
    "duplicate_pagination": KindInfo(
        "DuplicatePagination", "Consecutive pages of a paginated list repeat items.", "low"
    ),
}

_LOWER: dict[Severity, Severity] = {"high": "medium", "medium": "low", "low": "low"}


def severity(kind: str, suspected: bool = False) -> Severity:
    """The finding's severity: its kind's, one step lower when it is only suspected."""
    info = KIND_INFO.get(kind)
    level: Severity = info.severity if info is not None else "medium"
    return _LOWER[level] if suspected else level


def cwe_id(kind: str) -> str | None:
    """The kind's main weakness as `CWE-<n>`, or None."""
    info = KIND_INFO.get(kind)
    return f"CWE-{info.cwe[0]}" if info is not None and info.cwe else None
