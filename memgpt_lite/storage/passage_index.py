"""A small SQLite index of archival passages' filter and scoring fields, beside embedded Chroma.

Chroma stores one row per metadata key and filters and reads them slowly at scale: counting
"passages with tag X" takes 0.1-0.5 s at 100k passages, and reading the metadata of 100 search
candidates ~10 ms. The embedded store therefore keeps, per passage: id, created_at, live/superseded,
importance, last access, tags, and the passage text in an FTS5 table (the lexical side of the
hybrid search). Search then asks Chroma only for ids and distances, and reads what scoring and
filters need from here; access times are written here at once (and to Chroma in batches). Chroma stays the source of truth for everything else: when the two disagree on the number
of passages (a crash between the two writes), or the index is missing or corrupt, it is rebuilt
from Chroma on open.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

from memgpt_lite.errors import StoreError
from memgpt_lite.log import logger
from memgpt_lite.storage.chroma_util import PassageFilter
from memgpt_lite.storage.fts import query_terms
from memgpt_lite.storage.passages import Passage
from memgpt_lite.storage.sqlite import Schema, ensure_schema, open_sqlite, transaction

INDEX_VERSION = 3
"""3: an FTS5 table over passage text (rows keyed by `passages.n`). Older indexes are rebuilt on open."""

_SCHEMA = """
CREATE TABLE passages(
    n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, created_at REAL NOT NULL, current INTEGER NOT NULL,
    importance INTEGER NOT NULL, accessed REAL NOT NULL
);
CREATE INDEX passages_created ON passages(created_at);
CREATE TABLE passage_tags(tag TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY(tag, id)) WITHOUT ROWID;
CREATE VIRTUAL TABLE passages_fts USING fts5(
    content, tokenize='porter unicode61 remove_diacritics 2'
);
"""

SCHEMA = Schema("archival index", INDEX_VERSION, _SCHEMA, legacy=lambda db: -1)
"""No migrations: the index is derived data, so an older one (or one from before it kept a version,
`legacy` -1) is a `StoreError` here and `open_index` rebuilds it from Chroma."""

LEXICAL_BUDGET = 5000
"""Most matching passages bm25 ranks per query (see `PassageIndex._match`)."""
LEXICAL_POOL = 1000
"""Most bm25 scores read per query: candidates, and the bm25 of the candidates found by meaning."""


class Row(NamedTuple):
    id: str
    created_at: float
    current: bool
    importance: int
    accessed: float
    tags: list[str]
    content: str


class Scoring(NamedTuple):
    importance: int
    accessed: float
    created_at: float
    n: int = 0
    """The passage's row in the index (its FTS5 rowid)."""


