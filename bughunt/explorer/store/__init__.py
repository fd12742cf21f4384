"""The explorer's store: structured memory in one SQLite file inside the store directory.

The harness (never the model) writes it, one transaction per step, in WAL mode, so Ctrl-C or
`kill -9` loses at most the step in flight. `ExplorerStore` opens the file (through
`memgpt_lite.storage.sqlite`: one busy timeout, `transaction()`, the schema version and migrations
in `schema.py`) and is composed of one part per concern, each returning typed rows (`rows.py`):

- `meta` (`meta.py`): base URL, current app version, built-in-site flag, current position;
- `history` (`history.py`): sessions (every explore or resume run) and steps (every fetch it made);
- `visits` (`visits.py`): the visited set (`pages`), with outcome, version tested and re-test marks;
- `link_table` (`links.py`): each page's links in page order, and the browser engine's click states
  (an element that acts without an address, named by a harness-made route `<page>#click-<digest>`);
- `bug_table` (`bugs.py`): bugs keyed by fingerprint (one live entry each; a changed status
  supersedes), every report the run emitted, and the bugs only the model reported (contract 6);
- `notebook` (`notebook.py`): the model's notes that passed the page-text filter and the harness's
  hand-over note, quarantined observations (raw page text with provenance — data for audit, never
  fact, note, instruction or working context), and rejections.
"""

from __future__ import annotations

import sqlite3
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from memgpt_lite.errors import StoreError
from memgpt_lite.storage.lock import StoreLock
from memgpt_lite.storage.sqlite import (
    check_schema,
    ensure_schema,
    open_sqlite,
    open_sqlite_readonly,
    table_names,
    transaction,
)

from ..secrets import Scrubber
from .bugs import BugTable
from .changes import Changes
from .history import History
from .links import LinkTable
from .meta import Meta
from .notebook import Notebook
from .rows import Bug, ModelReport, Note, Observation, Rejection, Report, Session, Step, Visit
from .schema import FORMAT_VERSION, LATER_TABLES, SCHEMA, SCHEMA_VERSION, TABLE_NAMES
from .scrubbing import ScrubbingConnection
from .visits import Visits

__all__ = [
    "DB_NAME",
    "FORMAT_VERSION",
    "LOCK_NAME",
    "SCHEMA_VERSION",
    "Bug",
    "ExplorerStore",
    "ModelReport",
    "Note",
    "Observation",
    "Rejection",
    "Report",
    "Session",
    "Step",
    "Visit",
]

DB_NAME = "bughunt.sqlite"
LOCK_NAME = "bughunt.lock"


