"""Client-side failures the browser engine saw while a page ran: uncaught JavaScript errors, errors
logged to the console, and XHR/fetch requests answered with 4xx/5xx (or refused: a CORS failure).

One root cause is one bug, whichever page shows it: a failed request is fingerprinted by its method,
its path *shape* and its status — not by the page route — so the one API call that fails on every
profile's favourites tab is one bug with an occurrence per profile. In a request path, numbers, ids
and slugs are placeholders (`bughunt.fingerprint.segment_shape`), every query value is one (`?favorited=
<v>`: the keys name the endpoint, the values are data), and so is a segment the page's own route
carries (`/api/profiles/alice` requested by `/#/profile/alice`: a plain-word user name is data
the page passed on). The console lines and uncaught errors that follow a failed request are its
consequences and go in its evidence. A page whose only failures are errors is fingerprinted by the
first error's normalised message (first line, URLs shaped the same way, numbers and ids replaced).
A lone GET of one item by its identifier answered 404 while the page loaded is an existence check
the page handles ("do I follow user 12?": 404 means no), not a bug; after a click it is the click's. So
is a GET answered 409 while the page loaded (`state_answer`: "is the printer connected?"). A partial opened as a document (no title, no script of its own: an htmx endpoint's rows) reports
only its failed requests: its handlers call functions of the page it is swapped into. The message is a harness template: what the page said (the error text, the console line, the failing
URL) is evidence only, which the explorer quarantines.
"""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet
from http import HTTPStatus
from urllib.parse import urlsplit

from bughunt.fingerprint import fingerprint, normalise_message, segment_shape
from bughunt.oracles.base import DEFAULT_CONFIG, Fetch, Finding, OracleConfig, evidence
from bughunt.oracles.minted_writes import minted_key
from bughunt.page import ClientError, FetchedPage
from bughunt.sim.route_keys import query_pairs
from bughunt.tree_facts import tree_facts
from bughunt.urls import route_of

_MESSAGES = {
    "js_error": "uncaught JavaScript error while the page ran",
    "console_error": "the page logged an error to the console",
}
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s'\"<>()\[\]]+", re.I)
_RANK = {"js_error": 0, "console_error": 1}


_CANCELLED = re.compile(r"^(?:Cancel|CancelError|Cancel+edError|CancellationError|AbortError)(?::|$)")
"""The names a request cancelled by the page's own script is thrown under, as `String(error)` gives
them: Dojo's `CancelError` (`deferred.cancel()`, a pane's load superseded by the next click), the DOM's
`AbortError` (`AbortController.abort()`, a media `play()` the page paused), axios' `CanceledError`
(`Cancel` before 1.0), Bluebird's and editors' `CancellationError`. The explorer cancels nothing a page
asked (a write it refuses fails as `TypeError: Failed to fetch`, a navigation ends the document), so
such an error is the page changing its mind, which a user never sees. (RxJS/Angular unsubscribing
throws nothing.)"""


def self_cancelled(error: ClientError) -> bool:
    """Whether an uncaught error is the page cancelling its own request (`_CANCELLED`): no error."""
    return error.kind == "js_error" and bool(_CANCELLED.match(error.text.strip()))


_FAILED = ("failed_request", "channel_error")
"""A request that failed, or a realtime channel's answer reporting an error (the browser engine's
`realtime`): both are what the page asked failing."""


def _message(error: ClientError) -> str:
    if error.kind == "channel_error":
        side = "a server error" if error.status is not None and error.status >= 500 else "an error"
        return f"a realtime channel answered an event of the page with {side}"
    if error.kind == "failed_request":
        if error.status is None:
            return "an XHR/fetch request of the page failed before any answer was usable"
        side = "server" if error.status >= 500 else "client"
        return f"an XHR/fetch request of the page failed with a {side} error status"
    return _MESSAGES[error.kind]


def route_words(route: str) -> set[str]:
    """Plain words the page's route carries as data: its path (or hash-route) segments after the
    first, which names the collection, and its query values."""
    words: set[str] = set()
    path, _, fragment = route.partition("#")
    for part in (path, fragment.removeprefix("!")):
        split = urlsplit(part)
        segments = [s for s in split.path.split("/") if s]
        words.update(s for s in segments[1:] if segment_shape(s) == s)
        words.update(v for _, v in query_pairs(split.query, decoded=True, blank=False) if v)
    return words


def url_shape(url: str, data_words: AbstractSet[str] = frozenset()) -> str:
    """`https://api/x/articles/how-to-k2p9/comments?limit=10` → `/x/articles/<slug>/comments?limit=<v>`:
    the path with placeholders for numbers, ids, slugs and `data_words`; query keys (sorted) with
    `<v>` for every value. Scheme and host are dropped (one API seen from two origins is one API)."""
    parts = urlsplit(url)
    segments = ["<v>" if s in data_words else (segment_shape(s) if s else s) for s in parts.path.split("/")]
    keys = sorted({k for k, _ in query_pairs(parts.query, decoded=True)})
    query = "&".join(f"{k}=<v>" for k in keys)
    return ("/".join(segments) or "/") + (f"?{query}" if query else "")


def request_method(error: ClientError) -> str:
    """The failed request's first word, its method (`"POST /api/x …"` → `POST`); GET when it has no text."""
    return error.text.split(" ", 1)[0].upper() if error.text else "GET"


def request_signature(error: ClientError, page_route: str = "") -> str:
    """What identifies a failed request across pages: method, path shape and status."""
    method = request_method(error)
    method = method if method.isalpha() and len(method) <= 8 else "GET"
    status = str(error.status) if error.status is not None else "failed"
    return f"{method} {url_shape(error.url, route_words(page_route))} {status}"


