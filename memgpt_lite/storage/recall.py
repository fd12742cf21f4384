"""Recall storage: every message ever, in SQLite (WAL) with an FTS5 index, searchable and paged.

One row per message: the full message JSON (what `get` returns) plus the columns we search and
filter on — role, created_at (UTC epoch seconds, indexed), speaker (from `meta["speaker"]`) and the
plain text. An external-content FTS5 table (porter stemming over unicode61) indexes text and speaker;
a trigger keeps it in step with every insert inside the same transaction.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from loguru import logger
from pydantic import BaseModel, ValidationError

from memgpt_lite.errors import StoreError, UsageError
from memgpt_lite.messages import Message
from memgpt_lite.storage.fts import match_expression
from memgpt_lite.storage.pages import Page, check_paging
from memgpt_lite.storage.times import TimeLike, check_range, to_epoch

SCHEMA_VERSION = 1
ROLES = frozenset({"system", "user", "assistant", "tool"})

_SCHEMA = """
CREATE TABLE messages(
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL,
    created_at REAL NOT NULL,
    speaker TEXT NOT NULL DEFAULT '',
    text TEXT NOT NULL,
    json TEXT NOT NULL
);
CREATE INDEX messages_created ON messages(created_at);
CREATE VIRTUAL TABLE messages_fts USING fts5(
    text, speaker, content='messages', content_rowid='seq',
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, text, speaker) VALUES (new.seq, new.text, new.speaker);
END;
"""


class RecallHit(BaseModel):
    message: Message
    score: float | None = None
    """Text relevance (negated bm25: higher is better); None for date-only searches."""


class RecallStore:
    """All messages of one agent. Thread-safe; one connection guarded by a lock."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as e:
            raise StoreError(f"cannot open recall database {self.path}: {e}") from e
        try:
            self._init_schema()
        except sqlite3.DatabaseError as e:
            self._db.close()
            raise StoreError(f"recall database {self.path} is corrupt or not a recall database: {e}") from e
        except StoreError:
            self._db.close()
            raise

    def _init_schema(self) -> None:
        db = self._db
        db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a crash never corrupts the file; only the last commits may be lost on power cut.
        db.execute("PRAGMA synchronous=NORMAL")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table','view')")}
        if version == 0:
            if tables:
                raise StoreError(
                    f"{self.path} is an SQLite database but not a recall database (tables: {sorted(tables)[:5]})"
                )
            # One script, one transaction: a crash leaves either no schema or all of it.
            db.executescript(f"BEGIN;{_SCHEMA}PRAGMA user_version={SCHEMA_VERSION};COMMIT;")
        elif version > SCHEMA_VERSION:
            raise StoreError(
                f"recall database {self.path} has schema {version}; this memgpt_lite reads up to {SCHEMA_VERSION}"
            )
        elif not {"messages", "messages_fts"} <= tables:
            raise StoreError(f"recall database {self.path} is missing its tables; it is corrupt")

    def _tx(self) -> _Transaction:
        return _Transaction(self._db)

    # -- writing ------------------------------------------------------------------------------------
    def append(self, msg: Message) -> None:
        self.extend([msg])

    def extend(self, msgs: Iterable[Message]) -> int:
        """Store messages; returns how many were new. Re-storing an identical message is a no-op
        (resume may replay), re-storing an id with different content is a `StoreError`."""
        rows: dict[str, tuple[Any, ...]] = {}
        for m in msgs:
            if not isinstance(m, Message):
                raise UsageError(f"recall stores Message objects, got {type(m).__name__}")
            data = m.model_dump_json()
            if m.id in rows and rows[m.id][-1] != data:
                raise StoreError(f"two different messages with id {m.id} in one batch")
            speaker = m.meta.get("speaker")
            rows[m.id] = (
                m.id,
                m.role,
                m.created_at.timestamp(),
                str(speaker) if speaker else "",
                m.text,
                data,
            )
        if not rows:
            return 0
        with self._lock:
            try:
                with self._tx():
                    existing = self._existing(list(rows))
                    for mid, stored in existing.items():
                        if stored != rows[mid][-1]:
                            raise StoreError(f"message {mid} is already stored with different content")
                    new = [r for mid, r in rows.items() if mid not in existing]
                    self._db.executemany(
                        "INSERT INTO messages(id, role, created_at, speaker, text, json) VALUES (?,?,?,?,?,?)",
                        new,
                    )
            except sqlite3.Error as e:
                raise StoreError(f"cannot write to recall database {self.path}: {e}") from e
        return len(new)

    def _existing(self, ids: list[str]) -> dict[str, str]:
        out: dict[str, str] = {}
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            q = f"SELECT id, json FROM messages WHERE id IN ({','.join('?' * len(chunk))})"
            out.update(self._db.execute(q, chunk).fetchall())
        return out

    # -- reading ------------------------------------------------------------------------------------
    def get(self, ids: Sequence[str]) -> list[Message]:
        """Messages by id, in the order asked. A missing id is a `StoreError` (it means lost history)."""
        ids = list(ids)
        with self._lock:
            found = self._run(lambda: self._existing(ids))
        missing = [i for i in ids if i not in found]
        if missing:
            raise StoreError(f"{len(missing)} message(s) not in recall storage: {missing[:5]}")
        return [_load(found[i]) for i in ids]

    def __contains__(self, message_id: object) -> bool:
        with self._lock:
            return (
                self._run(
                    lambda: self._db.execute("SELECT 1 FROM messages WHERE id=?", (message_id,)).fetchone()
                )
                is not None
            )

    def count(self, roles: Sequence[str] | str | None = None) -> int:
        where, params = _filters(roles, None, None)
        sql = "SELECT count(*) FROM messages m" + (f" WHERE {where}" if where else "")
        with self._lock:
            return int(self._run(lambda: self._db.execute(sql, params).fetchone()[0]))

    def iter_messages(self, batch: int = 1000) -> Iterator[Message]:
        """Every message in the order stored."""
        last = 0
        sql = "SELECT seq, json FROM messages WHERE seq > ? ORDER BY seq LIMIT ?"
        while True:
            after = last
            with self._lock:
                rows = self._run(lambda: self._db.execute(sql, (after, batch)).fetchall())  # noqa: B023
            if not rows:
                return
            last = rows[-1][0]
            yield from (_load(r[1]) for r in rows)

    def search(
        self,
        query: str,
        roles: Sequence[str] | str | None = None,
        start_date: TimeLike | None = None,
        end_date: TimeLike | None = None,
        page: int = 0,
        page_size: int = 10,
        *,
        speakers: Sequence[str] | str | None = None,
        mode: str = "any",
    ) -> Page[RecallHit]:
        """Full-text search, best match first (bm25). Words are matched literally (stemmed), never as
        FTS syntax; `mode="any"` needs one word to match, `"all"` every word. `end_date` as a bare date
        includes that whole day."""
        check_paging(page, page_size)
        expr = match_expression(query, mode)
        where, params = _filters(roles, start_date, end_date, speakers)
        cond = "messages_fts MATCH ?" + (f" AND {where}" if where else "")
        args = [expr, *params]
        join = " JOIN messages m ON m.seq = messages_fts.rowid" if where else ""
        count_sql = f"SELECT count(*) FROM messages_fts{join} WHERE {cond}"
        # Rank inside FTS first (bm25 needs only the index), then fetch JSON for the page rows only.
        page_sql = (
            f"SELECT messages_fts.rowid, bm25(messages_fts) AS r FROM messages_fts{join} WHERE {cond} "
            "ORDER BY r, messages_fts.rowid DESC LIMIT ? OFFSET ?"
        )

        def run() -> tuple[int, list[tuple[str, float]]]:
            total = self._db.execute(count_sql, args).fetchone()[0]
            if page * page_size >= total:
                return total, []
            ranked = self._db.execute(page_sql, [*args, page_size, page * page_size]).fetchall()
            by_seq = dict(
                self._db.execute(
                    f"SELECT seq, json FROM messages WHERE seq IN ({','.join('?' * len(ranked))})",
                    [r[0] for r in ranked],
                ).fetchall()
            )
            return total, [(by_seq[seq], -score) for seq, score in ranked]

        with self._lock:
            total, rows = self._run(run)
        return Page.of([RecallHit(message=_load(j), score=s) for j, s in rows], total, page, page_size)

    def search_date(
        self,
        start_date: TimeLike | None,
        end_date: TimeLike | None,
        roles: Sequence[str] | str | None = None,
        page: int = 0,
        page_size: int = 10,
        *,
        speakers: Sequence[str] | str | None = None,
    ) -> Page[RecallHit]:
        """Messages in a time range, oldest first. A bare `end_date` includes that whole day."""
        check_paging(page, page_size)
        if start_date is None and end_date is None:
            raise UsageError("search_date needs start_date, end_date or both")
        where, params = _filters(roles, start_date, end_date, speakers)

        def run() -> tuple[int, list[str]]:
            total = self._db.execute(f"SELECT count(*) FROM messages m WHERE {where}", params).fetchone()[0]
            rows = self._db.execute(
                f"SELECT json FROM messages m WHERE {where} ORDER BY created_at, seq LIMIT ? OFFSET ?",
                [*params, page_size, page * page_size],
            ).fetchall()
            return total, [r[0] for r in rows]

        with self._lock:
            total, rows = self._run(run)
        return Page.of([RecallHit(message=_load(j)) for j in rows], total, page, page_size)

    def _run(self, fn: Any) -> Any:
        try:
            return fn()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"recall database {self.path} failed: {e}") from e

    def close(self) -> None:
        with self._lock:
            try:
                self._db.close()
            except sqlite3.Error as e:  # closing must not hide the caller's own error
                logger.warning("closing recall database {}: {}", self.path, e)

    def __enter__(self) -> RecallStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT/ROLLBACK on an autocommit connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self._db.execute("COMMIT" if exc_type is None else "ROLLBACK")


