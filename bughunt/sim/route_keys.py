"""What makes two routes the same page: a request token's value does not.

One function (`page_key`) shared by everything that asks whether a route is a page already seen: the
planner's seen links, the re-test walk's known pages and the visited set's repeat test. It lives in the
simulator's layer, the lowest that reads routes, so the planner (which may not import `bughunt.urls`)
and the explorer read it from the same place.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

FORGERY_WORDS = "csrf|xsrf|nonce|authenticity|sesskey"
"""What a query key of an anti-forgery token says (`csrf_token`, `authenticity_token`, `_wpnonce`,
`sesskey`): one kind of request token (`TOKEN_KEY`), the one a site puts on a link that writes
(`guarded_gets.FORGERY_KEY`)."""
TOKEN_KEY = re.compile(rf"(?i){FORGERY_WORDS}|token|signature|tok$|^sig$|^_?hash$")
"""A query key carrying a request token (`csrf_token`, `authenticity_token`, `_nonce`, `sectok`, `sesskey`,
`sig`): a site draws it afresh on every load (or signs the link with it), so one link has a new address each
time the page is shown. Whole-word shapes only for the short ones: `stock` or `hashtag` are data."""

REQUEST_ID_KEY = re.compile(r"^_?(?:rid|req_?id|request_?id)$", re.I)
"""A query key naming the request itself (`rid`, `request_id`): a front controller that forwards a request
internally stamps the request's id on it, and the page's links carry it on (a feed reader's view links,
`?a=normal&get=f_3&rid=6b13da486e5e1`, a new id on every load: 54 of 100 clicks went to its views
again under new ids)."""
_DRAWN_ID = re.compile(r"[0-9a-f]{10,40}", re.I)
"""A value drawn per request (PHP's `uniqid()`, a hex digest), not a record's number: `rid=42` may be a
room or a revision."""

PageKey = tuple[str, tuple[tuple[str, str], ...]]


def is_token(key: str, value: str) -> bool:
    """Whether a query pair carries a value drawn afresh for each request: a token by its key's name
    (`csrf_token`), or a request's id (`REQUEST_ID_KEY`) holding a drawn value (hex with a letter)."""
    if TOKEN_KEY.search(key):
        return True
    return bool(REQUEST_ID_KEY.match(key) and _DRAWN_ID.fullmatch(value) and not value.isdigit())


_PAIR = re.compile(r"[^=&;]+=")


def query_parts(query: str) -> list[str]:
    """The `key=value` parts of a query, as the site wrote them: split at `&`, and at `;` where it
    separates pairs as `&` does — HTML 4.01 asked servers to accept it (§B.2.2) and CGI.pm's links use
    it (gitweb: `?p=repo.git;a=commit;h=<sha>`), so that every piece between `;`s is a `key=value`. A
    `;` inside a value (`?q=a;b`) stays in it."""
    parts: list[str] = []
    for part in query.split("&"):
        if ";" in part:
            pieces = [p for p in part.split(";") if p]
            if all(_PAIR.match(p) for p in pieces):
                parts.extend(pieces)
                continue
        if part:
            parts.append(part)
    return parts


def query_pairs(query: str, *, decoded: bool = False, blank: bool = True) -> list[tuple[str, str]]:
    """The query's `(key, value)` pairs in order (`query_parts`), as written or `decoded` as a form's
    fields are (`+` a space, `%xx` escapes, as `parse_qsl` does); without `blank`, a key with no value
    is left out."""
    pairs = [(k, v) for k, _, v in (p.partition("=") for p in query_parts(query))]
    if decoded:
        pairs = [(unquote_plus(k), unquote_plus(v)) for k, v in pairs]
    return pairs if blank else [(k, v) for k, v in pairs if v]


def page_key(route: str) -> PageKey:
    """A route's path and its query parameters in order, a request token's value masked: a toggle
    re-drawn with a fresh token (`?show=1&csrf_token=<new>`) is the page seen again."""
    path, _, query = route.partition("?")
    return path, tuple(sorted((k, "<token>" if is_token(k, v) else v) for k, v in query_pairs(query)))


def has_token(route: str) -> bool:
    """Whether the route's query names a request token (only such routes can alias another)."""
    _, _, query = route.partition("?")
    return bool(query) and any(is_token(k, v) for k, v in query_pairs(query))
