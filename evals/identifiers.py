"""Identifiers written in a text: ticket ids, file paths, routes, ISO dates and app versions.

Exact patterns only (no words, no language): what a question names verbatim, to be matched exactly
against the structured fields memory stores.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TICKET = re.compile(r"(?<![\w-])[A-Z][A-Z0-9]+-\d+(?![\w-])")
PATH = re.compile(r"(?<![\w/.-])[\w.-]+(?:/[\w.-]+)+\.[A-Za-z]\w*(?![\w/])")
ROUTE = re.compile(r"(?<![\w./-])/[a-z0-9][\w/-]*", re.IGNORECASE)
ISO_DATE = re.compile(r"(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)")
VERSION = re.compile(r"(?<![\w./-])\d+\.\d+(?:\.\d+)*(?![\w/-]|\.\d)")


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
