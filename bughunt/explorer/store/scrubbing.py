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
        return super().executemany(sql, (self._scrubbed(p) for p in parameters))

    def as_written(self, value: str) -> str:
        """`value` as a parameter of this connection is written (scrubbed)."""
        scrubber = self.scrubber
        return scrubber.text(value) if scrubber else value

    def _scrubbed(self, parameters: Any) -> Any:
        scrubber = self.scrubber
        if not scrubber:
            return parameters
        if isinstance(parameters, Mapping):
            return {k: scrubber.data(v) for k, v in parameters.items()}
        if isinstance(parameters, Sequence) and not isinstance(parameters, (str, bytes)):
            # a statement's parameters are mostly numbers, None and plain strings: those are dispatched
            # here, without a call of `data` each (a step writes ~100 of them)
            text, data = scrubber.text, scrubber.data
            return tuple(
                text(v) if type(v) is str else v if v is None or type(v) in _AS_THEY_ARE else data(v)
                for v in parameters
            )
        return parameters


_AS_THEY_ARE = frozenset((int, float, bytes))
"""Parameter types `Scrubber.data` returns unchanged (no text inside)."""
