"""An error answer with no body, as the browser engine meets it: the site's answer, not a network failure.

A server that answers 4xx/5xx with an empty body (PHP's fatal error with `display_errors` off, as
production and Debian's php-cli run it; a bare `abort(500)`; a proxy's empty 502) is shown by Chromium as
its own error page (`chrome-error://chromewebdata/`), and `page.goto` raises
`net::ERR_HTTP_RESPONSE_CODE_FAILURE` instead of returning the response. Read as a failure of the
network, the site's 500 was a `network_error` step (retried, then given up), never a page the oracles
saw: a feed reader's view answering an empty 500 on every load was missed in 100 clicks. The HTTP engine
sees the same answer as what it is, a page of that status with no body; so does the browser engine now,
from the document response Chromium did receive (its status, headers and redirect chain).
"""

from __future__ import annotations

from typing import Any

from bughunt.page import ClientError, FetchedPage

ERROR_CODE_FAILURE = "ERR_HTTP_RESPONSE_CODE_FAILURE"
"""Chromium's net error for an error status whose body is empty (it shows its own page instead)."""
CHROME_ERROR_PAGE = "chrome-error:"
"""Where Chromium's own error page lives: no page of the site."""


def bodiless_failure(message: str) -> bool:
    """Whether a navigation's failure is Chromium's refusal to show an empty error answer."""
    return ERROR_CODE_FAILURE in message


def main_document(request: Any, main_frame: Any) -> bool:
    """Whether `request` is a navigation of the tab's own (not an iframe's, not a script's request):
    the answer a load reads, and the request a page about to be replaced has out."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        return bool(request.is_navigation_request()) and request.frame == main_frame
    except PlaywrightError:  # a service worker's request has no frame, nor one sent before its frame
        return False


def bodiless_page(
    response: Any, route: str, elapsed_ms: float, client_errors: tuple[ClientError, ...] = ()
) -> FetchedPage:
    """The page of an error answer Chromium would not show: its status, headers and redirects, no body
    (what the HTTP engine would have read)."""
    headers = {k.lower(): v for k, v in response.headers.items()}
    redirects: list[str] = []
    request = response.request.redirected_from
    while request is not None:
        redirects.insert(0, request.url)
        request = request.redirected_from
    return FetchedPage(
        url=response.url,
        route=route,
        status=response.status,
        headers=headers,
        content_type=headers.get("content-type", ""),
        body="",
        elapsed_ms=round(elapsed_ms, 2),
        redirects=tuple(redirects),
        client_errors=client_errors,
    )
