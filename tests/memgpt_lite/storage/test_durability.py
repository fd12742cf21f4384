"""Writes wait for the disk (fsync, SQLite synchronous=NORMAL) except inside `scratch_writes()`, for
throwaway copies, where they are still atomic; evaluations run their per-case copies that way."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from memgpt_lite.storage.directory import atomic_write_text
from memgpt_lite.storage.durability import durable, scratch_writes
from memgpt_lite.storage.sqlite import open_sqlite


def _counting_fsync(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return calls


def _synchronous(path) -> int:
    with open_sqlite(path, "test database", corrupt="not a database") as db:
        value = db.execute("PRAGMA synchronous").fetchone()[0]
    db.close()
    return value


def test_atomic_writes_fsync_except_in_a_scratch_block(tmp_path, monkeypatch):
    calls = _counting_fsync(monkeypatch)
    atomic_write_text(tmp_path / "kept.json", "{}")
    assert len(calls) == 2, "the file and its folder"
    calls.clear()
    with scratch_writes():
        atomic_write_text(tmp_path / "copy.json", '{"a": 1}')
    assert calls == []
    assert (tmp_path / "copy.json").read_text() == '{"a": 1}'
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")], "still tmp file + rename"
    atomic_write_text(tmp_path / "kept.json", "[]")
    assert len(calls) == 2, "durable again after the block"


def test_sqlite_is_synchronous_normal_except_in_a_scratch_block(tmp_path):
    assert _synchronous(tmp_path / "a.sqlite") == 1  # NORMAL
    with scratch_writes():
        assert _synchronous(tmp_path / "b.sqlite") == 0  # OFF
    assert _synchronous(tmp_path / "c.sqlite") == 1


def test_the_scratch_setting_stays_in_its_context(tmp_path):
    seen: list[bool] = []
    with scratch_writes():
        assert not durable()
        other = threading.Thread(target=lambda: seen.append(durable()))
        other.start()
        other.join()
    assert seen == [True], "a thread started elsewhere keeps the durable default"
    assert durable()


def test_an_evaluation_case_copy_is_written_without_fsync(evals_hashing_store, tmp_path, monkeypatch):
    # Layer 2 runs each case on a copy it deletes: the agent's writes there skip fsync; the log of
    # runs the user keeps is written durably.
    from evals import layer2
    from evals.case_schema import load_cases

    seen: list[tuple[bool, bool]] = []
    real_open = layer2.AgentMemory.open

    def watching_open(store, *args, **kwargs):
        seen.append((Path(store) == evals_hashing_store, durable()))
        return real_open(store, *args, **kwargs)

    monkeypatch.setattr(layer2.AgentMemory, "open", watching_open)
    case = load_cases()[0]
    calls = _counting_fsync(monkeypatch)
    (record,) = layer2.run_layer2([case], evals_hashing_store, agent="baseline")
    assert record["case_id"] == case.id and record["error"] is None
    # the user's store is opened to judge (durable); the case's copy is opened and written as scratch
    assert sorted(seen) == [(False, False), (True, True)] and calls == [], seen
    assert durable()


def test_a_rollback_journal_left_by_a_killed_writer_is_rolled_back_on_a_copy(tmp_path):
    """Chroma keeps its database in rollback-journal mode: a writer killed inside a transaction leaves
    some of the transaction's pages in the file and the old ones in a hot `-journal`. A read-only open
    must see the last committed state, and leave both files as they were."""
    import hashlib
    import subprocess
    import sys

    from memgpt_lite.storage.sqlite import open_sqlite_readonly

    path = tmp_path / "db.sqlite3"
    writer = (
        "import os, signal, sqlite3, sys\n"
        "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "db.execute('PRAGMA journal_mode=DELETE')\n"
        "db.execute('CREATE TABLE t (n INTEGER, pad TEXT)')\n"
        "db.execute('BEGIN')\n"
        "db.executemany('INSERT INTO t VALUES (?, ?)', [(i, 'x' * 500) for i in range(200)])\n"
        "db.execute('COMMIT')\n"
        "db.execute('PRAGMA cache_size=2')\n"  # the transaction spills its pages into the file
        "db.execute('BEGIN')\n"
        "db.execute(\"UPDATE t SET pad = 'y' * 900\")\n"
        "db.executemany('INSERT INTO t VALUES (?, ?)', [(i, 'z' * 700) for i in range(2000)])\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    subprocess.run([sys.executable, "-c", writer, str(path)], timeout=60, check=False)
    journal = tmp_path / "db.sqlite3-journal"
    assert journal.stat().st_size > 0, "the killed writer left no hot journal: the test shows nothing"
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in tmp_path.iterdir()}
    db = open_sqlite_readonly(path, "test database")
    try:
        assert db.execute("SELECT count(*), max(length(pad)) FROM t").fetchone() == (200, 500)
    finally:
        db.close()
    assert {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in tmp_path.iterdir()} == before
