"""The `meta` table: base URL, current app version, built-in-site flag, position, planned walk..."""

from __future__ import annotations

import sqlite3

from .scrubbing import ScrubbingConnection


class Meta:
    """Keys and values. The writing process (`kept`) answers from a copy kept in step with its own
    writes — a step asks for the version, the position and the idle controls ~6 times, and only
    its own process writes the store — and drops it when a transaction rolls back (`forget_copy`).
    A reader reads the table every time: the writer is another process."""

    def __init__(self, db: sqlite3.Connection, *, kept: bool = False) -> None:
        self.db = db
        self._kept = kept
        self._copy: dict[str, str | None] = {}

    def get(self, key: str, default: str | None = None) -> str | None:
        if self._kept and key in self._copy:
            value = self._copy[key]
        else:
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            value = str(row["value"]) if row else None
            if self._kept:
                self._copy[key] = value
        return default if value is None else value

    def set(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))
        if self._kept:
            # what the file holds: the value scrubbed of the session's secrets
            db = self.db
            self._copy[key] = db.as_written(value) if isinstance(db, ScrubbingConnection) else value

    def forget_copy(self) -> None:
        self._copy.clear()