class ExplorerStore:
    """Open (or create) the explorer database in `store_dir`. One writer at a time: a second process
    opening the same store with `lock=True` (the default; readers such as `bughunt memory` pass False)
    gets a `StoreError` naming the first."""

    meta: Meta
    history: History
    visits: Visits
    link_table: LinkTable
    bug_table: BugTable
    notebook: Notebook

    def __init__(
        self, store_dir: str | Path, create: bool = True, *, lock: bool = True, read_only: bool | None = None
    ) -> None:
        self.dir = Path(store_dir)
        self.path = self.dir / DB_NAME
        # A store opened neither to create nor to write (no lock) is a reader: it writes nothing.
        self.read_only = (not create and not lock) if read_only is None else read_only
        _check_regular(self.dir, self.path)
        if not self.path.exists():
            if not create:
                raise StoreError(
                    f"{self.dir}: no BugHunt exploration here (missing {DB_NAME}); run `bughunt explore` first"
                )
            if self.dir.exists() and not self.dir.is_dir():
                raise StoreError(f"{self.dir}: exists and is not a directory")
            # our own lock file alone is what a process killed before creating the database leaves
            if self.dir.exists() and (
                entries := sorted(p.name for p in self.dir.iterdir() if p.name != LOCK_NAME)
            ):
                # never adopt somebody's folder: files written next to theirs would be hard to tell apart
                shown = ", ".join(entries[:5]) + (", ..." if len(entries) > 5 else "")
                raise StoreError(
                    f"{self.dir}: not a BugHunt store (no {DB_NAME}) but not empty either ({shown}); "
                    "choose an empty or new folder"
                )
            self.dir.mkdir(parents=True, exist_ok=True)
        self._lock = StoreLock(self.dir / LOCK_NAME, "BugHunt store").acquire() if lock else None
        self.scrubber = Scrubber()
        """Secret values never written (`add_secrets`): every string parameter of every write is scrubbed."""
        try:
            if not self.read_only and not create:
                # `resume` adopts nothing: an empty or foreign file is refused before a table is written.
                self._open_read_only().close()
            self.db = self._open_read_only() if self.read_only else self._open()
        except BaseException:
            self.close()
            raise
        self.db.row_factory = sqlite3.Row
        # the writer (it holds the lock) keeps copies of what it writes; a reader asks the file each time
        writer = self._lock is not None and not self.read_only
        self.meta = Meta(self.db, kept=writer)
        self.history = History(self.db, kept=writer)
        self.changes = Changes()
        self.link_table = LinkTable(self.db, self.changes)
        self.visits = Visits(self.db, self.link_table)
        self.bug_table = BugTable(self.db)
        self.notebook = Notebook(self.db, kept=writer)

    def _open(self) -> sqlite3.Connection:
        # The store is small: checking it whole on open is cheap, and a damaged page would otherwise
        # surface mid-session as a raw sqlite3 error.
        try:
            with open_sqlite(
                self.path,
                "BugHunt store",
                corrupt="not a readable BugHunt store",
                quick_check=True,
                factory=ScrubbingConnection,
            ) as db:
                ensure_schema(db, SCHEMA, self.path)
                if isinstance(db, ScrubbingConnection):
                    db.scrubber = self.scrubber
        except StoreError as exc:
            cause = exc.__cause__
            raise StoreError(
                _named(self.path, cause if isinstance(cause, sqlite3.DatabaseError) else exc)
            ) from exc
        return db

    def _open_read_only(self) -> sqlite3.Connection:
        """Open for reading only (`open_sqlite_readonly`: no write, no side file); a file that is empty,
        foreign, damaged or lacks BugHunt's tables is one `StoreError` naming it."""
        try:
            db = open_sqlite_readonly(self.path, "BugHunt store")
        except StoreError as exc:
            raise StoreError(_named(self.path, exc)) from exc
        try:
            check_schema(db, SCHEMA, self.path)
            missing = TABLE_NAMES - LATER_TABLES - table_names(db)
            if missing:
                raise StoreError(f"missing tables: {', '.join(sorted(missing))}")
        except StoreError as exc:
            db.close()
            raise StoreError(_named(self.path, exc)) from exc
        except sqlite3.DatabaseError as exc:
            db.close()
            raise StoreError(_named(self.path, exc)) from exc
        return db

    def add_secrets(self, values: Iterable[str]) -> int:
        """Never write these values (nor their encoded forms): the session's secrets, given as it
        learns them (the login options, then the cookies a login response set). Returns how many are
        too short to be told from ordinary text (`secrets.MIN_SECRET_CHARS`): those are not scrubbed."""
        return self.scrubber.add(values)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic unit (a step): everything in it is committed together or not at all."""
        try:
            with transaction(self.db) as db:
                yield db
        except BaseException:
            # their copies may hold writes that were rolled back
            self.meta.forget_copy()
            self.history.forget_copy()
            self.link_table.forget_copy()
            self.visits.forget_copy()
            self.bug_table.forget_copy()
            self.notebook.forget_copy()
            raise

    def expire(self, cutoff: float) -> dict[str, int]:
        """Forget memories unused since `cutoff`: pages (with their links), notes and observations.

        Bug entries never expire: they are the audit trail that keeps duplicates from being re-reported.
        """
        return {"pages": self.visits.expire(cutoff), **self.notebook.expire(cutoff)}

    def close(self) -> None:
        try:
            if hasattr(self, "db"):
                self.db.close()
        finally:
            if self._lock is not None:
                self._lock.release()


def _check_regular(store_dir: Path, path: Path) -> None:
    """A store folder and database that are something else (a FIFO, a device, a socket) are refused
    before they are opened: reading a FIFO would block for ever, and nothing is written to one."""
    for what, is_ok in ((store_dir, Path.is_dir), (path, Path.is_file)):
        try:
            mode = what.stat().st_mode
        except FileNotFoundError:
            return
        except OSError as exc:
            raise StoreError(f"{what}: cannot be read ({exc.strerror or exc})") from None
        if not is_ok(what):
            kinds = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISREG, "a file"), (stat.S_ISDIR, "a folder"))
            kind = next((name for test, name in kinds if test(mode)), "a special file")
            raise StoreError(
                f"{what}: {kind}, not a BugHunt store {'folder' if what == store_dir else 'file'}"
            )


def _named(path: Path, exc: BaseException) -> str:
    """One message for every reason a store file cannot be opened, starting with its path."""
    text = str(exc)
    for prefix in (f"{path}: ", f"{path} ", f"BugHunt store {path} "):
        text = text.removeprefix(prefix)
    return f"{path}: not a readable BugHunt store ({text})"
