"""A small SQLite index of archival passages' filter and scoring fields, beside embedded Chroma.

Chroma stores one row per metadata key and filters and reads them slowly at scale: counting
"passages with tag X" takes 0.1-0.5 s at 100k passages, and reading the metadata of 100 search
candidates ~10 ms. The embedded store therefore keeps, per passage: id, created_at, live/superseded,
importance, last access, and tags. Search then asks Chroma only for ids and distances, and reads
what scoring and filters need from here; access times are written here at once (and to Chroma in
batches). Chroma stays the source of truth for everything else: when the two disagree on the number
of passages (a crash between the two writes), or the index is missing or corrupt, it is rebuilt
from Chroma on open.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

from loguru import logger

from memgpt_lite.errors import StoreError
from memgpt_lite.storage.chroma_util import PassageFilter

INDEX_VERSION = 2

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS passages(
    id TEXT PRIMARY KEY, created_at REAL NOT NULL, current INTEGER NOT NULL,
    importance INTEGER NOT NULL, accessed REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS passages_created ON passages(created_at);
CREATE TABLE IF NOT EXISTS passage_tags(tag TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY(tag, id)) WITHOUT ROWID;
PRAGMA user_version={INDEX_VERSION};
"""


class Row(NamedTuple):
    id: str
    created_at: float
    current: bool
    importance: int
    accessed: float
    tags: list[str]


class Scoring(NamedTuple):
    importance: int
    accessed: float
    created_at: float


class PassageIndex:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0 and self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                version = -1  # tables without a version: an older layout
            if version not in (0, INDEX_VERSION):
                raise StoreError(f"archival index {self.path} has version {version}, not {INDEX_VERSION}")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as e:
            self._db.close()
            raise StoreError(f"archival index {self.path} is corrupt: {e}") from e
        except StoreError:
            self._db.close()
            raise

    def size(self) -> int:
        return int(self._q("SELECT count(*) FROM passages")[0][0])

    def add(self, rows: Iterable[Row]) -> None:
        rows = list(rows)
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany(
                    "INSERT OR REPLACE INTO passages VALUES (?,?,?,?,?)",
                    [(r.id, r.created_at, int(r.current), r.importance, r.accessed) for r in rows],
                )
                self._db.executemany(
                    "INSERT OR IGNORE INTO passage_tags VALUES (?,?)",
                    [(t, r.id) for r in rows for t in r.tags],
                )
                self._db.execute("COMMIT")
            except sqlite3.Error as e:
                self._db.execute("ROLLBACK")
                raise StoreError(f"cannot write archival index {self.path}: {e}") from e

    def set_current(self, passage_id: str, current: bool) -> None:
        self._q("UPDATE passages SET current=? WHERE id=?", (int(current), passage_id))

    def touch(self, ids: list[str], at: float) -> None:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany("UPDATE passages SET accessed=? WHERE id=?", [(at, i) for i in ids])
                self._db.execute("COMMIT")
            except sqlite3.Error as e:
                self._db.execute("ROLLBACK")
                raise StoreError(f"cannot write archival index {self.path}: {e}") from e

    def accessed(self, ids: list[str]) -> dict[str, float]:
        return {pid: s.accessed for pid, s in self.scoring(ids, PassageFilter()).items()}

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

    def scoring(self, ids: list[str], flt: PassageFilter) -> dict[str, Scoring]:
        """Scoring fields of those of `ids` that pass the filter."""
        clauses, args = self._clauses(flt)
        if flt.tags is not None:
            marks = ",".join("?" * len(flt.tags))
            clauses.append(f"EXISTS (SELECT 1 FROM passage_tags t WHERE t.id = p.id AND t.tag IN ({marks}))")
            args += [t.strip() for t in flt.tags]
        out: dict[str, Scoring] = {}
        for start in range(0, len(ids), 5000):
            chunk = ids[start : start + 5000]
            sql = (
                f"SELECT p.id, p.importance, p.accessed, p.created_at FROM passages p "
                f"WHERE p.id IN ({','.join('?' * len(chunk))})" + "".join(f" AND {c}" for c in clauses)
            )
            out.update((r[0], Scoring(r[1], r[2], r[3])) for r in self._q(sql, [*chunk, *args]))
        return out

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
    return Row(
        pid,
        float(meta["created_at"]),
        meta.get("status") == "current",
        int(meta["importance"]),
        float(meta["last_accessed_at"]),
        tags,
    )


def rebuild(index: PassageIndex, page: Callable[[int, int], Any], total: int, batch: int = 2000) -> None:
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


def nearest_indexed(
    chroma: Callable[..., Any],
    index: PassageIndex,
    qvec: Any,
    flt: PassageFilter,
    want: int,
    total: int,
    everything: int,
    max_overfetch: int,
) -> tuple[list[str], list[Scoring], list[float]]:
    """The `want` nearest passages passing the filter: (ids, scoring fields, cosine distances).

    Chroma returns only ids and distances; the filter and the scoring fields come from the index.
    With a filter, neighbours are over-fetched in proportion to its share of the collection; if
    too few survive, Chroma filters exactly."""
    fetch = want if flt.empty else min(everything, int(want * everything / max(total, 1) * 1.5) + 10)
    if flt.empty or fetch <= max_overfetch:
        res = chroma("query", query_embeddings=[qvec], n_results=fetch, include=["distances"])
        info = index.scoring(res["ids"][0], flt)
        rows = [(i, d) for i, d in zip(res["ids"][0], res["distances"][0], strict=True) if i in info][:want]
        if len(rows) >= want or fetch >= everything:
            return [r[0] for r in rows], [info[r[0]] for r in rows], [r[1] for r in rows]
    res = chroma("query", query_embeddings=[qvec], n_results=want, where=flt.where(), include=["distances"])
    info = index.scoring(res["ids"][0], PassageFilter())
    rows = [(i, d) for i, d in zip(res["ids"][0], res["distances"][0], strict=True) if i in info]
    return [r[0] for r in rows], [info[r[0]] for r in rows], [r[1] for r in rows]
