"""The `meta` table: base URL, current app version, built-in-site flag, position, planned walk..."""

from __future__ import annotations

import sqlite3


class Meta:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def get(self, key: str, default: str | None = None) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row["value"]) if row else default

    def set(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))
