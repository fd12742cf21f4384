"""A small SQLite index of the archival passages' filter fields, for exact totals in milliseconds.

Chroma answers "how many passages have tag X / were created after T" only by filtering its metadata
table, which takes 0.1–0.5 s at 100k passages. The embedded store therefore keeps, next to Chroma,
each passage's id, creation time, live/superseded status and tags — all immutable except the status,
which only `ArchivalStore.supersede` changes. Chroma stays the source of truth: when the two
disagree on the number of passages (a crash between the two writes), the index is rebuilt from it.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from loguru import logger

from memgpt_lite.errors import StoreError
from memgpt_lite.storage.chroma_util import PassageFilter

_SCHEMA = """
CREATE TABLE IF NOT EXISTS passages(id TEXT PRIMARY KEY, created_at REAL NOT NULL, current INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS passages_created ON passages(created_at);
CREATE TABLE IF NOT EXISTS passage_tags(tag TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY(tag, id)) WITHOUT ROWID;
"""

Row = tuple[str, float, bool, list[str]]
"""(id, created_at epoch seconds, is current, tags)"""


class PassageIndex:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as e:
            raise StoreError(f"archival index {self.path} is corrupt: {e}") from e

    def size(self) -> int:
        return int(self._q("SELECT count(*) FROM passages")[0][0])

    def add(self, rows: Iterable[Row]) -> None:
        rows = list(rows)
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany(
                    "INSERT OR REPLACE INTO passages VALUES (?,?,?)",
                    [(i, c, int(cur)) for i, c, cur, _ in rows],
                )
                self._db.executemany(
                    "INSERT OR IGNORE INTO passage_tags VALUES (?,?)",
                    [(t, i) for i, _, _, tags in rows for t in tags],
                )
                self._db.execute("COMMIT")
            except sqlite3.Error as e:
                self._db.execute("ROLLBACK")
                raise StoreError(f"cannot write archival index {self.path}: {e}") from e

    def set_current(self, passage_id: str, current: bool) -> None:
        self._q("UPDATE passages SET current=? WHERE id=?", (int(current), passage_id))

    def clear(self) -> None:
        self._q("DELETE FROM passages")
        self._q("DELETE FROM passage_tags")

    @staticmethod
    def _clauses(flt: PassageFilter) -> tuple[list[str], list[Any]]:
        clauses: list[str] = []
        args: list[Any] = []
        if flt.lo is not None:
            clauses.append("p.created_at >= ?")
            args.append(flt.lo)
        if flt.hi is not None:
            clauses.append("p.created_at <= ?")
            args.append(flt.hi)
        if flt.current_only:
            clauses.append("p.current = 1")
        return clauses, args

    def count(self, flt: PassageFilter) -> int:
        clauses, args = self._clauses(flt)
        if flt.tags is None:
            sql = "SELECT count(*) FROM passages p" + (" WHERE " + " AND ".join(clauses) if clauses else "")
        else:
            # Start from the tag rows: a tag filter is usually the most selective part.
            marks = ",".join("?" * len(flt.tags))
            sql = (
                f"SELECT count(DISTINCT t.id) FROM passage_tags t JOIN passages p ON p.id = t.id "
                f"WHERE t.tag IN ({marks})" + "".join(f" AND {c}" for c in clauses)
            )
            args = [t.strip() for t in flt.tags] + args
        return int(self._q(sql, args)[0][0])

    def matching(self, ids: list[str], flt: PassageFilter) -> set[str]:
        """Which of `ids` pass the filter."""
        clauses, args = self._clauses(flt)
        if flt.tags is not None:
            clauses.append(
                f"EXISTS (SELECT 1 FROM passage_tags t WHERE t.id = p.id AND t.tag IN ({','.join('?' * len(flt.tags))}))"
            )
            args += [t.strip() for t in flt.tags]
        found: set[str] = set()
        for start in range(0, len(ids), 5000):
            chunk = ids[start : start + 5000]
            sql = f"SELECT p.id FROM passages p WHERE p.id IN ({','.join('?' * len(chunk))})"
            found.update(r[0] for r in self._q(sql + "".join(f" AND {c}" for c in clauses), [*chunk, *args]))
        return found

    def _q(self, sql: str, args: Any = ()) -> list[Any]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as e:
                raise StoreError(f"archival index {self.path} failed: {e}") from e

    def close(self) -> None:
        with self._lock:
            self._db.close()


def row_from_metadata(pid: str, meta: dict[str, Any]) -> Row:
    tags = [k[4:] for k, v in meta.items() if k.startswith("tag:") and v is True]
    return (pid, float(meta["created_at"]), meta.get("status") == "current", tags)


def rebuild(index: PassageIndex, page: Any, total: int, batch: int = 2000) -> None:
    """Refill the index from Chroma; `page(offset, limit)` returns Chroma's `get` result with metadatas."""
    index.clear()
    for offset in range(0, total, batch):
        got = page(offset, batch)
        index.add(row_from_metadata(i, m) for i, m in zip(got["ids"], got["metadatas"], strict=True))


def open_index(
    path: Path, chroma_count: Callable[[], int], chroma_page: Callable[[int, int], Any]
) -> PassageIndex:
    """Open the index beside a collection, rebuilding it when it is missing, stale or corrupt."""
    try:
        index = PassageIndex(path)
    except StoreError as e:  # derived data: rebuild rather than refuse to open
        logger.warning("archival: discarding a broken passage index ({})", e)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        index = PassageIndex(path)
    total = chroma_count()
    if index.size() != total:
        logger.info("archival: rebuilding the passage index at {} ({} passages)", path, total)
        rebuild(index, chroma_page, total)
    return index
