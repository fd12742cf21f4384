"""The store's write boundary for secrets: a connection that scrubs what it is given to write."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..secrets import Scrubber


class ScrubbingConnection(sqlite3.Connection):
    """An SQLite connection that scrubs every string parameter it is given to write or compare with:
    the store's write boundary, whichever of its parts writes."""

    scrubber: Scrubber | None = None

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        return super().execute(sql, self._scrubbed(parameters))

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> sqlite3.Cursor:
        scrubber = self.scrubber
        if not scrubber:
            return super().executemany(sql, parameters)
        rows = parameters if type(parameters) is list else list(parameters)
        # The rows of one statement (a page's links, its observations) hold no secret as a rule:
        # their strings are searched once, joined, and written as given when none holds a form
        # (a form found across a joint only sends them the row-by-row way, which finds it or not).
        strings = _row_strings(rows)
        if strings is not None and scrubber.holds_none("\0".join(strings)):
            return super().executemany(sql, rows)
        return super().executemany(sql, [self._scrubbed(p) for p in rows])

    def as_written(self, value: str) -> str:
        """`value` as a parameter of this connection is written (scrubbed)."""
        scrubber = self.scrubber
        return scrubber.text(value) if scrubber else value

    def _scrubbed(self, parameters: Any) -> Any:
        scrubber = self.scrubber
        if not scrubber:
            return parameters
        kind = type(parameters)
        # a tuple or a list first, by its type: `isinstance` against the ABCs below costs more than
        # scrubbing a step's short parameters (~60 statements a step)
        if kind is not tuple and kind is not list:
            if isinstance(parameters, Mapping):
                return {k: scrubber.data(v) for k, v in parameters.items()}
            if not isinstance(parameters, Sequence) or isinstance(parameters, (str, bytes)):
                return parameters
        # a statement's parameters are mostly numbers, None and plain strings: those are dispatched
        # here, without a call of `data` each (a step writes ~100 of them)
        text, data = scrubber.text, scrubber.data
        return tuple(
            [
                text(v) if type(v) is str else v if v is None or type(v) in _AS_THEY_ARE else data(v)
                for v in parameters
            ]
        )


def _row_strings(rows: list[Any]) -> list[str] | None:
    """The strings of rows made only of tuples of strings, numbers, bytes and None (what
    `_scrubbed` would write unchanged but for the strings); None for any other row."""
    strings: list[str] = []
    for row in rows:
        if type(row) is not tuple:
            return None
        for v in row:
            if type(v) is str:
                strings.append(v)
            elif v is not None and type(v) not in _AS_THEY_ARE:
                return None
    return strings


_AS_THEY_ARE = frozenset((int, float, bytes))
"""Parameter types `Scrubber.data` returns unchanged (no text inside)."""
