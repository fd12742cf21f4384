"""A request the page's script sent again at once and that then succeeded is a handshake, not a failure.

Several APIs answer a client's first request 4xx on purpose and hand it what to send next: a session
token in a header (Transmission's RPC answers 409 with `X-Transmission-Session-Id`; Synology's and
Nextcloud's CSRF checks answer 403/412 the same way), or an expired access token (an Angular or axios
interceptor refreshes it on 401 and sends the request again). The script retries the same call and
the user sees nothing fail. So a 4xx answer to an XHR/fetch is held back until the read of the page:
when the same method, address and body are answered below 400 before then, it is dropped. A request
that fails and is not retried — or fails again — stays the page's failure; a 5xx is never held
(a server error is no handshake).
"""

from __future__ import annotations

from typing import Any

from bughunt.page import ClientError

MAX_HELD = 64
"""At most this many 4xx answers are remembered per page read (a page that fails more is failing)."""


def request_key(request: Any) -> tuple[str, str, bytes]:
    """What makes a retry the same request: method, address and body."""
    return request.method, request.url, request.post_data_buffer or b""


class RetriedRequests:
    """The 4xx answers of the page's scripted requests, by request, until each is retried."""

    def __init__(self) -> None:
        self._held: dict[tuple[str, str, bytes], ClientError] = {}

    def clear(self) -> None:
        self._held.clear()

    def failed(self, request: Any, error: ClientError) -> None:
        """Remember a recorded 4xx failure of `request` (others are not handshakes)."""
        if error.kind == "failed_request" and error.status is not None and 400 <= error.status < 500:
            if len(self._held) < MAX_HELD:
                self._held[request_key(request)] = error

    def answered(self, request: Any, status: int) -> ClientError | None:
        """The held failure a successful answer to the same request takes back, or None."""
        if status >= 400 or not self._held:
            return None
        return self._held.pop(request_key(request), None)