class PassageIndex:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        with open_sqlite(self.path, "archival index", corrupt="corrupt") as self._db:
            ensure_schema(self._db, SCHEMA, self.path)

    def size(self) -> int:
        return int(self._q("SELECT count(*) FROM passages")[0][0])

    def add(self, rows: Iterable[Row]) -> None:
        rows = list(rows)
        with self._lock:
            try:
                with transaction(self._db):
                    self._add(rows)
            except sqlite3.Error as e:
                raise StoreError(f"cannot write archival index {self.path}: {e}") from e

    def _add(self, rows: list[Row]) -> None:
        # A re-added id (a rebuild over leftovers) must not leave its old text findable.
        self._db.executemany(
            "DELETE FROM passages_fts WHERE rowid IN (SELECT n FROM passages WHERE id = ?)",
            [(r.id,) for r in rows],
        )
        self._db.executemany(
            "INSERT OR REPLACE INTO passages(id, created_at, current, importance, accessed) "
            "VALUES (?,?,?,?,?)",
            [(r.id, r.created_at, int(r.current), r.importance, r.accessed) for r in rows],
        )
        self._db.executemany(
            "INSERT INTO passages_fts(rowid, content) SELECT n, ? FROM passages WHERE id = ?",
            [(r.content, r.id) for r in rows],
        )
        self._db.executemany(
            "INSERT OR IGNORE INTO passage_tags VALUES (?,?)",
            [(t, r.id) for r in rows for t in r.tags],
        )

    def set_current(self, passage_id: str, current: bool) -> None:
        self._q("UPDATE passages SET current=? WHERE id=?", (int(current), passage_id))

    def touch(self, ids: list[str], at: float) -> None:
        with self._lock:
            try:
                with transaction(self._db):
                    self._db.executemany("UPDATE passages SET accessed=? WHERE id=?", [(at, i) for i in ids])
            except sqlite3.Error as e:
                raise StoreError(f"cannot write archival index {self.path}: {e}") from e

    def accessed(self, ids: list[str]) -> dict[str, float]:
        return {pid: s.accessed for pid, s in self.scoring(ids, PassageFilter()).items()}

    def clear(self) -> None:
        self._q("DELETE FROM passages")
        self._q("DELETE FROM passage_tags")
        self._q("DELETE FROM passages_fts")

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
        clauses, args = self._filter_sql(flt)
        out: dict[str, Scoring] = {}
        for start in range(0, len(ids), 5000):
            chunk = ids[start : start + 5000]
            sql = (
                f"SELECT p.id, p.importance, p.accessed, p.created_at, p.n FROM passages p "
                f"WHERE p.id IN ({','.join('?' * len(chunk))})" + "".join(f" AND {c}" for c in clauses)
            )
            out.update((r[0], Scoring(*r[1:])) for r in self._q(sql, [*chunk, *args]))
        return out

    def lexical(self, query: str, flt: PassageFilter, size: int) -> dict[int, float]:
        """bm25 (higher is better) of the best matches of `query`'s words passing the filter, at most
        `LEXICAL_POOL`, best first: passage row -> score. Empty when no word can rank (see `_match`).

        The pool serves twice: its head proposes candidates, and it gives the candidates proposed by
        meaning their bm25 (0 if not in it), so a candidate's lexical score never depends on whether
        the words or the meaning proposed it. Without a filter FTS5 ranks on its own (fastest);
        with one, SQL ranks the join with the passage rows."""
        match = self._match(query, size)
        if match is None:
            return {}
        if flt.empty:
            sql, args = (
                (
                    "SELECT rowid, -bm25(passages_fts) AS s FROM passages_fts WHERE passages_fts MATCH ? "
                    "ORDER BY s DESC LIMIT ?"
                ),
                [match, LEXICAL_POOL],
            )
        else:
            clauses, args = self._filter_sql(flt)
            sql = (
                "SELECT p.n, -bm25(passages_fts) AS s FROM passages_fts JOIN passages p "
                "ON p.n = passages_fts.rowid WHERE passages_fts MATCH ?"
                + "".join(f" AND {c}" for c in clauses)
                + " ORDER BY s DESC LIMIT ?"
            )
            args = [match, *args, LEXICAL_POOL]
        return {int(r[0]): float(r[1]) for r in self._q(sql, args)}

    def fields(self, rows: list[int]) -> dict[int, tuple[str, Scoring]]:
        """Passage row -> (id, scoring fields)."""
        out: dict[int, tuple[str, Scoring]] = {}
        for start in range(0, len(rows), 5000):
            chunk = rows[start : start + 5000]
            sql = (
                f"SELECT n, id, importance, accessed, created_at FROM passages "
                f"WHERE n IN ({','.join('?' * len(chunk))})"
            )
            out.update((r[0], (r[1], Scoring(r[2], r[3], r[4], r[0]))) for r in self._q(sql, chunk))
        return out

    def _match(self, query: str, size: int) -> str | None:
        """The FTS5 MATCH for `query`'s words, common words pruned; None when no word matches.

        Ranking every match of a common word costs time in proportion to the collection, and such a
        word barely ranks anyway (bm25's idf is ~0 for a word in half the passages). So the words are
        counted first (cheap); those in at least half the passages are dropped (bm25 gives them no
        weight; when nothing else is left the query has no lexical side), then words are kept rarest
        first while their matches stay within `LEXICAL_BUDGET` (the rarest always stays). Exact when
        the query's words match fewer passages than that."""
        quoted = ['"' + t.replace('"', '""') + '"' for t in query_terms(query)]
        counted = sorted(
            (int(self._q("SELECT count(*) FROM passages_fts WHERE passages_fts MATCH ?", (q,))[0][0]), q)
            for q in quoted
        )
        counted = [c for c in counted if c[0] > 0]
        if not counted:
            return None
        usable = [c for c in counted if 2 * c[0] < size]
        if not usable:  # FTS5's bm25 gives such words an idf of 1e-6: min-max would only stretch noise
            return None
        kept: list[str] = []
        matches = 0
        for df, q in usable:
            if kept and matches + df > LEXICAL_BUDGET:
                break
            kept.append(q)
            matches += df
        return " OR ".join(kept)

    def _filter_sql(self, flt: PassageFilter) -> tuple[list[str], list[Any]]:
        clauses, args = self._clauses(flt)
        if flt.tags is not None:
            marks = ",".join("?" * len(flt.tags))
            clauses.append(f"EXISTS (SELECT 1 FROM passage_tags t WHERE t.id = p.id AND t.tag IN ({marks}))")
            args += [t.strip() for t in flt.tags]
        return clauses, args

    def _q(self, sql: str, args: Any = ()) -> list[Any]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as e:
                raise StoreError(f"archival index {self.path} failed: {e}") from e

    def close(self) -> None:
        with self._lock:
            self._db.close()


def row_of(p: Passage) -> Row:
    """The index row of a newly stored passage."""
    return Row(
        p.id, p.created_at.timestamp(), p.status == "current", p.importance, p.last_accessed_at.timestamp(),
        p.tags, p.content,
    )  # fmt: skip


def row_from_metadata(pid: str, meta: dict[str, Any], content: str) -> Row:
    tags = [k[4:] for k, v in meta.items() if k.startswith("tag:") and v is True]
    return Row(
        pid,
        float(meta["created_at"]),
        meta.get("status") == "current",
        int(meta["importance"]),
        float(meta["last_accessed_at"]),
        tags,
        content,
    )


def rebuild(index: PassageIndex, page: Callable[[int, int], Any], total: int, batch: int = 2000) -> None:
    """Refill the index from Chroma; `page(offset, limit)` returns Chroma's `get` result with metadatas
    and documents."""
    index.clear()
    for offset in range(0, total, batch):
        got = page(offset, batch)
        index.add(
            row_from_metadata(i, m, d or "")
            for i, m, d in zip(got["ids"], got["metadatas"], got["documents"], strict=True)
        )


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
    held = index.size()
    if total == 0 and held:
        # Chroma lost what the index still holds: emptying the index would destroy the last copy of
        # every passage's text.
        index.close()
        raise StoreError(
            f"Chroma holds no passages but the passage index {path} holds {held}; refusing to empty it "
            "(restore the archival folder from a backup)"
        )
    if held != total:
        logger.info("archival: rebuilding the passage index at {} ({} passages)", path, total)
        rebuild(index, chroma_page, total)
    return index