def error_signature(error: ClientError, page_route: str = "") -> str:
    """An error's message as a root cause: first line, URLs as their shapes, volatile values gone."""
    lines = error.text.strip().splitlines()
    first = lines[0] if lines else ""
    words = route_words(page_route)
    first = _URL.sub(lambda m: url_shape(m.group(0), words), first)
    return normalise_message(first)


def check_client_errors(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig = DEFAULT_CONFIG
) -> list[Finding]:
    """One finding per distinct failed request (method, path shape, status) of the page, each with
    every error the page showed as evidence (a failed fetch, then the console line about it, then the
    error the missing data causes); a page with no failed request gives one finding, named by its
    most telling error — an uncaught one before a console line."""
    partial = bool(page.client_errors) and partial_document(page)
    loaded = page.clicked_from is None
    errors = tuple(
        e
        for e in page.client_errors
        if not self_cancelled(e) and not (loaded and state_answer(e)) and (e.kind in _FAILED or not partial)
    )
    if errors and loaded and all(_existence_check(e) for e in errors):
        return []  # probes the page made as it loaded; a click's own 404 failed what it asked for
    if not errors:
        return []
    seen = [{"kind": e.kind, "text": e.text, "source": e.url, "status": e.status} for e in errors]
    failed = [e for e in errors if e.kind in _FAILED]
    findings = _after_click(page, failed, seen)
    if findings:
        # The click's own server errors are its bugs; what else the page said is their consequence.
        return findings
    if failed:
        causes: dict[str, ClientError] = {}
        for error in failed:
            causes.setdefault(request_signature(error, page.route), error)
        keyed = [(sig, error) for sig, error in causes.items()]
    else:
        first = sorted(errors, key=lambda e: _RANK.get(e.kind, 9))[0]
        keyed = [(error_signature(first, page.route), first)]
    for signature, error in keyed:
        message = _message(error)
        findings.append(
            Finding(
                "client_error",
                page.route,
                message,
                evidence(page, client_errors=seen, signature=signature, **_action(page)),
                fingerprint=fingerprint(signature, "client_error", message),
            )
        )
    return findings


_IDENTIFIERS = frozenset({"<n>", "<uuid>", "<id>"})


def state_answer(error: ClientError) -> bool:
    """A GET answered 409 Conflict: the resource cannot answer in the state it is in (a device not
    connected, a job not running), which the page asks as it loads to learn that state and show it —
    the server's answer by design, no failure of the page (a fault answers 5xx). One beside a real
    failure is left out of that one's evidence, as a cancelled request is; after a click it is the
    click's (`_after_click`), asked only while the page loaded."""
    if error.kind != "failed_request" or error.status != 409:
        return False
    return request_method(error) in ("GET", "HEAD")


def _existence_check(error: ClientError) -> bool:
    """A GET of one item by its identifier answered 404, alone (`GET /api/me/following/12`: "do I
    follow user 12?" — 404 is the answer "no", and the page goes on): an existence check the page
    handles by design. A missing collection or endpoint (`/api/posts/`) is not one, nor a 404 the
    page then fails on (an uncaught error or console line comes with it)."""
    if error.kind != "failed_request" or error.status != 404:
        return False
    method = request_method(error)
    last = [s for s in urlsplit(error.url).path.split("/") if s][-1:]
    return method in ("GET", "HEAD") and bool(last) and segment_shape(last[0]) in _IDENTIFIERS


def partial_document(page: FetchedPage) -> bool:
    """A partial answer opened as a document (an htmx endpoint's table rows): no title and no script
    of its own, so the functions its handlers call live in the page it is meant to be swapped into —
    its script errors are the explorer's doing, not a page a user sees."""
    if not page.is_html:
        return False
    if page.served_fragment:
        return True  # what the server sent, whatever a script of it added to the document since
    facts = tree_facts(page)
    return not facts.has("title") and not any(s.get("src") for s in facts.tagged("script"))


def _action(page: FetchedPage) -> dict[str, str]:
    """The click that made this state, as evidence (its label is page text: quarantined)."""
    if page.clicked_from is None:
        return {}
    before, label = page.clicked_from
    return {"action": label, "clicked_on": before.route}


def _after_click(
    page: FetchedPage, failed: list[ClientError], seen: list[dict[str, str | int | None]]
) -> list[Finding]:
    """A click in place (`FetchedPage.clicked_from`: a single-page app's pager, filter or tab) whose
    XHR/fetch answered 5xx: a server error of the API route, tied to the action that caused it — one
    finding per distinct request (method, path shape, status), on the request's own route."""
    if page.clicked_from is None:
        return []
    before, label = page.clicked_from
    findings: dict[str, Finding] = {}
    for error in failed:
        if error.status is None or error.status < 500:
            continue
        signature = request_signature(error, before.route)
        if signature in findings:
            continue
        try:
            reason = HTTPStatus(error.status).phrase
        except ValueError:
            reason = "Server Error"
        message = (
            f"HTTP {error.status} {reason} from an API request a click made"
            if error.kind == "failed_request"
            else f"a realtime event a click sent was answered with a server error ({error.status})"
        )
        method = signature.split(" ", 1)[0]
        facts = evidence(
            page,
            request=f"{method} {route_of(error.url)}",
            action=label,
            clicked_on=before.route,
            client_errors=seen,
            signature=signature,
        )
        # one handler filing records by their place in a tree, whichever control wrote (`minted_writes`)
        if (minted := minted_key(method, error.status, urlsplit(error.url).path)) is not None:
            facts["minted_key"] = minted
        findings[signature] = Finding(
            "server_error", route_of(error.url), message, facts,
            fingerprint=fingerprint(signature, "server_error", message),
        )  # fmt: skip
    return list(findings.values())
