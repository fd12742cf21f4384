"""What several oracles read off pages, read once: a link's absolute target (`resolve`) is asked for by
the pagination, count, form and destructive-action oracles alike, and again when the page is read as
another page of a list; a URL's page number by the count and pagination oracles. Each function here is
pure (strings in, a value out), so a kept answer is the answer."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import parse_qsl, urlsplit

from bughunt.urls import absolute

PAGE_KEYS = frozenset({"page", "p", "pg", "pagenum", "page_number"})
"""Query parameters that name a page of a list (`?page=3`)."""

KEPT = 8192
"""Answers kept per function: a page's links resolve against its own base, so the few pages a step
reads (the page, a previous page, a counted list's others) fit many times over, in ~2 MB at most."""


@lru_cache(maxsize=KEPT)
def resolve(base: str, href: str) -> str | None:
    """`bughunt.urls.absolute(base, href)`, kept."""
    return absolute(base, href)


@lru_cache(maxsize=KEPT)
def list_page_key(url: str) -> tuple[str, str]:
    """A URL as the page of a list it names: path and page number (a bare list URL is page 1)."""
    parts = urlsplit(url)
    number = next((v for k, v in parse_qsl(parts.query) if k.lower() in PAGE_KEYS and v.isdigit()), "1")
    return parts.path.rstrip("/") or "/", str(int(number))


@lru_cache(maxsize=KEPT)
def numbered_page_of(url: str) -> str | None:
    """The path of `url` when its query names a page by number (`/tag/x?page=3` → `/tag/x`), else None."""
    parts = urlsplit(url)
    named = any(k.lower() in PAGE_KEYS and v.isdigit() for k, v in parse_qsl(parts.query))
    return parts.path if named else None
