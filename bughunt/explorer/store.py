"""The explorer's store: structured memory in one SQLite file inside the store directory.

The harness (never the model) writes it, one transaction per step, in WAL mode, so Ctrl-C or
`kill -9` loses at most the step in flight. Tables:

- `meta`: base URL, current app version, built-in-site flag, current position, format version;
- `sessions` / `steps`: every explore or resume run and every fetch it made;
- `pages` (the visited set) and `links` (the link table, each page's links in page order);
- `bugs`: the bug table keyed by fingerprint — exactly one live entry per fingerprint (enforced by a
  partial unique index); a changed status inserts a new entry and stamps the old one `superseded_by`;
- `reports`: every report the run emitted (a report of an already-open fingerprint is a duplicate);
- `model_reports`: bugs the llm policy reported that no oracle backs (contract 6: status
  "model_reported", kind kept, the model's words a quarantined observation) — shown apart, never counted;
- `click_actions`: the browser engine's clicks (an element that acts without an address), each named
  by a harness-made route `<page route>#click-<digest>` in the link table: the state it leaves
  (route + DOM structure) is a page of its own;
- `notes`: the model's notes that passed the page-text filter, plus the harness's hand-over note
  (one, rewritten at the end of each session from structured memory only); `observations`: quarantined raw page
  text with provenance — data for audit, never fact, note, instruction or working context.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from memgpt_lite.errors import StoreError
from memgpt_lite.storage.lock import StoreLock
from memgpt_lite.storage.sqlite import open_sqlite_readonly, table_names

DB_NAME = "bughunt.sqlite"
LOCK_NAME = "bughunt.lock"
FORMAT_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, policy TEXT NOT NULL, base_url TEXT NOT NULL,
    budget INTEGER NOT NULL, started_at REAL NOT NULL, ended_at REAL, status TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS steps (
    n INTEGER PRIMARY KEY, session_id INTEGER NOT NULL, route TEXT NOT NULL, final_route TEXT,
    outcome TEXT NOT NULL, status INTEGER, detail TEXT NOT NULL DEFAULT '', app_version TEXT,
    tokens INTEGER NOT NULL, repeat INTEGER NOT NULL, retest INTEGER NOT NULL DEFAULT 0,
    elapsed_ms REAL, at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS pages (
    route TEXT PRIMARY KEY, outcome TEXT NOT NULL, status INTEGER, first_visited_at REAL NOT NULL,
    last_visited_at REAL NOT NULL, last_used_at REAL NOT NULL, visits INTEGER NOT NULL,
    tested_version TEXT, needs_retest INTEGER NOT NULL DEFAULT 0, title TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS links (
    src TEXT NOT NULL, pos INTEGER NOT NULL, dst TEXT NOT NULL, PRIMARY KEY (src, pos)
);
CREATE TABLE IF NOT EXISTS bugs (
    id INTEGER PRIMARY KEY, fingerprint TEXT NOT NULL, route TEXT NOT NULL, kind TEXT NOT NULL,
    message TEXT NOT NULL, evidence TEXT NOT NULL, status TEXT NOT NULL CHECK (status IN ('open', 'fixed')),
    version TEXT, seen_at REAL NOT NULL, step INTEGER, superseded_by INTEGER,
    last_seen_version TEXT, last_seen_at REAL
);
CREATE UNIQUE INDEX IF NOT EXISTS bugs_one_live ON bugs(fingerprint) WHERE superseded_by IS NULL;
CREATE TABLE IF NOT EXISTS reports (
    id INTEGER PRIMARY KEY, step INTEGER NOT NULL, session_id INTEGER NOT NULL, fingerprint TEXT NOT NULL,
    route TEXT NOT NULL, kind TEXT NOT NULL, duplicate INTEGER NOT NULL, source TEXT NOT NULL, at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY, text TEXT NOT NULL, session_id INTEGER, step INTEGER, at REAL NOT NULL,
    last_used_at REAL NOT NULL, author TEXT NOT NULL DEFAULT 'model'
);
CREATE TABLE IF NOT EXISTS observations (
    id INTEGER PRIMARY KEY, text TEXT NOT NULL, provenance TEXT NOT NULL, quarantined INTEGER NOT NULL,
    step INTEGER, at REAL NOT NULL, last_used_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS model_reports (
    id INTEGER PRIMARY KEY, route TEXT NOT NULL, kind TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'model_reported' CHECK (status = 'model_reported'),
    observation INTEGER, session_id INTEGER, step INTEGER, at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS click_actions (
    route TEXT PRIMARY KEY, page TEXT NOT NULL, selector TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rejections (
    id INTEGER PRIMARY KEY, what TEXT NOT NULL, text TEXT NOT NULL, reason TEXT NOT NULL,
    step INTEGER, at REAL NOT NULL
);
"""


