"""The one SQLite layer (`memgpt_lite.storage.sqlite`): transactions, the schema version and migrations,
and that stores written by older code (before `user_version` was the one version scheme) still open."""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from pathlib import Path

import pytest

from bughunt.explorer.export import load_exploration, memory_snapshot
from bughunt.explorer.store import SCHEMA_VERSION, Bug, ExplorerStore, Session
from bughunt.explorer.summary import summary
from memgpt_lite.errors import StoreError
from memgpt_lite.search.index import INDEX_VERSION, RecallIndex
from memgpt_lite.storage.embeddings import HashingEmbedder
from memgpt_lite.storage.passage_index import PassageIndex
from memgpt_lite.storage.sqlite import Schema, ensure_schema, open_sqlite, transaction


def _version(path: Path) -> int:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def _hash(path: Path) -> str:
    return "".join(
        hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(path.parent.iterdir()) if p.is_file()
    )


# -- the layer itself ---------------------------------------------------------------------------------
def test_a_transaction_commits_or_rolls_back_everything(tmp_path):
    with open_sqlite(tmp_path / "t.sqlite", "test database", corrupt="corrupt") as db:
        db.execute("CREATE TABLE t(x INTEGER)")
    with transaction(db):
        db.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(RuntimeError), transaction(db):
        db.execute("INSERT INTO t VALUES (2)")
        raise RuntimeError("mid-step")
    assert [r[0] for r in db.execute("SELECT x FROM t")] == [1]
    assert not db.in_transaction
    db.close()


def test_a_write_lock_held_past_the_timeout_is_a_store_error_naming_the_file(tmp_path):
    path = tmp_path / "t.sqlite"
    with open_sqlite(path, "test database", corrupt="corrupt") as db:
        db.execute("CREATE TABLE t(x INTEGER)")
    db.execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with (
            pytest.raises(StoreError, match=r"t\.sqlite: cannot write \(database is locked\)"),
            transaction(db),
        ):
            pass
    finally:
        other.execute("ROLLBACK")
        other.close()
        db.close()


def _schema(log: list[str]) -> Schema:
    def add_c(db: sqlite3.Connection) -> None:
        log.append("2->3")
        db.execute("ALTER TABLE t ADD COLUMN c TEXT")

    return Schema(
        "test store", 3, "CREATE TABLE t(a INTEGER, b INTEGER, c TEXT);",
        migrations=("ALTER TABLE t ADD COLUMN b INTEGER; UPDATE t SET b = a * 10;", add_c),
    )  # fmt: skip


def test_migrations_run_step_by_step_from_the_files_version(tmp_path):
    path = tmp_path / "s.sqlite"
    with sqlite3.connect(path) as old:  # a file at version 1: one column
        old.executescript("CREATE TABLE t(a INTEGER); INSERT INTO t VALUES (4); PRAGMA user_version=1;")
    log: list[str] = []
    with open_sqlite(path, "test store", corrupt="corrupt") as db:
        assert ensure_schema(db, _schema(log), path) == 1
    assert db.execute("SELECT a, b, c FROM t").fetchall() == [(4, 40, None)] and log == ["2->3"]
    assert ensure_schema(db, _schema(log), path) == 3 and log == ["2->3"], "an up-to-date file is left alone"
    db.close()
    assert _version(path) == 3


def test_a_new_file_is_created_at_the_current_version_and_a_newer_or_foreign_one_refused(tmp_path):
    new = tmp_path / "new.sqlite"
    with open_sqlite(new, "test store", corrupt="corrupt") as db:
        assert ensure_schema(db, _schema([]), new) == 0
    db.close()
    assert _version(new) == 3
    newer = tmp_path / "newer.sqlite"
    sqlite3.connect(newer).execute("PRAGMA user_version=4").connection.close()
    foreign = tmp_path / "foreign.sqlite"
    sqlite3.connect(foreign).execute("CREATE TABLE invoices(n)").connection.close()
    for path, message in ((newer, "schema version 4; .* reads up to 3"), (foreign, "not a test store")):
        with pytest.raises(StoreError, match=message):
            with open_sqlite(path, "test store", corrupt="corrupt") as db:
                ensure_schema(db, _schema([]), path)


