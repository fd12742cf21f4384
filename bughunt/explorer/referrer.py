"""The `Referer` a click sends: a browser following a link tells the site which page the link was on
(Fetch standard, "determine request's referrer"), and sites rely on it — a write refused when the
request does not come from the site's own pages (Fossil's `PROTECT_READONLY`, Django's HTTPS CSRF
check), a "back" after an action (`redirect(request.referrer)`). A load the explorer makes as a
click on a page sends it; a load typed into the address bar (a start page, an oracle's look) does not.

The page's referrer policy (`Referrer-Policy` header, `<meta name="referrer">`) is honoured for the
same-origin requests the explorer makes: `no-referrer` sends none, `origin` / `strict-origin` the origin
alone, any other policy (the default `strict-origin-when-cross-origin` included) the page's address
without its fragment."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts

_POLICIES = frozenset((
    "no-referrer", "no-referrer-when-downgrade", "same-origin", "origin", "strict-origin",
    "origin-when-cross-origin", "strict-origin-when-cross-origin", "unsafe-url",
))  # fmt: skip
_ORIGIN_ONLY = frozenset(("origin", "strict-origin"))
# The legacy keywords the HTML standard maps onto the policies (`<meta name=referrer content=never>`).
_LEGACY = {"never": "no-referrer", "default": "strict-origin-when-cross-origin", "always": "unsafe-url",
           "origin-when-crossorigin": "origin-when-cross-origin"}  # fmt: skip


def policy(page: FetchedPage) -> str:
    """The page's referrer policy: the last one it states that a browser knows (the header's list
    is read left to right, a `<meta>` after it overrides), else the default."""
    found = "strict-origin-when-cross-origin"
    for token in page.header("referrer-policy").split(","):
        word = token.strip().lower()
        if word in _POLICIES:
            found = word
    if page.is_html and "referrer" in page.body.lower():
        for meta in tree_facts(page).tagged("meta"):
            if meta.get("name").strip().lower() != "referrer":
                continue
            word = meta.get("content").strip().lower()
            word = _LEGACY.get(word, word)
            if word in _POLICIES:
                found = word
    return found


def referer(page: FetchedPage | None, address: str) -> str | None:
    """The `Referer` a click on `page` (at `address`, its URL) sends to its own origin; None when the
    page's policy sends none. `page` None (not held): the default policy's answer."""
    rule = policy(page) if page is not None else "strict-origin-when-cross-origin"
    if rule == "no-referrer":
        return None
    parts = urlsplit(address)
    if not parts.scheme or not parts.hostname:
        return None
    # Credentials never travel in a Referer (Fetch: "strip url for use as a referrer").
    netloc = parts.netloc.rpartition("@")[2]
    if rule in _ORIGIN_ONLY:
        return urlunsplit((parts.scheme, netloc, "/", "", ""))
    return urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))
