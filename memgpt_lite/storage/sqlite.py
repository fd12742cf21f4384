"""Opening the SQLite files the stores keep (recall, its search index, the archival passage index).

Every store opens its file the same way: autocommit (each store runs its own transactions), one
connection shared by threads under the store's lock, a 30 s busy timeout for another process's
write, and WAL with synchronous=NORMAL. What differs is the schema each store checks or creates;
that runs inside `open_sqlite`, so an SQLite error there becomes one `StoreError` that says which
store and file it was, and the connection is closed instead of leaked.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memgpt_lite.errors import StoreError

__all__ = ["open_sqlite", "open_sqlite_readonly", "check_sqlite_file", "table_names"]

BUSY_TIMEOUT_S = 30.0


@contextmanager
def open_sqlite(path: Path, what: str, *, corrupt: str) -> Iterator[sqlite3.Connection]:
    """Connect to `path` and yield the connection for the store to check or create its schema.

    The connection stays open when the block succeeds (the store keeps it) and is closed when the
    block raises. `what` names the store ("recall database"); `corrupt` is what an SQLite error while
    opening means for it ("corrupt or not a recall database"), giving "<what> <path> is <corrupt>: <error>".
    """
    try:
        db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as e:
        raise StoreError(f"cannot open {what} {path}: {e}") from e
    try:
        db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a crash never corrupts the file; only the last commits may be lost on power cut.
        db.execute("PRAGMA synchronous=NORMAL")
        yield db
    except sqlite3.DatabaseError as e:
        db.close()
        raise StoreError(f"{what} {path} is {corrupt}: {e}") from e
    except BaseException:
        db.close()
        raise


SQLITE_HEADER = b"SQLite format 3\x00"


class _SnapshotConnection(sqlite3.Connection):
    """A connection to a private copy of a database; closing it removes the copy."""

    snapshot_dir: str | None = None

    def close(self) -> None:
        super().close()
        if self.snapshot_dir is not None:
            shutil.rmtree(self.snapshot_dir, ignore_errors=True)
            self.snapshot_dir = None

    def __del__(self) -> None:
        if self.snapshot_dir is not None:
            shutil.rmtree(self.snapshot_dir, ignore_errors=True)


def check_sqlite_file(path: Path, what: str) -> None:
    """`StoreError` naming `path` unless it starts like an SQLite database (missing, empty, foreign)."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        raise StoreError(f"{what} {path} does not exist") from None
    except OSError as e:
        raise StoreError(f"{what} {path} cannot be read: {e.strerror or e}") from None
    if not head:
        raise StoreError(f"{what} {path} is empty (0 bytes), not an SQLite database")
    if head != SQLITE_HEADER:
        raise StoreError(f"{what} {path} is not an SQLite database (another program's file?)")


def open_sqlite_readonly(path: Path, what: str, *, check: bool = True) -> sqlite3.Connection:
    """A connection that can neither write `path` nor create anything beside it.

    SQLite's `mode=ro` alone is not enough: on a WAL database it creates `-wal` and `-shm` files next to
    it and leaves them behind. So a database whose WAL is empty is opened `immutable=1` (no locks, no
    side files); one with a non-empty WAL (a writer is running, or was killed) is copied, with its WAL,
    to a private temporary folder and read there, so that SQLite's recovery writes only the copy.
    `check` runs `PRAGMA quick_check(1)`: a page garbled in the middle of the file is one `StoreError`
    naming it here, not a raw error (or a crash in a library) later. Every `StoreError` names the file."""
    path = Path(path)
    check_sqlite_file(path, what)
    wal = Path(f"{path}-wal")
    try:
        wal_size = wal.stat().st_size
    except FileNotFoundError:
        wal_size = 0
    db: sqlite3.Connection
    try:
        if wal_size:
            tmp = tempfile.mkdtemp(prefix="memgpt-lite-readonly-")
            try:
                copy = Path(tmp) / path.name
                shutil.copyfile(path, copy)
                shutil.copyfile(wal, Path(f"{copy}-wal"))
                db = sqlite3.connect(
                    copy, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False,
                    factory=_SnapshotConnection,
                )  # fmt: skip
            except BaseException:
                shutil.rmtree(tmp, ignore_errors=True)
                raise
            db.snapshot_dir = tmp
        else:
            uri = f"{path.resolve().as_uri()}?mode=ro&immutable=1"
            db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    except (sqlite3.Error, OSError) as e:
        raise StoreError(f"cannot open {what} {path} read-only: {e}") from e
    try:
        db.execute("PRAGMA query_only=ON")
        if check:
            problem = db.execute("PRAGMA quick_check(1)").fetchone()[0]
            if problem != "ok":
                raise sqlite3.DatabaseError(" ".join(str(problem).split()))
    except sqlite3.DatabaseError as e:
        db.close()
        raise StoreError(f"{what} {path} is damaged or not a database: {e}") from e
    return db


def table_names(db: sqlite3.Connection) -> set[str]:
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table','view')")}