def test_a_file_older_than_every_migration_is_refused_or_for_derived_data_rebuilt(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as old:
        old.executescript("CREATE TABLE t(a INTEGER); INSERT INTO t VALUES (1); PRAGMA user_version=1;")
    strict = Schema("test store", 3, "CREATE TABLE t(a, b, c);", migrations=("SELECT 1;",))
    with pytest.raises(StoreError, match="older than any this code migrates"):
        with open_sqlite(path, "test store", corrupt="corrupt") as db:
            ensure_schema(db, strict, path)
    derived = Schema("test index", 3, "CREATE TABLE t(a, b, c);", drop="DROP TABLE t;")
    with open_sqlite(path, "test index", corrupt="corrupt") as db:
        ensure_schema(db, derived, path)
    assert db.execute("SELECT count(*) FROM t").fetchone()[0] == 0 and _version(path) == 3
    db.close()


# -- the explorer store as the code before user_version wrote it ----------------------------------
# The tables exactly as BugHunt created them before the store kept a schema version (format 1, user_version
# 0); the columns added later were ALTERed in when such a store was opened.
_OLD_TABLES = """
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
CREATE TABLE IF NOT EXISTS links (src TEXT NOT NULL, pos INTEGER NOT NULL, dst TEXT NOT NULL, PRIMARY KEY (src, pos));
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
CREATE TABLE IF NOT EXISTS click_actions (route TEXT PRIMARY KEY, page TEXT NOT NULL, selector TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rejections (
    id INTEGER PRIMARY KEY, what TEXT NOT NULL, text TEXT NOT NULL, reason TEXT NOT NULL,
    step INTEGER, at REAL NOT NULL
);
"""
_ADDED_LATER = """
ALTER TABLE sessions ADD COLUMN clicks INTEGER;
ALTER TABLE sessions ADD COLUMN fetches INTEGER;
ALTER TABLE sessions ADD COLUMN stop_detail TEXT NOT NULL DEFAULT '';
ALTER TABLE pages ADD COLUMN structure_hash TEXT;
"""
_OLD_ROWS = """
INSERT INTO meta VALUES ('format', '1'), ('base_url', 'http://127.0.0.1:9/'), ('app_version', '1.3'),
    ('position', '/a');
INSERT INTO sessions(id, name, policy, base_url, budget, started_at, ended_at, status)
    VALUES (1, 'session-1', 'frontier', 'http://127.0.0.1:9/', 5, 100.0, 160.0, 'budget');
INSERT INTO steps VALUES (1, 1, '/', '/', 'page', 200, '', '1.2', 0, 0, 0, 3.5, 101.0),
    (2, 1, '/a', '/a', 'page', 500, '', '1.3', 0, 0, 1, 2.0, 102.0),
    (3, 1, '/gone', '/gone', 'http_error', 404, 'http_404', '1.3', 0, 0, 0, 1.0, 103.0);
INSERT INTO pages(route, outcome, status, first_visited_at, last_visited_at, last_used_at, visits,
    tested_version, needs_retest) VALUES ('/', 'page', 200, 101.0, 101.0, 101.0, 1, '1.2', 1),
    ('/a', 'page', 500, 102.0, 102.0, 102.0, 1, '1.3', 0),
    ('/gone', 'http_error', 404, 103.0, 103.0, 103.0, 1, '1.3', 0);
INSERT INTO links VALUES ('/', 0, '/a'), ('/', 1, '/gone'), ('/a', 0, '/');
INSERT INTO bugs VALUES (1, 'fp-a', '/a', 'server_error', 'HTTP 500', '{"status": 500}', 'open', '1.2', 101.5,
    1, 2, NULL, NULL), (2, 'fp-a', '/a', 'server_error', 'HTTP 500', '{"status": 500}', 'open', '1.3', 102.0,
    2, NULL, '1.3', 102.0);
INSERT INTO reports VALUES (1, 2, 1, 'fp-a', '/a', 'server_error', 0, 'harness', 102.0);
INSERT INTO notes VALUES (1, 'hand-over after session-1', 1, 3, 160.0, 160.0, 'harness');
INSERT INTO observations VALUES (1, 'page text', '{"route": "/a"}', 1, 2, 102.0, 102.0);
"""


def _old_store(folder: Path, *, added_columns: bool = True) -> Path:
    folder.mkdir()
    path = folder / "bughunt.sqlite"
    # closed here, not when the garbage collector gets to it: an open connection keeps the WAL files, and
    # their going away later would read as a write by the store under test
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.executescript(_OLD_TABLES + (_ADDED_LATER if added_columns else "") + _OLD_ROWS)
        db.execute("PRAGMA journal_mode=WAL")
    assert _version(path) == 0
    return path


def _check_old_rows(store: ExplorerStore) -> None:
    assert store.visits.visited() == ["/", "/a", "/gone"] and store.visits.explored() == ["/", "/a"]
    assert store.visits.needs_retest() == ["/"] and store.visits.skipped() == {"http_error": ["/gone"]}
    assert store.link_table.all() == {"/": ["/a", "/gone"], "/a": ["/"]}
    live = store.bug_table.live()
    assert live == [
        Bug(2, "fp-a", "/a", "server_error", "HTTP 500", '{"status": 500}', "open", "1.3", 102.0, 2, None,
            "1.3", 102.0)
    ]  # fmt: skip
    assert [b.superseded_by for b in store.bug_table.all()] == [2, None]
    steps = store.history.steps()
    assert [(s.n, s.retest, s.repeat) for s in steps] == [
        (1, False, False),
        (2, True, False),
        (3, False, False),
    ]
    assert (
        store.notebook.notes()[0].author == "harness" and store.notebook.observations()[0].quarantined is True
    )
    assert store.meta.get("app_version") == "1.3"


def test_an_explorer_store_written_before_user_version_opens_read_only_without_a_write(tmp_path):
    path = _old_store(tmp_path / "old")
    before = _hash(path)
    store = ExplorerStore(path.parent, create=False, lock=False)
    try:
        _check_old_rows(store)
        assert summary(store)["clicks"] == 2, "no clicks column value: every step but the landing"
        assert load_exploration(path.parent)["sessions"][0]["stop_reason"] == "budget"
        assert memory_snapshot(path.parent)["visited"] == ["/", "/a", "/gone"]
    finally:
        store.close()
    assert _hash(path) == before and _version(path) == 0


def test_an_explorer_store_from_before_the_added_columns_reads_them_as_defaults(tmp_path):
    path = _old_store(tmp_path / "older", added_columns=False)
    store = ExplorerStore(path.parent, create=False, lock=False)
    try:
        (session,) = store.history.sessions()
        assert session == Session(
            1, "session-1", "frontier", "http://127.0.0.1:9/", 5, 100.0, 160.0, "budget"
        )
        assert session.clicks is None and session.stop_detail == ""
        assert store.visits.page("/a") is not None and store.visits.page("/a").structure_hash is None
        assert store.link_table.click_of("/a#click-0") is None
    finally:
        store.close()


@pytest.mark.parametrize("added_columns", [True, False], ids=["as last written", "before added columns"])
def test_an_explorer_store_written_before_user_version_is_migrated_forward_by_a_writer(
    tmp_path, added_columns
):
    path = _old_store(tmp_path / "old", added_columns=added_columns)
    store = ExplorerStore(path.parent)
    try:
        _check_old_rows(store)
        with store.transaction():
            store.visits.set_structure_hash("/a", "h1")
            store.history.add_step(1, route="/b", final_route="/b", outcome="page", status=200, detail="",
                                   app_version="1.3", tokens=0, repeat=0, retest=0, elapsed_ms=1.0, at=104.0)  # fmt: skip
        store.history.end_session(1, "budget", clicks=3, fetches=4, detail="x")
    finally:
        store.close()
    assert _version(path) == SCHEMA_VERSION
    reopened = ExplorerStore(path.parent, create=False, lock=False)
    try:
        assert reopened.history.step_count() == 4 and reopened.history.last_session().clicks == 3
        assert reopened.visits.structure_hashes()["/a"] == "h1"
        assert reopened.meta.get("format") == "1", "older BugHunts still read the store's format"
    finally:
        reopened.close()


def test_an_explorer_store_from_a_newer_bughunt_is_refused_and_left_alone(tmp_path):
    path = _old_store(tmp_path / "new")
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    for kwargs in ({}, {"create": False, "lock": False}):
        with pytest.raises(
            StoreError, match=rf"not a readable BugHunt store .*schema version {SCHEMA_VERSION + 1}"
        ):
            ExplorerStore(path.parent, **kwargs)
    assert path.read_bytes() == before, "the newer store's file is not rewritten"


# -- the derived indexes -------------------------------------------------------------------------
def test_a_search_index_from_before_user_version_is_kept_and_an_older_one_rebuilt(tmp_path):
    path = tmp_path / "search.sqlite"
    RecallIndex(path, HashingEmbedder()).close()
    with sqlite3.connect(path) as db:  # as the code before user_version left it: the version in index_meta
        db.execute("PRAGMA user_version=0")
        db.execute("INSERT INTO index_meta VALUES ('version', ?)", (str(INDEX_VERSION),))
        db.execute("UPDATE index_meta SET value='7' WHERE key='synced'")
    index = RecallIndex(path, HashingEmbedder())
    assert index.synced == 7, "kept, not rebuilt"
    index.close()
    assert _version(path) == INDEX_VERSION
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version=0")
        db.execute("UPDATE index_meta SET value='2' WHERE key='version'")
    index = RecallIndex(path, HashingEmbedder())
    assert index.synced == 0, "an index of an older layout is rebuilt"
    index.close()


def test_a_passage_index_without_a_version_is_an_error_its_opener_rebuilds_from(tmp_path):
    path = tmp_path / "archival.index.sqlite"
    sqlite3.connect(path).execute("CREATE TABLE passages(id TEXT)").connection.close()
    with pytest.raises(StoreError, match="older than any this code migrates"):
        PassageIndex(path)
    fresh = tmp_path / "fresh.sqlite"
    PassageIndex(fresh).close()
    PassageIndex(fresh).close()
    assert _version(fresh) == 3
