"""Client-side failures the browser engine saw while a page ran: uncaught JavaScript errors, errors
logged to the console, and XHR/fetch requests answered with 4xx/5xx.

One finding per kind of failure (and status class for requests) per route, so a page that throws the
same error on every load is one bug. The message is a harness template: what the page said (the error
text, the console line, the failing URL) is evidence only, which the explorer quarantines.
"""

from __future__ import annotations

from bughunt.html import ClientError, FetchedPage
from bughunt.oracles.base import Fetch, Finding, evidence

_MESSAGES = {
    "js_error": "uncaught JavaScript error while the page ran",
    "console_error": "the page logged an error to the console",
}


def _message(error: ClientError) -> str:
    if error.kind == "failed_request":
        side = "server" if (error.status or 0) >= 500 else "client"
        return f"an XHR/fetch request of the page failed with a {side} error status"
    return _MESSAGES[error.kind]


def check_client_errors(page: FetchedPage, fetch: Fetch | None = None) -> list[Finding]:
    findings: dict[str, Finding] = {}
    for error in page.client_errors:
        message = _message(error)
        if message in findings:
            continue
        findings[message] = Finding(
            "client_error",
            page.route,
            message,
            evidence(page, client_error=error.kind, text=error.text, source=error.url, status=error.status),
        )
    return list(findings.values())
