"""Pages for oracle tests: what a site would answer, served from a dict (one fetcher for every oracle
test module)."""

from __future__ import annotations

from collections.abc import Callable

from bughunt.page import FetchedPage
from bughunt.urls import route_of


class Fetcher:
    """An oracle's `fetch` over the given pages; any other URL answers `missing(url)` (a 404 page)."""

    def __init__(self, *pages: FetchedPage, missing: Callable[[str], FetchedPage]) -> None:
        self.pages = {p.url: p for p in pages}
        self.missing = missing
        self.calls: list[str] = []

    def __call__(self, url: str) -> FetchedPage:
        self.calls.append(url)
        return self.pages.get(url) or self.missing(url)


def not_found(make: Callable[[str, str, int], FetchedPage]) -> Callable[[str], FetchedPage]:
    """A 404 page made by a test module's own page builder `make(body, path, status)`."""
    return lambda url: make("<h1>Not found</h1>", route_of(url), 404)
