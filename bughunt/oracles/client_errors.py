"""Client-side failures the browser engine saw while a page ran: uncaught JavaScript errors, errors
logged to the console, and XHR/fetch requests answered with 4xx/5xx.

One finding per page, so a page that throws the same errors on every load is one bug. The message is a harness template: what the page said (the error
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


_RANK = {"js_error": 0, "failed_request": 1, "console_error": 2}


def check_client_errors(page: FetchedPage, fetch: Fetch | None = None) -> list[Finding]:
    """At most one finding per page: one failure usually shows several ways (a failed fetch, then the
    console line about it, then the error the missing data causes), so the message names the most
    telling kind — an uncaught error, else a failed request, else a console error — and the evidence
    lists them all."""
    if not page.client_errors:
        return []
    errors = sorted(page.client_errors, key=lambda e: _RANK[e.kind])
    seen = [{"kind": e.kind, "text": e.text, "source": e.url, "status": e.status} for e in page.client_errors]
    return [Finding("client_error", page.route, _message(errors[0]), evidence(page, client_errors=seen))]
