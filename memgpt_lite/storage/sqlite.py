"""Opening the SQLite files the stores keep (recall, its search index, the archival passage index).

Every store opens its file the same way: autocommit (each store runs its own transactions), one
connection shared by threads under the store's lock, a 30 s busy timeout for another process's
write, and WAL with synchronous=NORMAL. What differs is the schema each store checks or creates;
that runs inside `open_sqlite`, so an SQLite error there becomes one `StoreError` that says which
store and file it was, and the connection is closed instead of leaked.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memgpt_lite.errors import StoreError

__all__ = ["open_sqlite"]

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
