"""`memgpt-lite demo`: an interrupted turn is not stored twice, and a temporary store never stays behind
unless --keep asks for it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest

from memgpt_lite import AgentMemory
from memgpt_lite.cli import main
from memgpt_lite.commands import demo


def demo_turns(store: Path) -> Counter[tuple[str, int]]:
    """(role, turn) → how many messages recall holds for it."""
    with AgentMemory.open(store, create=False, read_only=True) as memory:
        msgs = list(memory.recall.iter_messages())
    return Counter((m.role, int(m.meta["demo_turn"])) for m in msgs if "demo_turn" in m.meta)


def test_a_turn_interrupted_after_its_user_message_is_not_stored_twice(tmp_path, monkeypatch):
    store = tmp_path / "s"
    assert main(["demo", "--store", str(store), "--turns", "2", "--json"]) == 0
    real = demo.assistant_reply

    def dies_on_turn_3(request):
        last = next(m for m in reversed(request.messages) if m.role == "user")
        if last.meta["demo_turn"] == 3:
            raise KeyboardInterrupt  # the user message of turn 3 is already stored
        return real(request)

    monkeypatch.setattr(demo, "assistant_reply", dies_on_turn_3)
    assert main(["demo", "--store", str(store), "--turns", "2", "--json"]) == 130  # the CLI's Ctrl-C code
    monkeypatch.setattr(demo, "assistant_reply", real)
    assert main(["demo", "--store", str(store), "--turns", "2", "--json"]) == 0
    counts = demo_turns(store)
    assert counts == {(role, t): 1 for role in ("user", "assistant") for t in (1, 2, 3, 4)}


def _wait_for_turns(state: Path, since_ns: int, proc: subprocess.Popen) -> None:
    """Until the running demo has rewritten its state (turns are being stored)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the demo ended before it was killed"
        try:
            if state.stat().st_mtime_ns > since_ns:
                return
        except FileNotFoundError:
            pass
        time.sleep(0.01)
    raise AssertionError("the demo stored no turn in 60 s")


@pytest.mark.slow
def test_kill_9_during_turns_never_duplicates_a_turn(tmp_path, monkeypatch):
    store = tmp_path / "s"
    cmd = [sys.executable, "-m", "memgpt_lite", "demo", "--store", str(store), "--turns", "400", "--json"]
    # The hashing embedder: turns embed nothing, and the last demo's search for every evicted message
    # (hundreds, however many the killed runs stored) is what MiniLM would make cost seconds; what
    # this test checks, stored turns after kill -9, does not depend on it (test_demo_cli runs MiniLM).
    monkeypatch.setenv("MEMGPT_LITE_EMBEDDER", "hashing")
    # Each kill lands a while after that process began storing turns, not at a fixed time from its start
    # (2.5-3.5 s before, ~1 s of it start-up: on a loaded machine a kill could fall before the first turn
    # and try nothing). At ~300 turns a second each process stores ~100-200 turns before it dies, past
    # the demo's first flush (turn 51) and several after it, and none gets to its 400th.
    for delay in (0.3, 0.5, 0.7):
        state = store / "state.json"
        since = state.stat().st_mtime_ns if state.exists() else 0
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_for_turns(state, since, proc)
            time.sleep(delay)
            assert proc.poll() is None, "the demo finished before it was killed"
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)
    assert main(["demo", "--store", str(store), "--turns", "3", "--json"]) in (0, 1)
    counts = demo_turns(store)
    assert counts and max(counts.values()) == 1, [k for k, v in counts.items() if v > 1]


@pytest.fixture
def private_tmp(tmp_path, monkeypatch) -> Path:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def test_demo_without_store_leaves_no_temporary_folder(private_tmp, capsys):
    assert main(["demo", "--turns", "3"]) == 0
    assert "temporary, removed" in capsys.readouterr().out
    assert not list(private_tmp.glob("memgpt-lite-demo-*"))


def test_demo_without_store_leaves_nothing_on_failure(private_tmp, capsys):
    assert main(["demo", "--turns", "3", "--context-window", "60"]) == 1  # a runtime error (the window)
    assert not list(private_tmp.glob("memgpt-lite-demo-*"))


def test_keep_keeps_the_temporary_store_and_names_it(private_tmp, capsys):
    assert main(["demo", "--turns", "3", "--keep", "--json"]) == 0
    kept = list(private_tmp.glob("memgpt-lite-demo-*"))
    assert len(kept) == 1 and f"kept the temporary store: {kept[0]}" in capsys.readouterr().err
    assert os.path.exists(kept[0] / "state.json")
