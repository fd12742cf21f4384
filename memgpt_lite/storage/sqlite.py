"""The one SQLite layer every store uses (recall, its search index, the archival passage index, the
BugHunt explorer store): opening, transactions, the schema version and migrations.

- Open: `open_sqlite` — autocommit (stores run their own transactions), one connection shared by
  threads under the store's lock, one busy timeout (`BUSY_TIMEOUT_S`) for another process's write,
  WAL with synchronous=NORMAL (OFF inside `durability.scratch_writes()`). Readers use `open_sqlite_readonly` (writes nothing, creates nothing).
  An SQLite error while a store checks its schema inside `open_sqlite` becomes one `StoreError` that
  says which store and file it was, and the connection is closed instead of leaked.
- Transactions: `transaction(db)` — BEGIN IMMEDIATE / COMMIT, ROLLBACK when the block raises.
- Schema version: `PRAGMA user_version`, nothing else. A `Schema` says how a store's file is created
  (the current layout in one script) and brought forward (`migrations`, one step per version), and
  how to recognise a file written before the store kept a version (`legacy`); `ensure_schema` applies
  it to a writer's file, `check_schema` judges a reader's (which must not migrate).
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from memgpt_lite.errors import StoreError

from .durability import durable

__all__ = [
    "BUSY_TIMEOUT_S",
    "Schema",
    "check_schema",
    "check_sqlite_file",
    "column_names",
    "database_file",
    "ensure_schema",
    "execute_script",
    "open_sqlite",
    "open_sqlite_readonly",
    "table_names",
    "transaction",
]

BUSY_TIMEOUT_S = 30.0
"""How long a write waits for another process's write lock before it fails."""


@contextmanager
def open_sqlite(
    path: Path,
    what: str,
    *,
    corrupt: str,
    quick_check: bool = False,
    factory: type[sqlite3.Connection] = sqlite3.Connection,
) -> Iterator[sqlite3.Connection]:
    """Connect to `path` and yield the connection for the store to check or create its schema.

    The connection stays open when the block succeeds (the store keeps it) and is closed when the
    block raises. `what` names the store ("recall database"); `corrupt` is what an SQLite error while
    opening means for it ("corrupt or not a recall database"), giving "<what> <path> is <corrupt>: <error>".
    `quick_check` runs `PRAGMA quick_check(1)` first (for small files: a damaged page is then an error
    here, not a raw one mid-session). `factory` is the connection's class (a store that checks what it
    writes, e.g. BugHunt's secret scrubber).
    """
    try:
        db = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False, factory=factory
        )
    except sqlite3.Error as e:
        raise StoreError(f"cannot open {what} {path}: {e}") from e
    try:
        db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a crash never corrupts the file; only the last commits may be lost on power
        # cut. OFF for a scratch copy (`durability.scratch_writes`): it is deleted, never recovered.
        db.execute("PRAGMA synchronous=NORMAL" if durable() else "PRAGMA synchronous=OFF")
        if quick_check:
            _quick_check(db)
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
    to a private temporary folder and read there, so that SQLite's recovery writes only the copy. The
    same holds for a rollback journal (`-journal`, Chroma's mode): a writer killed inside a transaction
    leaves pages of it in the file and the old pages in a hot journal, which `immutable=1` would ignore
    (a torn read: "malformed"); the copy is rolled back instead.
    `check` runs `PRAGMA quick_check(1)`: a page garbled in the middle of the file is one `StoreError`
    naming it here, not a raw error (or a crash in a library) later. Every `StoreError` names the file."""
    path = Path(path)
    check_sqlite_file(path, what)
    sides = [side for side in (Path(f"{path}-wal"), Path(f"{path}-journal")) if _size(side)]
    db: sqlite3.Connection
    try:
        if sides:
            tmp = tempfile.mkdtemp(prefix="memgpt-lite-readonly-")
            try:
                copy = Path(tmp) / path.name
                shutil.copyfile(path, copy)
                for side in sides:
                    shutil.copyfile(side, Path(tmp) / side.name)
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
            _quick_check(db)
    except sqlite3.DatabaseError as e:
        db.close()
        raise StoreError(f"{what} {path} is damaged or not a database: {e}") from e
    return db


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _quick_check(db: sqlite3.Connection) -> None:
    problem = db.execute("PRAGMA quick_check(1)").fetchone()[0]
    if problem != "ok":
        raise sqlite3.DatabaseError(" ".join(str(problem).split()))


def table_names(db: sqlite3.Connection) -> set[str]:
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table','view')")}


def column_names(db: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in db.execute(f"PRAGMA table_info({table})")}


def database_file(db: sqlite3.Connection) -> str:
    """The file behind a connection (for error messages)."""
    try:
        return str(db.execute("PRAGMA database_list").fetchone()[2])
    except sqlite3.Error:
        return "SQLite database"


# -- transactions ------------------------------------------------------------------------------------
@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One atomic unit on an autocommit connection: BEGIN IMMEDIATE, COMMIT when the block ends,
    ROLLBACK when it raises (the exception propagates).

    IMMEDIATE takes the write lock up front (waiting up to the busy timeout), so a transaction that
    reads then writes never fails half-way on another writer's lock. A lock still held past the
    timeout is a `StoreError` naming the file; nothing was written."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        busy = "locked" in str(exc) or "busy" in str(exc)
        raise StoreError(
            f"{database_file(db)}: cannot write ({exc})"
            + ("; another program holds the database" if busy else "")
        ) from exc
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:  # SQLite may already have rolled back (e.g. after SQLITE_FULL)
            db.execute("ROLLBACK")
        raise


# -- schema version and migrations ------------------------------------------------------------------
Step = str | Callable[[sqlite3.Connection], None]
"""A migration step: an SQL script, or a function of the connection (e.g. one that adds columns)."""


class Schema(NamedTuple):
    """How one store's file is laid out and brought up to date, versioned by `PRAGMA user_version`.

    - `create`: the current layout as one script, for a new (empty) file; it gets `version`;
    - `migrations`: the steps that bring an older file forward, oldest first; the last one ends at
      `version`, so `migrations[i]` takes version `version - len(migrations) + i` one further. A file
      older than the first step cannot be migrated (`StoreError`; derived indexes rebuild instead);
    - `legacy`: the version of a file with tables but `user_version` 0 (written before the store kept
      a version), or None when such a file is not this store's (another program's database);
    - `drop`: for derived data (an index rebuilt from its source), the script that empties a file too
      old to migrate, which is then created afresh instead of refused.
    """

    what: str
    version: int
    create: str
    migrations: tuple[Step, ...] = ()
    legacy: Callable[[sqlite3.Connection], int | None] | None = None
    drop: str | None = None

    @property
    def oldest(self) -> int:
        """The oldest version that can be brought forward."""
        return self.version - len(self.migrations)


def _file_version(db: sqlite3.Connection, schema: Schema, path: Path) -> int:
    """The file's schema version: 0 for an empty database; a `StoreError` for a foreign or newer one."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version == 0:
        tables = table_names(db)
        if not tables:
            return 0
        legacy = schema.legacy(db) if schema.legacy is not None else None
        if legacy is None:
            raise StoreError(
                f"{path} is an SQLite database but not a {schema.what} (tables: {sorted(tables)[:5]})"
            )
        version = legacy
    if version > schema.version:
        raise StoreError(
            f"{schema.what} {path} has schema version {version}; this version of the code reads up to "
            f"{schema.version} (upgrade)"
        )
    return version