_ADDED_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("bugs", "last_seen_version", "TEXT"),
    ("bugs", "last_seen_at", "REAL"),
    ("notes", "author", "TEXT NOT NULL DEFAULT 'model'"),
    ("sessions", "clicks", "INTEGER"),
    ("sessions", "fetches", "INTEGER"),
    ("sessions", "stop_detail", "TEXT NOT NULL DEFAULT ''"),
    ("pages", "structure_hash", "TEXT"),
)


class ExplorerStore:
    """Open (or create) the explorer database in `store_dir`. One writer at a time: a second process
    opening the same store with `lock=True` (the default; readers such as `bughunt memory` pass False)
    gets a `StoreError` naming the first."""

    def __init__(
        self, store_dir: str | Path, create: bool = True, *, lock: bool = True, read_only: bool | None = None
    ) -> None:
        self.dir = Path(store_dir)
        self.path = self.dir / DB_NAME
        # A store opened neither to create nor to write (no lock) is a reader: it writes nothing.
        self.read_only = (not create and not lock) if read_only is None else read_only
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
        try:
            self._open_db()
        except BaseException:
            self.close()
            raise

    def _open_db(self) -> None:
        if self.read_only:
            self._open_db_read_only()
            return
        self.db = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
        try:
            self.db.row_factory = sqlite3.Row
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            # A damaged page would otherwise surface mid-session as a raw sqlite3 error; the store is
            # small, so checking it whole on open is cheap.
            problem = self.db.execute("PRAGMA quick_check(1)").fetchone()[0]
            if problem != "ok":
                raise sqlite3.DatabaseError(" ".join(str(problem).split()))
            self.db.executescript(_SCHEMA)
            self._add_missing_columns()
            fmt = self.get_meta("format")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a readable BugHunt store ({exc})") from exc
        if fmt is None:
            self.set_meta("format", str(FORMAT_VERSION))
        elif not fmt.isdigit():
            raise StoreError(f"{self.path}: corrupt store (format {fmt!r} is not a version number)")
        elif int(fmt) > FORMAT_VERSION:
            raise StoreError(
                f"{self.path}: format {fmt} is newer than this BugHunt ({FORMAT_VERSION}); upgrade"
            )

    def _open_db_read_only(self) -> None:
        """Open for reading only (`open_sqlite_readonly`: no write, no side file); a file that is empty,
        foreign, damaged or lacks BugHunt's tables is one `StoreError` naming it."""
        try:
            self.db = open_sqlite_readonly(self.path, "BugHunt store")
        except StoreError as exc:
            raise StoreError(f"{self.path}: not a readable BugHunt store ({exc})") from exc
        self.db.row_factory = sqlite3.Row
        missing = set(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", _SCHEMA)) - table_names(self.db)
        if missing:
            raise StoreError(
                f"{self.path}: not a readable BugHunt store (missing tables: {', '.join(sorted(missing))})"
            )
        fmt = self.get_meta("format")
        if fmt is None or not fmt.isdigit():
            raise StoreError(f"{self.path}: corrupt store (format {fmt!r} is not a version number)")
        if int(fmt) > FORMAT_VERSION:
            raise StoreError(
                f"{self.path}: format {fmt} is newer than this BugHunt ({FORMAT_VERSION}); upgrade"
            )

    def _add_missing_columns(self) -> None:
        """Stores written before a column existed get it (additive only; nothing is rewritten)."""
        for table, column, decl in _ADDED_COLUMNS:
            have = {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic unit (a step): everything in it is committed together or not at all."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:  # another program holds a write lock past the timeout
            raise StoreError(
                f"{self.path}: cannot write ({exc}); another program holds the database"
            ) from exc
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def close(self) -> None:
        try:
            if hasattr(self, "db"):
                self.db.close()
        finally:
            if self._lock is not None:
                self._lock.release()

    # -- meta ------------------------------------------------------------------------------------
    def get_meta(self, key: str, default: str | None = None) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row["value"] if row else default

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    # -- reads -----------------------------------------------------------------------------------
    def visited(self) -> list[str]:
        return [
            r["route"] for r in self.db.execute("SELECT route FROM pages ORDER BY first_visited_at, rowid")
        ]

    def explored(self) -> list[str]:
        """Routes fetched as real pages (not walls, skips or errors), in first-visit order."""
        rows = self.db.execute(
            "SELECT route FROM pages WHERE outcome = 'page' ORDER BY first_visited_at, rowid"
        )
        return [r["route"] for r in rows]

    def links(self) -> dict[str, list[str]]:
        table: dict[str, list[str]] = {}
        for r in self.db.execute("SELECT src, dst FROM links ORDER BY src, pos"):
            table.setdefault(r["src"], []).append(r["dst"])
        return table

    def links_of(self, route: str) -> list[str]:
        return [
            r["dst"] for r in self.db.execute("SELECT dst FROM links WHERE src = ? ORDER BY pos", (route,))
        ]

    def page(self, route: str) -> sqlite3.Row | None:
        return self.db.execute("SELECT * FROM pages WHERE route = ?", (route,)).fetchone()

    def needs_retest(self) -> list[str]:
        rows = self.db.execute(
            "SELECT route FROM pages WHERE needs_retest = 1 ORDER BY first_visited_at, rowid"
        )
        return [r["route"] for r in rows]

    def live_bugs(self) -> list[sqlite3.Row]:
        return list(self.db.execute("SELECT * FROM bugs WHERE superseded_by IS NULL ORDER BY id"))

    def all_bugs(self) -> list[sqlite3.Row]:
        return list(self.db.execute("SELECT * FROM bugs ORDER BY id"))

    def live_bug(self, fingerprint: str) -> sqlite3.Row | None:
        return self.db.execute(
            "SELECT * FROM bugs WHERE fingerprint = ? AND superseded_by IS NULL", (fingerprint,)
        ).fetchone()

    def steps(self, session_id: int | None = None) -> list[sqlite3.Row]:
        if session_id is None:
            return list(self.db.execute("SELECT * FROM steps ORDER BY n"))
        return list(self.db.execute("SELECT * FROM steps WHERE session_id = ? ORDER BY n", (session_id,)))

    def step_count(self) -> int:
        return int(self.db.execute("SELECT COALESCE(MAX(n), 0) FROM steps").fetchone()[0])

    def sessions(self) -> list[sqlite3.Row]:
        return list(self.db.execute("SELECT * FROM sessions ORDER BY id"))

    def duplicate_reports(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM reports WHERE duplicate = 1").fetchone()[0])

    def repeat_visits(self) -> int:
        return int(self.db.execute("SELECT COALESCE(SUM(repeat), 0) FROM steps").fetchone()[0])

    def notes(self) -> list[sqlite3.Row]:
        return list(self.db.execute("SELECT * FROM notes ORDER BY id"))

    def observations(self) -> list[sqlite3.Row]:
        return list(self.db.execute("SELECT * FROM observations ORDER BY id"))

    def reports(self) -> list[sqlite3.Row]:
        return list(self.db.execute("SELECT * FROM reports ORDER BY id"))

    def model_reports(self) -> list[dict[str, Any]]:
        """Bugs only the model reported (no oracle finding backs them): kept apart, never counted."""
        try:
            rows = list(self.db.execute("SELECT * FROM model_reports ORDER BY id"))
        except sqlite3.OperationalError:  # a store written before the table existed, opened read-only
            return []
        return [
            {"route": r["route"], "kind": r["kind"], "status": r["status"], "step": r["step"],
             "quarantined_observation": r["observation"]}
            for r in rows
        ]  # fmt: skip

    def add_model_report(
        self, route: str, kind: str, observation: int | None, session_id: int | None, step: int | None,
        now: float,
    ) -> None:  # fmt: skip
        self.db.execute(
            "INSERT INTO model_reports(route, kind, observation, session_id, step, at) VALUES (?,?,?,?,?,?)",
            (route, kind, observation, session_id, step, now),
        )

    def add_click(self, route: str, page: str, selector: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO click_actions(route, page, selector) VALUES (?,?,?)",
            (route, page, selector),
        )

    def click_of(self, route: str) -> tuple[str, str] | None:
        """(page route, CSS selector) of a click state's route, None when it is not one."""
        try:
            row = self.db.execute(
                "SELECT page, selector FROM click_actions WHERE route = ?", (route,)
            ).fetchone()
        except sqlite3.OperationalError:  # an old store opened read-only
            return None
        return (row["page"], row["selector"]) if row else None

    def rejections(self) -> list[sqlite3.Row]:
        return list(self.db.execute("SELECT * FROM rejections ORDER BY id"))

    # -- writes (call inside `transaction()`) ----------------------------------------------------
    def start_session(self, policy: str, base_url: str, budget: int) -> tuple[int, str]:
        with self.transaction() as db:
            n = db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] + 1
            name = f"session-{n}"
            cur = db.execute(
                "INSERT INTO sessions(name, policy, base_url, budget, started_at, status) VALUES (?,?,?,?,?,?)",
                (name, policy, base_url, budget, time.time(), "running"),
            )
            return int(cur.lastrowid or 0), name

    def end_session(
        self, session_id: int, status: str, *, clicks: int | None = None, fetches: int | None = None,
        detail: str = "",
    ) -> None:  # fmt: skip
        """Close a session with its stop reason (contract 4), its clicks and fetches, and the harness's
        detail of the reason (routes and counts only)."""
        with self.transaction() as db:
            db.execute(
                "UPDATE sessions SET ended_at = ?, status = ?, clicks = ?, fetches = ?, stop_detail = ?"
                " WHERE id = ?",
                (time.time(), status, clicks, fetches, detail, session_id),
            )

    def forget_pages(self, outcomes: Iterable[str], route: str | None = None) -> int:
        """Drop visits with these outcomes (all routes, or just `route`): they are tried again.
        Call inside a transaction."""
        wanted = list(outcomes)
        marks = ", ".join("?" * len(wanted))
        sql = f"DELETE FROM pages WHERE outcome IN ({marks})"
        args: list[Any] = list(wanted)
        if route is not None:
            sql += " AND route = ?"
            args.append(route)
        return self.db.execute(sql, args).rowcount

    def structure_hashes(self) -> dict[str, str | None]:
        """Route → structure hash of its last successful fetch (None when unknown)."""
        rows = self.db.execute("SELECT route, structure_hash FROM pages WHERE outcome = 'page'")
        return {r["route"]: r["structure_hash"] for r in rows}

    def set_structure_hash(self, route: str, digest: str | None) -> str | None:
        """Store the page's structure hash; returns the previous one. Call inside a transaction."""
        row = self.db.execute("SELECT structure_hash FROM pages WHERE route = ?", (route,)).fetchone()
        self.db.execute("UPDATE pages SET structure_hash = ? WHERE route = ?", (digest, route))
        return row["structure_hash"] if row else None

    def record_visit(
        self,
        route: str,
        outcome: str,
        status: int | None,
        version: str | None,
        links: list[str] | None,
        now: float,
    ) -> bool:
        """Mark `route` visited (tested under `version`) and replace its links. Returns True for a revisit."""
        row = self.page(route)
        if row is None:
            self.db.execute(
                "INSERT INTO pages(route, outcome, status, first_visited_at, last_visited_at, last_used_at, visits,"
                " tested_version) VALUES (?,?,?,?,?,?,1,?)",
                (route, outcome, status, now, now, now, version),
            )
        else:
            self.db.execute(
                "UPDATE pages SET outcome = ?, status = ?, last_visited_at = ?, last_used_at = ?, visits = visits + 1,"
                " tested_version = ?, needs_retest = 0 WHERE route = ?",
                (outcome, status, now, now, version, route),
            )
        if links is not None:
            self.db.execute("DELETE FROM links WHERE src = ?", (route,))
            self.db.executemany(
                "INSERT INTO links(src, pos, dst) VALUES (?,?,?)",
                [(route, i, d) for i, d in enumerate(links)],
            )
        return row is not None

    def add_step(self, session_id: int, **fields: Any) -> int:
        n = self.step_count() + 1
        cols = ["n", "session_id", *fields]
        self.db.execute(
            f"INSERT INTO steps({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
            (n, session_id, *fields.values()),
        )
        return n

    def insert_bug(
        self, fingerprint: str, route: str, kind: str, message: str, evidence: Any, status: str,
        version: str | None, now: float, step: int | None,
    ) -> int:  # fmt: skip
        """Insert the new live entry for `fingerprint`, superseding the previous live one (if any)."""
        old = self.live_bug(fingerprint)
        if old is not None:
            # Free the "one live entry" slot first, then point the old entry at its successor.
            self.db.execute("UPDATE bugs SET superseded_by = -1 WHERE id = ?", (old["id"],))
        cur = self.db.execute(
            "INSERT INTO bugs(fingerprint, route, kind, message, evidence, status, version, seen_at, step)"
            " VALUES (?,?,?,?,?,?,?,?,?)",
            (
                fingerprint,
                route,
                kind,
                message,
                json.dumps(evidence, default=str),
                status,
                version,
                now,
                step,
            ),
        )
        new_id = int(cur.lastrowid or 0)
        if old is not None:
            self.db.execute("UPDATE bugs SET superseded_by = ? WHERE id = ?", (new_id, old["id"]))
        return new_id

    def confirm_bug(self, bug_id: int, version: str | None, now: float) -> None:
        """The symptom showed again with the same status: no new entry, just when and under which version."""
        self.db.execute(
            "UPDATE bugs SET last_seen_version = ?, last_seen_at = ? WHERE id = ?", (version, now, bug_id)
        )

    def add_report(self, step: int, session_id: int, fingerprint: str, route: str, kind: str, duplicate: bool,
                   source: str, now: float) -> None:  # fmt: skip
        self.db.execute(
            "INSERT INTO reports(step, session_id, fingerprint, route, kind, duplicate, source, at)"
            " VALUES (?,?,?,?,?,?,?,?)",
            (step, session_id, fingerprint, route, kind, int(duplicate), source, now),
        )

    def add_note(
        self, text: str, session_id: int | None, step: int | None, now: float, author: str = "model"
    ) -> None:
        if author == "harness":
            # One hand-over at a time: the newest replaces the last (it summarises everything before it).
            self.db.execute("DELETE FROM notes WHERE author = 'harness'")
        self.db.execute(
            "INSERT INTO notes(text, session_id, step, at, last_used_at, author) VALUES (?,?,?,?,?,?)",
            (text, session_id, step, now, now, author),
        )

    def add_observation(self, text: str, provenance: dict[str, Any], step: int | None, now: float) -> int:
        cur = self.db.execute(
            "INSERT INTO observations(text, provenance, quarantined, step, at, last_used_at) VALUES (?,?,1,?,?,?)",
            (text, json.dumps(provenance, sort_keys=True), step, now, now),
        )
        return int(cur.lastrowid or 0)

    def add_rejection(self, what: str, text: str, reason: str, step: int | None, now: float) -> None:
        self.db.execute(
            "INSERT INTO rejections(what, text, reason, step, at) VALUES (?,?,?,?,?)",
            (what, text, reason, step, now),
        )

    def mark_for_retest(self, version: str) -> int:
        """Version invalidation: every page tested under another version becomes "needs retest"."""
        cur = self.db.execute(
            "UPDATE pages SET needs_retest = 1 WHERE outcome = 'page' AND tested_version IS NOT ?", (version,)
        )
        return cur.rowcount

    def expire(self, cutoff: float) -> dict[str, int]:
        """Forget memories unused since `cutoff`: pages (with their links), notes and observations.

        Bug entries never expire: they are the audit trail that keeps duplicates from being re-reported.
        """
        counts = {}
        stale = [
            r["route"] for r in self.db.execute("SELECT route FROM pages WHERE last_used_at < ?", (cutoff,))
        ]
        self.db.executemany("DELETE FROM links WHERE src = ?", [(r,) for r in stale])
        counts["pages"] = self.db.execute("DELETE FROM pages WHERE last_used_at < ?", (cutoff,)).rowcount
        counts["notes"] = self.db.execute("DELETE FROM notes WHERE last_used_at < ?", (cutoff,)).rowcount
        counts["observations"] = self.db.execute(
            "DELETE FROM observations WHERE last_used_at < ?", (cutoff,)
        ).rowcount
        return counts
