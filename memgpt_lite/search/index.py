"""The retriever's own derived index of recall storage, persisted next to it (`search.sqlite`).

Recall storage keeps the messages and their FTS5 index; this file adds what it lacks: one embedding
per message (`speaker: text`) and an FTS5 table of windows (each message with its neighbours as one
document). It is derived data: it catches up with recall storage incrementally (`sync`), and is
rebuilt from scratch when it was made with another embedder or window setting, or when recall storage
holds fewer messages than it has seen (the recall file was replaced).
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import numpy as np

from memgpt_lite.errors import StoreError
from memgpt_lite.log import logger
from memgpt_lite.messages import Message
from memgpt_lite.search.config import HybridConfig
from memgpt_lite.search.views import indexed, message_view, segments, speaker_of, window_bounds
from memgpt_lite.storage.embeddings import Embedder, QueryVectors
from memgpt_lite.storage.fts import match_expression
from memgpt_lite.storage.recall import RecallStore
from memgpt_lite.storage.sqlite import (
    Schema,
    ensure_schema,
    execute_script,
    open_sqlite,
    table_names,
    transaction,
)

INDEX_VERSION = 3
EMBED_BATCH = 256
"""Messages embedded and written per transaction while catching up."""

_SCHEMA = """
CREATE TABLE items(
    pos INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL,
    speaker TEXT NOT NULL,
    created_at REAL NOT NULL,
    view TEXT NOT NULL,
    vec BLOB NOT NULL
);
CREATE VIRTUAL TABLE windows USING fts5(text, tokenize='porter unicode61 remove_diacritics 2');
CREATE TABLE index_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_DROP = "DROP TABLE IF EXISTS items; DROP TABLE IF EXISTS windows; DROP TABLE IF EXISTS index_meta;"


def _legacy_version(db: sqlite3.Connection) -> int | None:
    """An index from before `user_version` kept its version in `index_meta` (None: not a search index)."""
    if "index_meta" not in table_names(db):
        return None
    row = db.execute("SELECT value FROM index_meta WHERE key = 'version'").fetchone()
    return int(row[0]) if row and str(row[0]).isdigit() else -1


SCHEMA = Schema("search index", INDEX_VERSION, _SCHEMA, legacy=_legacy_version, drop=_DROP)
"""Derived data: an older index is emptied and rebuilt, never migrated."""