def _load(data: str) -> Message:
    try:
        return Message.model_validate_json(data)
    except ValidationError as e:
        raise StoreError(f"a stored message is corrupt: {e.errors()[:1]}") from e


def _as_list(value: Sequence[str] | str | None, name: str) -> list[str] | None:
    if value is None:
        return None
    items = [value] if isinstance(value, str) else list(value)
    if not items or not all(isinstance(v, str) for v in items):
        raise UsageError(f"{name} must be a non-empty list of strings, got {value!r}")
    return items


def _filters(
    roles: Sequence[str] | str | None,
    start: TimeLike | None,
    end: TimeLike | None,
    speakers: Sequence[str] | str | None = None,
) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    role_list = _as_list(roles, "roles")
    if role_list is not None:
        bad = sorted(set(role_list) - ROLES)
        if bad:
            raise UsageError(f"unknown role(s) {bad}; roles are {sorted(ROLES)}")
        clauses.append(f"m.role IN ({','.join('?' * len(role_list))})")
        params += role_list
    speaker_list = _as_list(speakers, "speakers")
    if speaker_list is not None:
        clauses.append(f"m.speaker IN ({','.join('?' * len(speaker_list))})")
        params += speaker_list
    lo = to_epoch(start, name="start_date") if start is not None else None
    hi = to_epoch(end, end_of_day=True, name="end_date") if end is not None else None
    check_range(lo, hi, ("start_date", "end_date"))
    if lo is not None:
        clauses.append("m.created_at >= ?")
        params.append(lo)
    if hi is not None:
        clauses.append("m.created_at <= ?")
        params.append(hi)
    return " AND ".join(clauses), params
