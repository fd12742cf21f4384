"""Recall storage: every message ever, in SQLite (WAL) with an FTS5 index, searchable and paged.

One row per message: the full message JSON (what `get` returns) plus the columns we search and
filter on — role, created_at (UTC epoch seconds, indexed), speaker (from `meta["speaker"]`) and the
plain text. An external-content FTS5 table (porter stemming over unicode61) indexes text and speaker;
a trigger keeps it in step with every insert inside the same transaction. Role is indexed too, so
a role filter is part of the MATCH instead of a join. While messages arrive in time order (the
usual case) a date range becomes a rowid range, which FTS5 applies without touching the table.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticSerializationError

from memgpt_lite.errors import StoreError, UsageError
from memgpt_lite.log import logger
from memgpt_lite.messages import Message
from memgpt_lite.storage.fts import match_expression
from memgpt_lite.storage.message_filter import ROLES, MessageFilter
from memgpt_lite.storage.pages import Page, check_paging
from memgpt_lite.storage.sqlite import (
    Schema,
    check_schema,
    ensure_schema,
    open_sqlite,
    open_sqlite_readonly,
    table_names,
    transaction,
)
from memgpt_lite.storage.times import TimeLike

__all__ = ["ROLES", "RecallHit", "RecallStore"]

SCHEMA_VERSION = 1

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
    text, speaker, role, content='messages', content_rowid='seq',
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_ai AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, text, speaker, role) VALUES (new.seq, new.text, new.speaker, new.role);
END;
CREATE TABLE recall_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO recall_meta VALUES ('chronological', '1');
"""

SCHEMA = Schema("recall database", SCHEMA_VERSION, _SCHEMA)


class RecallHit(BaseModel):
    message: Message
    score: float | None = None
    """Text relevance (negated bm25: higher is better); None for date-only searches."""


