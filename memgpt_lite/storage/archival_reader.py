"""Archival storage read without writing a byte: Chroma's own SQLite file, opened read-only.

The Chroma client cannot open a persistent store without writing to it (it runs migrations, takes its
write lock, creates `chroma.sqlite3` when missing — over an empty or foreign file too), so read-only
commands (`memgpt-lite inspect`, `bughunt memory`, `bughunt report`) never start it. They read the
passages' documents and metadata straight from `chroma.sqlite3` with SQL (`open_sqlite_readonly`),
which is where embedded Chroma keeps them; vectors are not needed to count or show passages. What
this reader cannot do (search) raises `UsageError`. The file's layout is Chroma's (checked on open:
a file without it is one `StoreError` naming the file).

`check_chroma_file(folder)` is the same check for writers: an existing `chroma.sqlite3` that is empty,
another program's or garbled is refused before Chroma would write a new database over it.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memgpt_lite.errors import StoreError, UsageError
from memgpt_lite.storage.passages import Passage, decode
from memgpt_lite.storage.sqlite import open_sqlite_readonly, table_names

CHROMA_FILE = "chroma.sqlite3"
_CHROMA_TABLES = frozenset({"collections", "segments", "embeddings", "embedding_metadata"})
_DOCUMENT_KEY = "chroma:document"
_BATCH = 500


def _open_checked(folder: Path, *, quick_check: bool) -> sqlite3.Connection:
    file = folder / CHROMA_FILE
    db = open_sqlite_readonly(file, "Chroma database", check=quick_check)
    try:
        missing = _CHROMA_TABLES - table_names(db)
    except sqlite3.DatabaseError as e:
        db.close()
        raise StoreError(f"Chroma database {file} is damaged or not a database: {e}") from e
    if missing:
        db.close()
        raise StoreError(
            f"Chroma database {file} is an SQLite file but not Chroma's (missing tables: {', '.join(sorted(missing))})"
        )
    return db


def check_chroma_file(folder: str | Path) -> None:
    """Refuse (`StoreError` naming the file) an existing `chroma.sqlite3` that Chroma would overwrite or
    crash on: empty, not SQLite, not Chroma's, or damaged. No file: nothing to check."""
    file = Path(folder) / CHROMA_FILE
    if not file.exists():
        return
    _open_checked(Path(folder), quick_check=True).close()


class ArchivalReader:
    """Passages of one collection, read from `<folder>/chroma.sqlite3`; never writes."""

    def __init__(self, folder: str | Path, collection: str = "archival") -> None:
        self.location = str(folder)
        file = Path(folder) / CHROMA_FILE
        if not file.exists():
            raise StoreError(f"archival storage {folder} has no {CHROMA_FILE}; nothing to read")
        self._db = _open_checked(Path(folder), quick_check=True)
        try:
            row = self._db.execute("SELECT id FROM collections WHERE name = ?", (collection,)).fetchone()
            segment = (
                self._db.execute(
                    "SELECT id FROM segments WHERE collection = ? AND scope = 'METADATA'", (row[0],)
                ).fetchone()
                if row
                else None
            )
        except sqlite3.DatabaseError as e:
            self._db.close()
            raise StoreError(f"Chroma database {file} cannot be read: {e}") from e
        self._segment: str | None = segment[0] if segment else None

    def _q(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        try:
            return self._db.execute(sql, tuple(args)).fetchall()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"Chroma database {self.location}/{CHROMA_FILE} cannot be read: {e}") from e

    def count(self, include_superseded: bool = True) -> int:
        if self._segment is None:
            return 0
        if include_superseded:
            return int(
                self._q("SELECT count(*) FROM embeddings WHERE segment_id = ?", (self._segment,))[0][0]
            )
        return int(
            self._q(
                "SELECT count(*) FROM embeddings e JOIN embedding_metadata m ON m.id = e.id "
                "WHERE e.segment_id = ? AND m.key = 'status' AND m.string_value = 'current'",
                (self._segment,),
            )[0][0]
        )

    def get(self, passage_id: str) -> Passage | None:
        found = self.get_many([passage_id])
        return found[0] if found else None

    def get_many(self, ids: Sequence[str]) -> list[Passage]:
        """Passages by id in the order asked; unknown ids are left out."""
        if self._segment is None or not ids:
            return []
        metas: dict[str, dict[str, Any]] = defaultdict(dict)
        for start in range(0, len(ids), _BATCH):
            batch = list(ids[start : start + _BATCH])
            rows = self._q(
                "SELECT e.embedding_id, m.key, m.string_value, m.int_value, m.float_value, m.bool_value "
                "FROM embeddings e JOIN embedding_metadata m ON m.id = e.id "
                f"WHERE e.segment_id = ? AND e.embedding_id IN ({','.join('?' * len(batch))})",
                [self._segment, *batch],
            )
            for pid, key, s, i, f, b in rows:
                metas[pid][key] = next(
                    (v for v in (s, i, f) if v is not None), None if b is None else bool(b)
                )
        out = {}
        for pid, meta in metas.items():
            document = meta.pop(_DOCUMENT_KEY, None)
            out[pid] = decode(pid, document, meta)
        return [out[i] for i in ids if i in out]

    def search(self, *args: Any, **kwargs: Any) -> Any:
        raise UsageError("archival storage was opened read-only (from Chroma's file); search needs a writer")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ArchivalReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
