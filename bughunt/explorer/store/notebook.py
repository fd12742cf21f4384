"""What is kept besides the structured tables: the model's notes (those that passed the page-text
filter) and the harness's one hand-over note; quarantined observations (raw page text with
provenance — data for audit, never fact, note, instruction or working context); and rejections
(what the gate refused to keep, and why)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from .rows import Note, Observation, Rejection, rows_as

MAX_PROVENANCE_CHARS = 2_048
"""The longest string kept in an observation's provenance (a URL, a route)."""


_ADD_OBSERVATION = (
    "INSERT INTO observations(text, provenance, quarantined, step, at, last_used_at) VALUES (?,?,1,?,?,?)"
)


def _observation_row(
    text: str, provenance: dict[str, Any], step: int | None, now: float
) -> tuple[str, str, int | None, float, float]:
    # A provenance URL is the page's own (a `history.replaceState` loop makes one of 300,000
    # characters, once per step): each string is kept to MAX_PROVENANCE_CHARS.
    bounded = {
        k: v[:MAX_PROVENANCE_CHARS] + "…" if isinstance(v, str) and len(v) > MAX_PROVENANCE_CHARS else v
        for k, v in provenance.items()
    }
    return (text, json.dumps(bounded, sort_keys=True), step, now, now)


class Notebook:
    """The writing process (`kept`) answers `notes` from a copy read once after its last write to
    them — the working context lists the notes at every step, and only its own process writes the
    store — dropped when a transaction rolls back (`forget_copy`). A reader reads the table each time."""

    def __init__(self, db: sqlite3.Connection, *, kept: bool = False) -> None:
        self.db = db
        self._kept = kept
        self._notes: list[Note] | None = None

    def notes(self) -> list[Note]:
        if self._kept and self._notes is not None:
            return list(self._notes)
        notes = rows_as(Note, self.db.execute("SELECT * FROM notes ORDER BY id"))
        if self._kept:
            self._notes = list(notes)
        return notes

    def forget_copy(self) -> None:
        self._notes = None

    def add_note(
        self, text: str, session_id: int | None, step: int | None, now: float, author: str = "model"
    ) -> None:
        self._notes = None
        if author == "harness":
            # One hand-over at a time: the newest replaces the last (it summarises everything before it).
            self.db.execute("DELETE FROM notes WHERE author = 'harness'")
        self.db.execute(
            "INSERT INTO notes(text, session_id, step, at, last_used_at, author) VALUES (?,?,?,?,?,?)",
            (text, session_id, step, now, now, author),
        )

    def observations(self) -> list[Observation]:
        return rows_as(Observation, self.db.execute("SELECT * FROM observations ORDER BY id"))

    def observations_by_id(self, ids: list[int]) -> dict[int, Observation]:
        """The observations with these ids (an expired one is simply missing)."""
        out: dict[int, Observation] = {}
        for start in range(0, len(ids), 500):  # SQLite's bound on parameters, with room to spare
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self.db.execute(f"SELECT * FROM observations WHERE id IN ({marks})", chunk)
            out.update((o.id, o) for o in rows_as(Observation, rows))
        return out

    def observations_from(self, source: str) -> list[Observation]:
        """The observations whose provenance names `source` (oldest first)."""
        needle = json.dumps({"source": source})[1:-1]  # '"source": "…"', as add_observation writes it
        rows = self.db.execute(
            "SELECT * FROM observations WHERE instr(provenance, ?) > 0 ORDER BY id", (needle,)
        )
        return rows_as(Observation, rows)

    def add_observation(self, text: str, provenance: dict[str, Any], step: int | None, now: float) -> int:
        cur = self.db.execute(_ADD_OBSERVATION, _observation_row(text, provenance, step, now))
        return int(cur.lastrowid or 0)

    def add_observations(
        self, observations: Sequence[tuple[str, dict[str, Any]]], step: int | None, now: float
    ) -> None:
        """`add_observation` of each (text, provenance), in order, as one statement (a step keeps a
        page's headers and its text)."""
        self.db.executemany(
            _ADD_OBSERVATION, [_observation_row(text, prov, step, now) for text, prov in observations]
        )

    def rejections(self) -> list[Rejection]:
        return rows_as(Rejection, self.db.execute("SELECT * FROM rejections ORDER BY id"))

    def add_rejection(self, what: str, text: str, reason: str, step: int | None, now: float) -> None:
        self.db.execute(
            "INSERT INTO rejections(what, text, reason, step, at) VALUES (?,?,?,?,?)",
            (what, text, reason, step, now),
        )

    def expire(self, cutoff: float) -> dict[str, int]:
        """Forget notes and observations unused since `cutoff`."""
        self._notes = None
        return {
            "notes": self.db.execute("DELETE FROM notes WHERE last_used_at < ?", (cutoff,)).rowcount,
            "observations": self.db.execute(
                "DELETE FROM observations WHERE last_used_at < ?", (cutoff,)
            ).rowcount,
        }
