"""Identifiers written in a text: ticket ids, file paths, routes, ISO dates and app versions.

Exact patterns only (no words, no language): what a question names verbatim, to be matched exactly
against the structured fields memory stores. Word boundaries are ASCII ones (`re.ASCII`): Chinese is
written without spaces, so in "BH-142的根本原因" or "在1.3.2里" the Chinese characters around an
identifier end it rather than make it part of a longer word. A version may carry a "v" ("v1.3.2").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TICKET = re.compile(r"(?<![\w-])[A-Z][A-Z0-9]+-\d+(?![\w-])", re.ASCII)
PATH = re.compile(r"(?<![\w/.-])[\w.-]+(?:/[\w.-]+)+\.[A-Za-z]\w*(?![\w/])", re.ASCII)
ROUTE = re.compile(r"(?<![\w./-])/[a-z0-9][\w/-]*", re.IGNORECASE | re.ASCII)
ISO_DATE = re.compile(r"(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)")
VERSION = re.compile(r"(?<![\w./-])(?:[vV](?=\d))?(\d+\.\d+(?:\.\d+)*)(?![\w/-]|\.\d)", re.ASCII)
"""The number is group 1 ("v1.3.2" names 1.3.2); `findall` gives the numbers."""


@dataclass(frozen=True)
class Named:
    tickets: tuple[str, ...]
    paths: tuple[str, ...]
    routes: tuple[str, ...]
    dates: tuple[str, ...]
    versions: tuple[str, ...]

    def all(self) -> tuple[str, ...]:
        return (*self.tickets, *self.paths, *self.routes, *self.dates, *self.versions)


def _uniq(xs: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(xs))


def named_identifiers(text: str) -> Named:
    paths = _uniq(PATH.findall(text))
    routes = [r.rstrip("/") or "/" for r in ROUTE.findall(text) if not any(r in p for p in paths)]
    return Named(
        tickets=_uniq(TICKET.findall(text)),
        paths=paths,
        routes=_uniq(routes),
        dates=_uniq(ISO_DATE.findall(text)),
        versions=_uniq(VERSION.findall(text)),
    )
