"""Opening a store: a FIFO or special file never blocks a read-only command, and `resume` adopts no
empty or foreign database (one line, nothing written)."""

from __future__ import annotations

import os
import sqlite3
import threading

import pytest

from bughunt.cli import main
from bughunt.explorer.store import DB_NAME, ExplorerStore


def _run_bounded(argv: list[str], seconds: float = 30.0) -> int:
    """`main(argv)` in a thread: a command that blocks fails the test instead of hanging it."""
    code: list[int] = []
    thread = threading.Thread(target=lambda: code.append(main(argv)), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{argv[0]} blocked"
    return code[0]


@pytest.mark.parametrize("command", ["memory", "report", "resume"])
def test_a_fifo_named_like_the_store_file_is_refused_without_blocking_or_writing(tmp_path, capsys, command):
    store = tmp_path / "store"
    store.mkdir()
    os.mkfifo(store / DB_NAME)
    argv = [command, "--store", str(store)]
    if command == "report":
        argv += ["--out", str(tmp_path / "r.html")]
    assert _run_bounded(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "a FIFO, not a BugHunt store file" in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in store.iterdir()) == [DB_NAME]
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("kind", ["empty", "foreign"])
def test_resume_refuses_an_empty_or_foreign_database_and_writes_no_table_into_it(tmp_path, capsys, kind):
    store = tmp_path / "store"
    store.mkdir()
    path = store / DB_NAME
    if kind == "empty":
        path.write_bytes(b"")
    else:
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE theirs (x)")
        db.close()
    before = path.read_bytes()
    assert main(["resume", "--store", str(store), "--budget", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "not a readable BugHunt store" in err and len(err.splitlines()) == 1
    assert path.read_bytes() == before
    if kind == "foreign":
        with sqlite3.connect(path) as db:
            assert [r[0] for r in db.execute("SELECT name FROM sqlite_master")] == ["theirs"]
        db.close()


def test_a_store_folder_that_is_a_fifo_is_refused(tmp_path):
    os.mkfifo(tmp_path / "store")
    with pytest.raises(Exception, match="a FIFO, not a BugHunt store folder"):
        ExplorerStore(tmp_path / "store", create=False, lock=False)


def test_an_observations_provenance_keeps_no_url_longer_than_its_cap(tmp_path):
    from bughunt.explorer.store.notebook import MAX_PROVENANCE_CHARS

    store = ExplorerStore(tmp_path / "s")
    with store.transaction():
        store.notebook.add_observation("text", {"url": "http://a.test/?" + "x" * 300_000, "step": 1}, 1, 1.0)
    [observation] = store.notebook.observations()
    store.close()
    provenance = __import__("json").loads(observation.provenance)
    assert len(provenance["url"]) == MAX_PROVENANCE_CHARS + 1 and provenance["step"] == 1
