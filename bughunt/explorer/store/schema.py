"""The explorer store's SQLite layout, its version (`PRAGMA user_version`) and its migrations.

Version 1 is every store written before the store kept a version (it has `user_version` 0 and the
`meta` key `format` = 1, or no `meta` yet): its tables were made with CREATE TABLE IF NOT EXISTS, and
columns added later were added when such a store was opened. Version 2 is the same layout, complete,
with a version; the migration 1 -> 2 adds what an older store lacks (tables and columns) and
rewrites nothing. Version 3 adds `occurrences` (every route a bug was seen on, with its first and last
step), filled for older stores from what they hold: each bug entry's own route and step, and the reports. Version 4 adds
`click_actions.words` (what a click state's control says, as `explorer.control_words` reduces it: a verb or a
digest, never the page's text), empty for the click states of older stores. The `format` meta key is still
written, for older BugHunts that read only it.
"""

from __future__ import annotations

import re
import sqlite3

from memgpt_lite.errors import StoreError
from memgpt_lite.storage.sqlite import Schema, column_names, execute_script, table_names

FORMAT_VERSION = 1
"""The store format older BugHunts check (`meta.format`); the layout's own version is `SCHEMA_VERSION`."""
SCHEMA_VERSION = 4

TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, policy TEXT NOT NULL, base_url TEXT NOT NULL,
    budget INTEGER NOT NULL, started_at REAL NOT NULL, ended_at REAL, status TEXT NOT NULL,
    clicks INTEGER, fetches INTEGER, stop_detail TEXT NOT NULL DEFAULT ''
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
    tested_version TEXT, needs_retest INTEGER NOT NULL DEFAULT 0, title TEXT NOT NULL DEFAULT '',
    structure_hash TEXT
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
    route TEXT PRIMARY KEY, page TEXT NOT NULL, selector TEXT NOT NULL, words TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS occurrences (
    fingerprint TEXT NOT NULL, route TEXT NOT NULL, first_step INTEGER NOT NULL, last_step INTEGER NOT NULL,
    count INTEGER NOT NULL, PRIMARY KEY (fingerprint, route)
);
CREATE TABLE IF NOT EXISTS rejections (
    id INTEGER PRIMARY KEY, what TEXT NOT NULL, text TEXT NOT NULL, reason TEXT NOT NULL,
    step INTEGER, at REAL NOT NULL
);
"""

TABLE_NAMES = frozenset(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", TABLES))
LATER_TABLES = frozenset({"occurrences"})
"""Tables of a later version than 2: a reader of an older store (never migrated) finds none, and reads none."""

_ADDED_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("bugs", "last_seen_version", "TEXT"),
    ("bugs", "last_seen_at", "REAL"),
    ("notes", "author", "TEXT NOT NULL DEFAULT 'model'"),
    ("sessions", "clicks", "INTEGER"),
    ("sessions", "fetches", "INTEGER"),
    ("sessions", "stop_detail", "TEXT NOT NULL DEFAULT ''"),
    ("pages", "structure_hash", "TEXT"),
)
"""Columns added to version-1 stores over time (a version-1 store may lack any of them)."""


def _complete_version_1(db: sqlite3.Connection) -> None:
    """1 -> 2: the tables and columns an older store lacks (additive only; nothing is rewritten)."""
    execute_script(db, TABLES)
    db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('format', ?)", (str(FORMAT_VERSION),))
    for table, column, decl in _ADDED_COLUMNS:
        if column not in column_names(db, table):
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {decl}")


def _add_occurrences(db: sqlite3.Connection) -> None:
    """2 -> 3: the occurrences table, from the routes and steps the bug entries and reports already name."""
    execute_script(db, TABLES)
    db.execute(
        "INSERT OR IGNORE INTO occurrences(fingerprint, route, first_step, last_step, count)"
        " SELECT fingerprint, route, MIN(step), MAX(step), COUNT(*) FROM ("
        "  SELECT fingerprint, route, step FROM bugs WHERE step IS NOT NULL"
        "  UNION ALL SELECT fingerprint, route, step FROM reports"
        " ) GROUP BY fingerprint, route"
    )


def _add_click_words(db: sqlite3.Connection) -> None:
    """3 -> 4: what each click state's control says (`click_actions.words`); older ones say nothing known."""
    if "words" not in column_names(db, "click_actions"):
        db.execute("ALTER TABLE click_actions ADD COLUMN words TEXT NOT NULL DEFAULT ''")


def _legacy_version(db: sqlite3.Connection) -> int | None:
    """A store from before `user_version`: version 1 when it holds BugHunt tables (None: foreign)."""
    if not TABLE_NAMES & table_names(db):
        return None
    if "meta" in table_names(db):
        row = db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        fmt = None if row is None else str(row[0])
        if fmt is not None and not fmt.isdigit():
            raise StoreError(f"corrupt store (format {fmt!r} is not a version number)")
        if fmt is not None and int(fmt) > FORMAT_VERSION:
            raise StoreError(f"format {fmt} is newer than this BugHunt ({FORMAT_VERSION}); upgrade")
    return 1


SCHEMA = Schema(
    "BugHunt store",
    SCHEMA_VERSION,
    TABLES + f"INSERT INTO meta(key, value) VALUES ('format', '{FORMAT_VERSION}');",
    migrations=(_complete_version_1, _add_occurrences, _add_click_words),
    legacy=_legacy_version,
)
