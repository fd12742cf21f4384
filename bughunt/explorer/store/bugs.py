"""The bug table keyed by fingerprint, the reports the run emitted, and the model's own reports.

Exactly one live entry per fingerprint (a partial unique index enforces it): a changed status inserts
a new entry and stamps the old one `superseded_by`. A report of an already-open fingerprint is a
duplicate. `model_reports` are bugs the llm policy reported that no oracle backs (contract 6): kept
apart, never counted.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from .rows import Bug, ModelReport, Occurrence, Report, row_as, rows_as


class BugTable:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self._live: list[Bug] | None = None
        """The live entries, read once and again after each write of this connection (a policy reads
        them every step; bugs are written far more rarely)."""

    def forget_copy(self) -> None:
        self._live = None

    # -- bugs ------------------------------------------------------------------------------------
    def live(self) -> list[Bug]:
        if self._live is None:
            self._live = rows_as(
                Bug, self.db.execute("SELECT * FROM bugs WHERE superseded_by IS NULL ORDER BY id")
            )
        return list(self._live)

    def all(self) -> list[Bug]:
        """Every entry, live and superseded, oldest first."""
        return rows_as(Bug, self.db.execute("SELECT * FROM bugs ORDER BY id"))

    def live_one(self, fingerprint: str) -> Bug | None:
        row = self.db.execute(
            "SELECT * FROM bugs WHERE fingerprint = ? AND superseded_by IS NULL", (fingerprint,)
        ).fetchone()
        return row_as(Bug, row) if row else None

    def insert(
        self, fingerprint: str, route: str, kind: str, message: str, evidence: Any, status: str,
        version: str | None, now: float, step: int | None,
    ) -> int:  # fmt: skip
        """Insert the new live entry for `fingerprint`, superseding the previous live one (if any)."""
        self._live = None
        old = self.live_one(fingerprint)
        if old is not None:
            # Free the "one live entry" slot first, then point the old entry at its successor.
            self.db.execute("UPDATE bugs SET superseded_by = -1 WHERE id = ?", (old.id,))
        cur = self.db.execute(
            "INSERT INTO bugs(fingerprint, route, kind, message, evidence, status, version, seen_at, step)"
            " VALUES (?,?,?,?,?,?,?,?,?)",
            (
                fingerprint,
                route,
                kind,
                message,
                json.dumps(evidence, default=str),
                status,
                version,
                now,
                step,
            ),
        )
        new_id = int(cur.lastrowid or 0)
        if old is not None:
            self.db.execute("UPDATE bugs SET superseded_by = ? WHERE id = ?", (new_id, old.id))
        return new_id

    def attach(self, fingerprint: str, facts: dict[str, Any]) -> None:
        """Add harness facts (the names of evidence files) to the live entry's evidence."""
        live = self.live_one(fingerprint)
        if live is None:
            return
        self._live = None
        evidence = json.loads(live.evidence or "{}")
        evidence.update(facts)
        self.db.execute(
            "UPDATE bugs SET evidence = ? WHERE id = ?", (json.dumps(evidence, default=str), live.id)
        )

    def confirm(self, bug_id: int, version: str | None, now: float) -> None:
        """The symptom showed again with the same status: no new entry, just when and under which version."""
        self._live = None
        self.db.execute(
            "UPDATE bugs SET last_seen_version = ?, last_seen_at = ? WHERE id = ?", (version, now, bug_id)
        )

    # -- reports ---------------------------------------------------------------------------------
    def reports(self) -> list[Report]:
        return rows_as(Report, self.db.execute("SELECT * FROM reports ORDER BY id"))

    def add_report(
        self, step: int, session_id: int, fingerprint: str, route: str, kind: str, duplicate: bool,
        source: str, now: float,
    ) -> None:  # fmt: skip
        self.db.execute(
            "INSERT INTO reports(step, session_id, fingerprint, route, kind, duplicate, source, at)"
            " VALUES (?,?,?,?,?,?,?,?)",
            (step, session_id, fingerprint, route, kind, int(duplicate), source, now),
        )

    def ever_reported(self, fingerprint: str) -> bool:
        """Whether `fingerprint` was ever reported as new (not as a duplicate)."""
        row = self.db.execute(
            "SELECT 1 FROM reports WHERE fingerprint = ? AND duplicate = 0 LIMIT 1", (fingerprint,)
        ).fetchone()
        return row is not None

    def duplicate_reports(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM reports WHERE duplicate = 1").fetchone()[0])

    # -- occurrences ---------------------------------------------------------------------------
    def add_occurrence(self, fingerprint: str, route: str, step: int) -> None:
        """`fingerprint` was seen on `route` at `step` (again, or for the first time on that route)."""
        self.db.execute(
            "INSERT INTO occurrences(fingerprint, route, first_step, last_step, count) VALUES (?,?,?,?,1)"
            " ON CONFLICT(fingerprint, route) DO UPDATE SET last_step = MAX(last_step, excluded.last_step),"
            " count = count + 1",
            (fingerprint, route, step, step),
        )

    def occurrence_routes(self, fingerprint: str, limit: int) -> list[str]:
        """The first `limit` routes `fingerprint` was seen on, in the order they were first seen."""
        try:
            rows = self.db.execute(
                "SELECT route FROM occurrences WHERE fingerprint = ? ORDER BY first_step, route LIMIT ?",
                (fingerprint, limit),
            ).fetchall()
        except sqlite3.OperationalError:  # a store written before the table existed, opened read-only
            return []
        return [str(r[0]) for r in rows]

    def occurrences(self) -> dict[str, list[Occurrence]]:
        """Every bug's occurrences by fingerprint, in the order the routes were first seen."""
        try:
            rows = rows_as(
                Occurrence, self.db.execute("SELECT * FROM occurrences ORDER BY first_step, route")
            )
        except sqlite3.OperationalError:  # a store written before the table existed, opened read-only
            return {}
        out: dict[str, list[Occurrence]] = {}
        for o in rows:
            out.setdefault(o.fingerprint, []).append(o)
        return out

    # -- the model's own reports -----------------------------------------------------------------
    def model_reports(self) -> list[ModelReport]:
        try:
            return rows_as(ModelReport, self.db.execute("SELECT * FROM model_reports ORDER BY id"))
        except sqlite3.OperationalError:  # a store written before the table existed, opened read-only
            return []

    def add_model_report(
        self, route: str, kind: str, observation: int | None, session_id: int | None, step: int | None,
        now: float,
    ) -> None:  # fmt: skip
        self.db.execute(
            "INSERT INTO model_reports(route, kind, observation, session_id, step, at) VALUES (?,?,?,?,?,?)",
            (route, kind, observation, session_id, step, now),
        )