class RecallStore:
    """All messages of one agent. Thread-safe; one connection guarded by a lock."""

    def __init__(self, path: str | Path, rank_window: int = 2000, *, read_only: bool = False) -> None:
        """`read_only`: never write or create anything (`open_sqlite_readonly`); a missing, empty,
        foreign or damaged file is a `StoreError` naming it."""
        if rank_window < 1:
            raise UsageError("rank_window must be >= 1")
        self.path = Path(path)
        self.rank_window = rank_window
        self.read_only = read_only
        self._lock = threading.RLock()
        if read_only:
            self._db = open_sqlite_readonly(self.path, "recall database")
            try:
                self._init_schema()
            except BaseException:
                self._db.close()
                raise
            return
        with open_sqlite(
            self.path, "recall database", corrupt="corrupt or not a recall database"
        ) as self._db:
            self._init_schema()

    def _init_schema(self) -> None:
        db = self._db
        if self.read_only:
            check_schema(db, SCHEMA, self.path)
        else:
            ensure_schema(db, SCHEMA, self.path)
        if not {"messages", "messages_fts", "recall_meta"} <= table_names(db):
            raise StoreError(f"recall database {self.path} is missing its tables; it is corrupt")
        row = db.execute("SELECT value FROM recall_meta WHERE key='chronological'").fetchone()
        self._chronological = bool(row and row[0] == "1")

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
            try:
                data = m.model_dump_json()
            except PydanticSerializationError as e:  # lone surrogates: bytes that were never UTF-8
                raise UsageError(
                    f"message {m.id} cannot be stored: its text is not valid Unicode ({e}); decode input "
                    "with errors='replace'"
                ) from None
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
                with transaction(self._db):
                    existing = self._existing(list(rows))
                    for mid, stored in existing.items():
                        if stored != rows[mid][-1]:
                            raise StoreError(f"message {mid} is already stored with different content")
                    new = [r for mid, r in rows.items() if mid not in existing]
                    self._track_order(new)
                    self._db.executemany(
                        "INSERT INTO messages(id, role, created_at, speaker, text, json) VALUES (?,?,?,?,?,?)",
                        new,
                    )
            except sqlite3.Error as e:
                raise StoreError(f"cannot write to recall database {self.path}: {e}") from e
        return len(new)

    def _track_order(self, new: list[tuple[Any, ...]]) -> None:
        if not new or not self._chronological:
            return
        latest = self._db.execute("SELECT max(created_at) FROM messages").fetchone()[0]
        times = [r[2] for r in new]
        if (latest is not None and times[0] < latest) or any(
            b < a for a, b in zip(times, times[1:], strict=False)
        ):
            self._db.execute("UPDATE recall_meta SET value='0' WHERE key='chronological'")
            self._chronological = False

    def _seq_range(self, f: MessageFilter) -> tuple[int, int] | tuple[()] | None:
        """The rowid range of a date range when rows are in time order; () when it is empty."""
        if not self._chronological:
            return None
        lo, hi = 0, 2**62
        if f.lo is not None:
            row = self._db.execute(
                "SELECT seq FROM messages WHERE created_at >= ? ORDER BY created_at, seq LIMIT 1", (f.lo,)
            ).fetchone()
            if row is None:
                return ()
            lo = row[0]
        if f.hi is not None:
            row = self._db.execute(
                "SELECT seq FROM messages WHERE created_at <= ? ORDER BY created_at DESC, seq DESC LIMIT 1",
                (f.hi,),
            ).fetchone()
            if row is None:
                return ()
            hi = row[0]
        return (lo, hi) if lo <= hi else ()

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
        clauses, params = MessageFilter.parse(roles, None, None, None).sql()
        sql = "SELECT count(*) FROM messages m" + (f" WHERE {' AND '.join(clauses)}" if clauses else "")
        with self._lock:
            return int(self._run(lambda: self._db.execute(sql, params).fetchone()[0]))

    def iter_messages(self, start: int = 0, batch: int = 1000) -> Iterator[Message]:
        """Every message in the order stored, skipping the first `start` (to catch up incrementally)."""
        if isinstance(start, bool) or not isinstance(start, int) or start < 0:
            raise UsageError(f"start must be an integer >= 0, got {start!r}")
        with self._lock:
            first = self._run(
                lambda: self._db.execute(
                    "SELECT seq FROM messages ORDER BY seq LIMIT 1 OFFSET ?", (start,)
                ).fetchone()
            )
        if first is None:
            return
        last = first[0] - 1
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
        includes that whole day.

        When more than `rank_window` messages match, they are ranked in windows of that many matches,
        newest window first (bm25 within each window): ranking every match of a common word costs
        time in proportion to the history, and a newer good match is worth more than an older one.
        Every match is still counted in `total` and reachable by paging."""
        check_paging(page, page_size)
        total, rows = self._ranked(
            query, roles, start_date, end_date, page, page_size, speakers, mode, "json"
        )
        return Page.of([RecallHit(message=_load(j), score=s) for j, s in rows], total, page, page_size)

    def match_scores(
        self,
        query: str,
        roles: Sequence[str] | str | None = None,
        start_date: TimeLike | None = None,
        end_date: TimeLike | None = None,
        limit: int = 10,
    ) -> list[tuple[str, float]]:
        """(message id, bm25 score) of the first `limit` matches `search` would return, without loading
        the messages: a ranker that needs only the scores skips parsing hundreds of stored messages."""
        check_paging(0, limit)
        return self._ranked(query, roles, start_date, end_date, 0, limit, None, "any", "id")[1]

    def _ranked(
        self,
        query: str,
        roles: Sequence[str] | str | None,
        start_date: TimeLike | None,
        end_date: TimeLike | None,
        page: int,
        page_size: int,
        speakers: Sequence[str] | str | None,
        mode: str,
        column: Literal["json", "id"],
    ) -> tuple[int, list[tuple[str, float]]]:
        f = MessageFilter.parse(roles, start_date, end_date, speakers)
        expr = "{text speaker} : (" + match_expression(query, mode) + ")"
        if f.roles:
            expr += " AND role : (" + " OR ".join(f'"{r}"' for r in f.roles) + ")"
        with self._lock:
            seq_range = (
                self._run(lambda: self._seq_range(f)) if f.lo is not None or f.hi is not None else None
            )
        if seq_range == ():
            return 0, []
        clauses, args = ["messages_fts MATCH ?"], [expr]
        if seq_range is not None:
            clauses.append("messages_fts.rowid BETWEEN ? AND ?")
            args += list(seq_range)
        join_clauses, join_args = f.sql(roles=False, dates=seq_range is None)
        join = " JOIN messages m ON m.seq = messages_fts.rowid" if join_clauses else ""
        base = f"FROM messages_fts{join} WHERE " + " AND ".join(clauses + join_clauses)
        args += join_args
        window = max(1, self.rank_window // page_size) * page_size  # a page never straddles two windows
        offset = page * page_size

        def run() -> tuple[int, list[tuple[str, float]]]:
            total = self._db.execute(f"SELECT count(*) {base}", args).fetchone()[0]
            if offset >= total:
                return total, []
            bounds, skip = "", offset
            if total > window:
                first = (offset // window) * window
                skip = offset - first
                nth = f"SELECT messages_fts.rowid {base} ORDER BY messages_fts.rowid DESC LIMIT 1 OFFSET ?"
                hi = self._db.execute(nth, [*args, first]).fetchone()[0]
                lo_row = self._db.execute(nth, [*args, min(total, first + window) - 1]).fetchone()
                bounds = f" AND messages_fts.rowid BETWEEN {int(lo_row[0])} AND {int(hi)}"
            ranked = self._db.execute(
                f"SELECT messages_fts.rowid, bm25(messages_fts, 1.0, 0.5, 0.0) AS r {base}{bounds} "
                "ORDER BY r, messages_fts.rowid DESC LIMIT ? OFFSET ?",
                [*args, page_size, skip],
            ).fetchall()
            by_seq = dict(
                self._db.execute(
                    f"SELECT seq, {column} FROM messages WHERE seq IN ({','.join('?' * len(ranked))})",
                    [r[0] for r in ranked],
                ).fetchall()
            )
            return total, [(by_seq[seq], -score) for seq, score in ranked]

        with self._lock:
            return self._run(run)  # type: ignore[no-any-return]

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
        clauses, params = MessageFilter.parse(roles, start_date, end_date, speakers).sql()
        where = " AND ".join(clauses)

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


def _load(data: str) -> Message:
    try:
        return Message.model_validate_json(data)
    except ValidationError as e:
        raise StoreError(f"a stored message is corrupt: {e.errors()[:1]}") from e