class RecallIndex:
    """Embeddings and window texts for every recall message with text (except the agent's own searches,
    see `views.indexed`), in stored order (`pos`)."""

    def __init__(self, path: str | Path, embedder: Embedder, config: HybridConfig | None = None) -> None:
        self.path = Path(path)
        self.embedder = embedder
        self.query_vector = QueryVectors(embedder)
        """The embedding of a query text (each text embedded once while it is recent)."""
        self.config = config or HybridConfig()
        self._lock = threading.RLock()
        with open_sqlite(self.path, "search index", corrupt="corrupt or not a search index") as self._db:
            self._open_schema()
            self._load()

    # -- schema -------------------------------------------------------------------------------------
    def _settings(self) -> dict[str, str]:
        """What the index was built with; another embedder or window setting means a rebuild."""
        return {
            "embedder": self.embedder.name,
            "dim": str(self.embedder.dim),
            "radius": str(self.config.radius),
            "session_gap_minutes": repr(self.config.session_gap_minutes),
        }

    def _open_schema(self) -> None:
        ensure_schema(self._db, SCHEMA, self.path)
        stored = dict(self._db.execute("SELECT key, value FROM index_meta").fetchall())
        wanted = self._settings()
        if "synced" in stored and all(stored.get(k) == v for k, v in wanted.items()):
            return
        if stored:
            logger.info("search index {} was built with {}; rebuilding", self.path, stored)
        self._reset()

    def _reset(self) -> None:
        rows = [*self._settings().items(), ("synced", "0")]
        with transaction(self._db):
            execute_script(self._db, _DROP + _SCHEMA)
            self._db.executemany("INSERT INTO index_meta VALUES (?, ?)", rows)

    def _load(self) -> None:
        rows = self._db.execute(
            "SELECT id, role, created_at, vec, speaker FROM items ORDER BY pos"
        ).fetchall()
        self.ids: list[str] = [r[0] for r in rows]
        self.positions: dict[str, int] = {mid: i for i, mid in enumerate(self.ids)}
        """Message id → its position in `ids` (and in the score arrays)."""
        self.roles = np.array([r[1] for r in rows], dtype=object)
        self.times = np.array([r[2] for r in rows], dtype=np.float64)
        self.speakers = np.array([r[4] for r in rows], dtype=object)
        dim = self.embedder.dim
        self.vectors = (
            np.frombuffer(b"".join(r[3] for r in rows), dtype=np.float32).reshape(-1, dim).copy()
            if rows
            else np.zeros((0, dim), dtype=np.float32)
        )
        self.synced = int(self._db.execute("SELECT value FROM index_meta WHERE key='synced'").fetchone()[0])
        self._segs = segments(self.times.tolist(), self.config.session_gap_minutes * 60)
        self.window_vectors = self._window_vectors(0, np.zeros((0, dim), dtype=np.float32))

    # -- catching up --------------------------------------------------------------------------------
    def sync(self, recall: RecallStore) -> int:
        """Index the messages recall storage holds beyond those already seen; returns how many were added."""
        with self._lock:
            total = recall.count()
            if total < self.synced:
                logger.warning(
                    "recall storage holds {} messages, the index saw {}; rebuilding", total, self.synced
                )
                self._reset()
                self._load()
            if total == self.synced:
                return 0
            added = 0
            batch: list[Message] = []
            for msg in recall.iter_messages(start=self.synced):
                batch.append(msg)
                if len(batch) >= EMBED_BATCH:
                    added += self._add(batch)
                    batch = []
            if batch:
                added += self._add(batch)
            return added

    def _add(self, msgs: list[Message]) -> int:
        keep = [m for m in msgs if indexed(m)]
        first = len(self.ids)
        views = [message_view(m) for m in keep]
        vecs = self.embedder.embed(views) if keep else np.zeros((0, self.embedder.dim), dtype=np.float32)
        ids = self.ids + [m.id for m in keep]
        times = np.concatenate([self.times, [m.created_at.timestamp() for m in keep]])
        segs = segments(times.tolist(), self.config.session_gap_minutes * 60)
        # The windows of the last `radius` old items gain the new items as neighbours.
        radius = self.config.radius
        start = max(0, first - radius)
        base = max(0, start - radius)
        all_views = self._views(base, first) + views
        texts = []
        for i in range(start, len(ids)):
            lo, hi = window_bounds(segs, i, radius)
            texts.append("\n".join(all_views[j - base] for j in range(lo, hi)))
        try:
            with transaction(self._db):
                if keep:
                    self._db.executemany(
                        "INSERT INTO items(pos, id, role, speaker, created_at, view, vec) VALUES (?,?,?,?,?,?,?)",
                        [
                            (
                                first + k,
                                m.id,
                                m.role,
                                speaker_of(m),
                                m.created_at.timestamp(),
                                views[k],
                                vecs[k].tobytes(),
                            )
                            for k, m in enumerate(keep)
                        ],
                    )
                    self._db.execute("DELETE FROM windows WHERE rowid > ?", (start,))
                    self._db.executemany(
                        "INSERT INTO windows(rowid, text) VALUES (?, ?)",
                        [(start + k + 1, t) for k, t in enumerate(texts)],
                    )
                self._db.execute(
                    "UPDATE index_meta SET value=? WHERE key='synced'", (str(self.synced + len(msgs)),)
                )
        except sqlite3.Error as e:
            raise StoreError(f"cannot write search index {self.path}: {e}") from e
        self.synced += len(msgs)
        if keep:
            self.positions.update((m.id, first + k) for k, m in enumerate(keep))
            self.ids = ids
            self.roles = np.concatenate([self.roles, np.array([m.role for m in keep], dtype=object)])
            self.speakers = np.concatenate(
                [self.speakers, np.array([speaker_of(m) for m in keep], dtype=object)]
            )
            self.times = times
            self.vectors = np.concatenate([self.vectors, vecs.astype(np.float32)])
            self._segs = segs
            self.window_vectors = self._window_vectors(start, self.window_vectors[:start])
        return len(keep)

    def _views(self, lo: int, hi: int) -> list[str]:
        rows = self._db.execute("SELECT view FROM items WHERE pos >= ? AND pos < ? ORDER BY pos", (lo, hi))
        return [r[0] for r in rows.fetchall()]

    def _window_vectors(self, start: int, head: np.ndarray) -> np.ndarray:
        n, dim = len(self.ids), self.embedder.dim
        out = np.empty((n, dim), dtype=np.float32)
        out[:start] = head[:start]
        for i in range(start, n):
            lo, hi = window_bounds(self._segs, i, self.config.radius)
            v = self.vectors[lo:hi].mean(axis=0)
            out[i] = v / max(float(np.linalg.norm(v)), 1e-12)
        return out

    # -- querying -----------------------------------------------------------------------------------
    def window_scores(self, query: str, limit: int = 1000) -> np.ndarray:
        """bm25 relevance (higher is better, 0 = no match) of each item's window to `query`."""
        scores = np.zeros(len(self.ids), dtype=np.float64)
        expr = match_expression(query)
        with self._lock:
            try:
                rows = self._db.execute(
                    "SELECT rowid, bm25(windows) AS r FROM windows WHERE windows MATCH ? ORDER BY r LIMIT ?",
                    (expr, limit),
                ).fetchall()
            except sqlite3.DatabaseError as e:
                raise StoreError(f"search index {self.path} failed: {e}") from e
        for rowid, r in rows:
            if rowid - 1 < len(scores):
                scores[rowid - 1] = -r
        return scores

    def close(self) -> None:
        with self._lock:
            try:
                self._db.close()
            except sqlite3.Error as e:  # closing must not hide the caller's own error
                logger.warning("closing search index {}: {}", self.path, e)
