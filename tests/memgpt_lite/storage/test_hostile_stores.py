"""Stores under attack: two processes at once, a folder that is not ours, a damaged database. The second
writer is refused with the first one's pid; a damaged store is a `StoreError`, never a raw sqlite3
traceback; a foreign folder is never adopted."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bughunt import cli as bughunt_cli
from bughunt.explorer.store import ExplorerStore
from memgpt_lite import AgentMemory
from memgpt_lite.errors import StoreError
from memgpt_lite.messages import Message
from memgpt_lite.storage.lock import StoreLock

HOLD = """
import sys, time
kind, path = sys.argv[1], sys.argv[2]
if kind == "agent":
    from memgpt_lite import AgentMemory
    held = AgentMemory.open(path, context_window=4000)
else:
    from bughunt.explorer.store import ExplorerStore
    held = ExplorerStore(path)
print("ready", flush=True)
time.sleep(120)
"""


def _holder(kind: str, path: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, kind, str(path)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def _kill(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)


def test_second_process_on_an_agent_store_is_refused_and_kill_9_frees_it(tmp_path):
    store = tmp_path / "agent"
    with AgentMemory.open(store, context_window=4000) as memory:
        memory.append(Message.user("remember the blue door"))
    proc = _holder("agent", store)
    try:
        with pytest.raises(StoreError, match=rf"in use by process {proc.pid}"):
            AgentMemory.open(store)
        # a reader is still welcome next to the writer
        with AgentMemory.open(store, create=False, read_only=True) as reader:
            assert reader.recall.count() == 1
    finally:
        _kill(proc)
    with AgentMemory.open(store) as memory:  # the kernel dropped the lock with the process
        assert [m.text for m in memory.context.in_context] == ["remember the blue door"]


def test_second_explorer_on_one_store_is_refused_with_a_clear_error(tmp_path, capsys):
    store = tmp_path / "hunt"
    proc = _holder("explorer", store)
    try:
        rc = bughunt_cli.main(["resume", "--store", str(store), "--builtin-site", "--budget", "1"])
        err = capsys.readouterr().err
        assert rc == 2 and f"in use by process {proc.pid}" in err and "Traceback" not in err
        # reading the memory while it explores is fine
        assert bughunt_cli.main(["memory", "--store", str(store), "--json"]) == 0
    finally:
        _kill(proc)
    ExplorerStore(store).close()


LOCK_PROBE = """
import sys
from memgpt_lite.errors import StoreError
from memgpt_lite.storage.lock import StoreLock
try:
    StoreLock(sys.argv[1], "store").acquire()
    print("acquired")
except StoreError as e:
    print(e)
"""


def other_process_locks(path: Path) -> str:
    """What another process gets when it asks for the lock at `path`: "acquired" or the error text."""
    run = subprocess.run(
        [sys.executable, "-c", LOCK_PROBE, str(path)], capture_output=True, text=True, timeout=60
    )
    return run.stdout.strip()


def test_same_process_may_open_a_store_twice(tmp_path):
    first = StoreLock(tmp_path / "x.lock", "store").acquire()
    second = StoreLock(tmp_path / "x.lock", "store").acquire()
    assert f"in use by process {os.getpid()}" in other_process_locks(tmp_path / "x.lock")
    second.release()
    # Counted: the first holder still has it.
    assert f"in use by process {os.getpid()}" in other_process_locks(tmp_path / "x.lock")
    first.release()
    first.release()  # idempotent
    assert other_process_locks(tmp_path / "x.lock") == "acquired"


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_deleting_or_replacing_the_lock_file_does_not_admit_a_second_writer(tmp_path, how):
    store = tmp_path / "agent"
    proc = _holder("agent", store)
    try:
        lock_file = next(p for p in store.iterdir() if p.suffix == ".lock")
        lock_file.unlink()
        if how == "replaced":
            lock_file.write_text("0\n")
        with pytest.raises(StoreError, match=r"is in use by (process \d+|another process)"):
            AgentMemory.open(store)
        assert "in use by" in other_process_locks(lock_file)
    finally:
        _kill(proc)
    with AgentMemory.open(store) as memory:  # the holder is gone: the store is free again
        assert memory.store.path == store.resolve()


def test_explorer_never_adopts_a_foreign_folder(tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "thesis.tex").write_text("years of work")
    rc = bughunt_cli.main(["explore", "--builtin-site", "--store", str(folder), "--budget", "1"])
    err = capsys.readouterr().err
    assert rc == 2 and "not a BugHunt store" in err and "thesis.tex" in err
    assert sorted(p.name for p in folder.iterdir()) == ["thesis.tex"]


def _garble(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for i in range(4096, len(data), 7):  # leave the header page: SQLite opens it, then trips over the rest
        data[i] = (data[i] * 31 + 7) % 256
    path.write_bytes(bytes(data))


def test_garbled_explorer_database_is_a_store_error_for_every_command(tmp_path, capsys):
    store = tmp_path / "hunt"
    assert bughunt_cli.main(["explore", "--builtin-site", "--store", str(store), "--budget", "4"]) == 0
    db = store / "bughunt.sqlite"
    for extra in ("-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    _garble(db)
    before = db.read_bytes()
    capsys.readouterr()
    for argv in (
        ["memory", "--store", str(store)],
        ["report", "--store", str(store), "--out", str(tmp_path / "r.html")],
        ["resume", "--store", str(store), "--budget", "1"],
    ):
        rc = bughunt_cli.main(argv)
        err = capsys.readouterr().err
        assert rc == 2, argv
        assert "not a readable BugHunt store" in err and "Traceback" not in err
        assert err.strip().count("\n") == 0, err
    assert db.read_bytes() == before  # nothing "repaired" over the evidence


READ_ONLY_LOCK = """
import sys
from memgpt_lite.errors import StoreError
from memgpt_lite.storage.lock import StoreLock
try:
    StoreLock(sys.argv[1] + "/x.lock", "store").acquire()
    print("acquired")
