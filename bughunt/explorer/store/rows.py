"""Typed rows of the explorer store: what its tables hold, as frozen dataclasses.

Callers read fields by name (`bug.route`) and get Python types (flags are `bool`); a store written
before a column existed, opened read-only, gives that field its default.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, fields
from functools import cache
from typing import Any, TypeVar, cast, get_type_hints

from bughunt.record_repr import field_repr

T = TypeVar("T")


@dataclass(repr=False, frozen=True, slots=True)
class Session:
    """One explore or resume run; `status` is its stop reason (contract 4)."""

    __repr__ = field_repr

    id: int
    name: str
    policy: str
    base_url: str
    budget: int
    started_at: float
    ended_at: float | None
    status: str
    clicks: int | None = None
    fetches: int | None = None
    stop_detail: str = ""


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class Step:
    """One fetch a session made."""

    __repr__ = field_repr

    n: int
    session_id: int
    route: str
    final_route: str | None
    outcome: str
    status: int | None
    detail: str
    app_version: str | None
    tokens: int
    repeat: bool
    retest: bool
    elapsed_ms: float | None
    at: float


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class Visit:
    """A route of the visited set."""

    __repr__ = field_repr

    route: str
    outcome: str
    status: int | None
    first_visited_at: float
    last_visited_at: float
    last_used_at: float
    visits: int
    tested_version: str | None
    needs_retest: bool
    title: str = ""
    structure_hash: str | None = None


@dataclass(repr=False, frozen=True, slots=True)
class Bug:
    """An entry of the bug table; `superseded_by` is None for the one live entry of a fingerprint.
    `evidence` is the stored JSON text."""

    __repr__ = field_repr

    id: int
    fingerprint: str
    route: str
    kind: str
    message: str
    evidence: str
    status: str
    version: str | None
    seen_at: float
    step: int | None
    superseded_by: int | None
    last_seen_version: str | None = None
    last_seen_at: float | None = None


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class Report:
    """A report the run emitted (`duplicate`: of an already-open fingerprint)."""

    __repr__ = field_repr

    id: int
    step: int
    session_id: int
    fingerprint: str
    route: str
    kind: str
    duplicate: bool
    source: str
    at: float


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class Occurrence:
    """One route a bug (fingerprint) was seen on: one root cause on two routes of a template is one bug
    with two occurrences."""

    __repr__ = field_repr

    fingerprint: str
    route: str
    first_step: int
    last_step: int
    count: int

    def entry(self) -> dict[str, Any]:
        return {
            "route": self.route,
            "first_step": self.first_step,
            "last_step": self.last_step,
            "count": self.count,
        }


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class ModelReport:
    """A bug only the model reported (no oracle backs it): kept apart, never counted."""

    __repr__ = field_repr

    id: int
    route: str
    kind: str
    status: str
    observation: int | None
    session_id: int | None
    step: int | None
    at: float

    def entry(self) -> dict[str, Any]:
        """The JSON shape (`model_reported` in `--json`, export and memory)."""
        return {
            "route": self.route, "kind": self.kind, "status": self.status, "step": self.step,
            "quarantined_observation": self.observation,
        }  # fmt: skip


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class Note:
    """A model note that passed the page-text filter, or the harness's hand-over (`author`)."""

    __repr__ = field_repr

    id: int
    text: str
    session_id: int | None
    step: int | None
    at: float
    last_used_at: float
    author: str = "model"


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class Observation:
    """Quarantined page text with its provenance (JSON text): data for audit, never fact."""

    __repr__ = field_repr

    id: int
    text: str
    provenance: str
    quarantined: bool
    step: int | None
    at: float
    last_used_at: float


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class Rejection:
    """Something the gate refused to keep (a note or report), and why."""

    __repr__ = field_repr

    id: int
    what: str
    text: str
    reason: str
    step: int | None
    at: float


@cache
def _columns(cls: type) -> tuple[tuple[str, bool], ...]:
    """(field name, whether it is a flag) of each field of `cls`, in order: read once per class, not
    once per row (a step reads a few rows of several tables)."""
    hints = get_type_hints(cls)
    return tuple((f.name, hints.get(f.name) is bool) for f in fields(cls))


def row_as(cls: type[T], row: sqlite3.Row) -> T:
    """`row` as a `cls`; columns the class does not know are ignored, missing ones take defaults."""
    keys = set(row.keys())
    values = {
        name: (bool(row[name]) if flag else row[name])
        for name, flag in _columns(cast(type, cls))
        if name in keys
    }
    return cls(**values)


def rows_as(cls: type[T], rows: Any) -> list[T]:
    return [row_as(cls, r) for r in rows]
