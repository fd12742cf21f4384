"""Sessions (every explore or resume run, with its stop reason) and steps (every fetch it made)."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from memgpt_lite.storage.sqlite import transaction

from .rows import Session, Step, row_as, rows_as


class History:
    """Sessions and steps. The writing process (`kept`) keeps the number of steps in step with its
    own `add_step` (asked two or three times a step), dropped when a transaction rolls back."""

    def __init__(self, db: sqlite3.Connection, *, kept: bool = False) -> None:
        self.db = db
        self._kept = kept
        self._count: int | None = None

    def sessions(self) -> list[Session]:
        return rows_as(Session, self.db.execute("SELECT * FROM sessions ORDER BY id"))

    def last_session(self) -> Session | None:
        row = self.db.execute("SELECT * FROM sessions ORDER BY id DESC LIMIT 1").fetchone()
        return row_as(Session, row) if row else None

    def steps(self, session_id: int | None = None) -> list[Step]:
        if session_id is None:
            return rows_as(Step, self.db.execute("SELECT * FROM steps ORDER BY n"))
        return rows_as(
            Step, self.db.execute("SELECT * FROM steps WHERE session_id = ? ORDER BY n", (session_id,))
        )

    def moves_after(self, n: int) -> list[tuple[int, str, str | None, str]]:
        """(number, route, final route, outcome) of each step written after step `n`, in order: what a
        reader following the walk step by step needs, without a whole `Step` made of each row."""
        return [
            (int(r[0]), r[1], r[2], r[3])
            for r in self.db.execute(
                "SELECT n, route, final_route, outcome FROM steps WHERE n > ? ORDER BY n", (n,)
            )
        ]

    def last_step(self) -> Step | None:
        row = self.db.execute("SELECT * FROM steps ORDER BY n DESC LIMIT 1").fetchone()
        return row_as(Step, row) if row else None

    def step_count(self) -> int:
        count = self._count
        if count is None:
            count = int(self.db.execute("SELECT COALESCE(MAX(n), 0) FROM steps").fetchone()[0])
            if self._kept:
                self._count = count
        return count

    def forget_copy(self) -> None:
        self._count = None

    def loaded_in_session(self, route: str, session_id: int, before: int) -> bool:
        """Whether session `session_id` loaded `route` as a page before step `before`."""
        row = self.db.execute(
            "SELECT 1 FROM steps WHERE session_id = ? AND n < ? AND outcome = 'page'"
            " AND (route = ? OR final_route = ?) LIMIT 1",
            (session_id, before, route, route),
        ).fetchone()
        return row is not None

    def repeat_visits(self) -> int:
        return int(self.db.execute("SELECT COALESCE(SUM(repeat), 0) FROM steps").fetchone()[0])

    def start_session(self, policy: str, base_url: str, budget: int) -> tuple[int, str]:
        """A new running session, in its own transaction: (id, name)."""
        with transaction(self.db):
            n = self.db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] + 1
            name = f"session-{n}"
            cur = self.db.execute(
                "INSERT INTO sessions(name, policy, base_url, budget, started_at, status) VALUES (?,?,?,?,?,?)",
                (name, policy, base_url, budget, time.time(), "running"),
            )
            return int(cur.lastrowid or 0), name

    def end_session(
        self, session_id: int, status: str, *, clicks: int | None = None, fetches: int | None = None,
        detail: str = "",
    ) -> None:  # fmt: skip
        """Close a session with its stop reason (contract 4), its clicks and fetches, and the harness's
        detail of the reason (routes and counts only); in its own transaction."""
        with transaction(self.db):
            self.db.execute(
                "UPDATE sessions SET ended_at = ?, status = ?, clicks = ?, fetches = ?, stop_detail = ?"
                " WHERE id = ?",
                (time.time(), status, clicks, fetches, detail, session_id),
            )

    def add_step(self, session_id: int, **fields: Any) -> int:
        """Record one fetch (inside the step's transaction); returns its number."""
        n = self.step_count() + 1
        cols = ["n", "session_id", *fields]
        self.db.execute(
            f"INSERT INTO steps({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
            (n, session_id, *fields.values()),
        )
        if self._kept:
            self._count = n
        return n