except StoreError as e:
    print(e)
"""


def test_store_lock_on_a_folder_that_cannot_be_written(tmp_path):
    import shutil

    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o500)
        try:
            out = subprocess.run(
                [sys.executable, "-c", READ_ONLY_LOCK, str(folder)], capture_output=True, text=True
            )
        finally:
            folder.chmod(0o700)
    else:
        # Root writes through any mode bits: a read-only bind mount (in a private mount namespace) is what
        # "cannot be written" means for it.
        if not shutil.which("unshare"):
            pytest.skip("unshare(1) missing: cannot make a read-only mount as root")
        script = f'mount --bind -o ro "{folder}" "{folder}" && exec "{sys.executable}" -c \'{READ_ONLY_LOCK}\' "{folder}"'
        out = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True)
        if "Operation not permitted" in out.stderr or "unshare failed" in out.stderr:
            pytest.skip(f"no mount namespace here: {out.stderr.strip()}")
    assert "cannot be written" in out.stdout and "may be read-only" in out.stdout, (out.stdout, out.stderr)
    assert not (folder / "x.lock").exists()


def test_reading_the_llm_agents_archival_works_beside_a_running_agent(tmp_path):
    from bughunt.explorer.llm_policy import AGENT_DIR, agent_archival

    agent = tmp_path / "hunt" / AGENT_DIR
    proc = _holder("agent", agent)
    try:
        state = (agent / "state.json").read_bytes()
        assert agent_archival(tmp_path / "hunt") == []
        assert (agent / "state.json").read_bytes() == state  # a reader writes nothing
    finally:
        _kill(proc)


def test_database_locked_by_another_program_is_a_store_error_naming_the_file(tmp_path):
    import sqlite3

    store = ExplorerStore(tmp_path / "hunt")
    store.db.execute("PRAGMA busy_timeout = 50")  # fail fast; the real timeout is 10 s
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match=r"bughunt\.sqlite: cannot write \(database is locked\)"):
            with store.transaction():
                pass
    finally:
        other.execute("ROLLBACK")
        other.close()
        store.close()


def test_a_store_left_with_only_its_lock_file_is_still_ours(tmp_path):
    # kill -9 between taking the lock and creating the database leaves just the lock file
    folder = tmp_path / "hunt"
    folder.mkdir()
    (folder / "bughunt.lock").write_text("12345\n")
    ExplorerStore(folder).close()
    assert (folder / "bughunt.sqlite").exists()


def _try_lock_in_child(path: str, out) -> None:
    try:
        StoreLock(path, "store").acquire()
        out.put("acquired")
    except StoreError as e:
        out.put(str(e))


def test_a_forked_worker_does_not_inherit_the_parents_store_lock(tmp_path):
    import multiprocessing

    lock = StoreLock(tmp_path / "x.lock", "store").acquire()
    try:
        ctx = multiprocessing.get_context("fork")
        out = ctx.Queue()
        child = ctx.Process(target=_try_lock_in_child, args=(str(tmp_path / "x.lock"), out))
        child.start()
        child.join(timeout=30)
        assert f"in use by process {os.getpid()}" in out.get(timeout=5)
    finally:
        lock.release()
