"""Server errors: any 5xx answer is a bug, whatever the page says.

The message is a harness template, `HTTP <status> <reason phrase>`: the same 500 has one fingerprint
whether the site shows a debug traceback or a bare production page. What the page said (the last line
of its first `<pre>`, else its heading) is evidence (`error_line`), quarantined by the explorer; its
normalised digest (`error_key`, a number) stays with the bug, so the explorer can tell one root cause
on sibling routes from two.
"""

from __future__ import annotations

import hashlib
from http import HTTPStatus

from bughunt.fingerprint import normalise_message
from bughunt.oracles.base import DEFAULT_CONFIG, Fetch, Finding, OracleConfig, evidence, page_shape, short
from bughunt.page import FetchedPage


def error_summary(page: FetchedPage) -> str:
    """The most specific error text on the page: an exception line in <pre>, else h1, else title."""
    if not page.is_html:
        return ""
    doc = page.document
    for pre in doc.find_all("pre", "code"):
        lines = [ln.strip() for ln in pre.raw_text().splitlines() if ln.strip()]
        if lines:
            return short(lines[-1])
    for tag in ("h1", "h2", "title"):
        found = [n for n in doc.find_all(tag) if n.text()]
        if found:
            return short(found[0].text())
    return ""


def error_key(summary: str) -> int:
    """The error line, normalised (`normalise_message`) and hashed to a number: a fact that tells two
    root causes apart on one template without carrying page text into memory (the line itself is
    quarantined evidence)."""
    digest = hashlib.sha256(normalise_message(summary).encode("utf-8")).hexdigest()
    return int(digest[:12], 16)


def check_server_error(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig = DEFAULT_CONFIG
) -> list[Finding]:
    if page.status < 500:
        return []
    try:
        reason = HTTPStatus(page.status).phrase
    except ValueError:
        reason = "Server Error"
    summary = error_summary(page)
    # The reason phrase keeps 500 and 503 apart after numbers are normalised away.
    message = f"HTTP {page.status} {reason}"
    return [
        Finding(
            "server_error",
            page.route,
            message,
            evidence(page, summary.rstrip("…")[:40], error_line=summary, error_key=error_key(summary)),
            shape=page_shape(page),
        )
    ]
