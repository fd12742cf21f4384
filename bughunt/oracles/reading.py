"""What several oracles read off pages, read once: a link's absolute target (`resolve`) is asked for by
the pagination, count, form and destructive-action oracles alike, and again when the page is read as
another page of a list; a URL's page number by the count and pagination oracles. Each function here is
pure (strings in, a value out), so a kept answer is the answer."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit

from bughunt.sim.planner import is_offset_key as is_offset_key
from bughunt.sim.planner import is_page_key as is_page_key
from bughunt.sim.route_keys import query_pairs
from bughunt.urls import absolute

KEPT = 8192
"""Answers kept per function: a page's links resolve against its own base, so the few pages a step
reads (the page, a previous page, a counted list's others) fit many times over, in ~2 MB at most."""


_NO_VALUE = frozenset({"", "none", "null", "nil", "undefined", "-", "—", "–"})
"""What a page prints for a value that is not stored (a template printing Python's None, a dash)."""


def missing_value(text: str) -> bool:
    """Whether a shown value is the print of a missing one ("None", "null", "—", nothing)."""
    return " ".join(text.split()).casefold() in _NO_VALUE


@lru_cache(maxsize=KEPT)
def resolve(base: str, href: str) -> str | None:
    """`bughunt.urls.absolute(base, href)`, kept."""
    return absolute(base, href)


def page_value(value: str) -> int | None:
    """A page parameter's value as a number, whitespace around it ignored: a template that breaks
    `href="?page=\n  2"` over lines gives `?page=%20%202` once the newline is dropped (as URL parsers
    do), and servers read it as page 2 (Python's `int`, PHP's `intval`, JavaScript's `Number` alike)."""
    text = value.strip()
    return int(text) if text.isdigit() else None


def page_param(query: str) -> tuple[str, int] | None:
    """The first parameter of `query` named as a page whose value is a number: (its key, the number)."""
    for key, value in query_pairs(query, decoded=True):
        if is_page_key(key) and (number := page_value(value)) is not None:
            return key, number
    return None


CURSOR_KEYS = frozenset(
    "before after cursor next maxid minid sinceid untilid beforeid afterid startingafter endingbefore"
    " pagetoken nextpagetoken nexttoken".split()
)
"""Query keys a keyset (cursor) pager names a page by, their marks and joins aside (`_KEY_MARKS`): the
record or token it starts past (`?before=58`, `?max_id=…`, a data browser's `?_next=20`, an API's
`?page_token=…`). Their values are no page numbers."""

_KEY_MARKS = re.compile(r"[@$:_\-]")


@lru_cache(maxsize=KEPT)
def is_cursor_key(key: str) -> bool:
    """Whether a query key names a cursor pager's page (`CURSOR_KEYS`), however it is marked or joined."""
    return _KEY_MARKS.sub("", key.lower()) in CURSOR_KEYS


def is_cursor(key: str, value: str) -> bool:
    """Whether a query pair names a page of a cursor pager: a cursor key with a token. A value that is
    a path or an address is where a login or a form sends the user next (`?next=/admin`), no page."""
    value = value.strip()
    return is_cursor_key(key) and bool(value) and not value.startswith("/") and "://" not in value


@lru_cache(maxsize=KEPT)
def names_later_page(url: str) -> bool:
    """Whether `url` names a page of a list by its number (`?page=2`), by the rows it starts past
    (`?offset=20`, `?@startwith=49`) or by the record a cursor pager starts past (`?_next=20`): a page
    after the list's first."""
    for key, value in query_pairs(urlsplit(url).query, decoded=True):
        number = page_value(value)
        if number is not None and (is_page_key(key) or (is_offset_key(key) and number > 0)):
            return True
        if is_cursor(key, value):
            return True
    return False


@lru_cache(maxsize=KEPT)
def list_page_key(url: str, first: int = 1) -> tuple[str, str]:
    """A URL as the page of a list it names: path and page number (a bare list URL is the first page,
    `first`: 1, or 0 for a pager counting from 0 — `lists.first_page_number`)."""
    parts = urlsplit(url)
    named = page_param(parts.query)
    return parts.path.rstrip("/") or "/", str(named[1] if named else first)


@lru_cache(maxsize=KEPT)
def named_page(url: str) -> int | None:
    """The number of the page `url` names by a page parameter (`?page=3` → 3), else None."""
    named = page_param(urlsplit(url).query)
    return named[1] if named else None


@lru_cache(maxsize=KEPT)
def numbered_page_of(url: str) -> str | None:
    """The path of `url` when its query names a page by number (`/tag/x?page=3` → `/tag/x`), else None."""
    parts = urlsplit(url)
    return parts.path if page_param(parts.query) else None
