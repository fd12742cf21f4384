"""Pages for oracle tests: what a site would answer, served from a dict (one fetcher for every oracle
test module)."""

from __future__ import annotations

import json
from collections.abc import Callable

from bughunt.explorer.store import Bug
from bughunt.oracles.base import Finding
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


class Recorder:
    """A fetch that serves the given pages, refuses (OSError) any other URL and remembers every URL
    asked for."""

    def __init__(self, *pages: FetchedPage) -> None:
        self.pages = {p.url: p for p in pages}
        self.asked: list[str] = []

    def __call__(self, url: str) -> FetchedPage:
        self.asked.append(url)
        if url not in self.pages:
            raise OSError(f"not served: {url}")
        return self.pages[url]


def not_found(make: Callable[[str, str, int], FetchedPage]) -> Callable[[str], FetchedPage]:
    """A 404 page made by a test module's own page builder `make(body, path, status)`."""
    return lambda url: make("<h1>Not found</h1>", route_of(url), 404)


class Site:
    """Pages of one imaginary site: `page(body, path, status)` frames `body` in the site's layout
    (`before` + body + `after`) at `origin + path`; `fetcher(*pages)` serves them, any other URL a 404
    page of the site."""

    def __init__(self, origin: str, before: str, after: str) -> None:
        self.origin, self.before, self.after = origin, before, after

    def page(self, body: str, path: str = "/", status: int = 200) -> FetchedPage:
        url = self.origin + path
        return FetchedPage(url, route_of(url), status, {}, "text/html", self.before + body + self.after, 1.0)

    def fetcher(self, *pages: FetchedPage) -> Fetcher:
        return Fetcher(*pages, missing=not_found(self.page))


def open_bug(finding: Finding) -> Bug:
    """The open bug memory keeps of `finding`: its facts stored as numbers only (page text is
    quarantined), as the root-cause merge reads them."""
    facts = {k: v for k, v in finding.evidence.items() if not isinstance(v, str)}
    return Bug(
        1, finding.fingerprint, finding.route, finding.kind, finding.message, json.dumps(facts), "open",
        None, 0.0, 1, None,
    )  # fmt: skip