def ensure_schema(db: sqlite3.Connection, schema: Schema, path: Path) -> int:
    """Create the schema in an empty file or migrate an older one forward; returns the version found.

    Each step runs in one transaction with its version bump, so a crash leaves the file at one
    version or the next, never between."""
    found = version = _file_version(db, schema, path)
    if version == 0 or (version < schema.oldest and schema.drop is not None):
        with transaction(db):
            if version:
                _run(db, str(schema.drop))
            _run(db, schema.create)
            db.execute(f"PRAGMA user_version={int(schema.version)}")
        return found
    if version < schema.oldest:
        raise StoreError(
            f"{schema.what} {path} has schema version {version}, older than any this code migrates "
            f"({schema.oldest}..{schema.version})"
        )
    while version < schema.version:
        with transaction(db):
            _run(db, schema.migrations[version - schema.oldest])
            version += 1
            db.execute(f"PRAGMA user_version={version}")
    if int(db.execute("PRAGMA user_version").fetchone()[0]) != version:  # a legacy file at `version`
        db.execute(f"PRAGMA user_version={version}")
    return found


def check_schema(db: sqlite3.Connection, schema: Schema, path: Path) -> int:
    """A reader's check (it migrates nothing): the file's version, older ones included; an empty,
    foreign or newer database is a `StoreError`."""
    version = _file_version(db, schema, path)
    if version == 0:
        raise StoreError(f"{schema.what} {path} is an empty SQLite database (no {schema.what} tables)")
    return version


def _run(db: sqlite3.Connection, step: Step) -> None:
    if callable(step):
        step(db)
    else:
        execute_script(db, step)


def execute_script(db: sqlite3.Connection, script: str) -> None:
    """Run an SQL script statement by statement inside the caller's transaction (`executescript`
    would COMMIT it first, so a crash could leave half a schema)."""
    for statement in _statements(script):
        db.execute(statement)


def _statements(script: str) -> Iterator[str]:
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        # complete_statement knows quotes and CREATE TRIGGER ... BEGIN ...; END
        if sqlite3.complete_statement(pending):
            if pending.strip(" \t\r\n;"):
                yield pending
            pending = ""
    if pending.rstrip(";").strip():
        raise ValueError(f"incomplete SQL statement in a schema script: {pending.strip()[:60]!r}")
