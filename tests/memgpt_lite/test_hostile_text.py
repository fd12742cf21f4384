"""Text that was never UTF-8 (undecodable bytes on stdin or argv arrive as lone surrogates): the
library refuses it with a `UsageError` and stores nothing; the CLI keeps the message, with U+FFFD for
the bad bytes."""

from __future__ import annotations

import pytest

from memgpt_lite import AgentMemory
from memgpt_lite import cli as memgpt_cli
from memgpt_lite.errors import UsageError
from memgpt_lite.messages import Message
from memgpt_lite.storage.recall import RecallStore


def test_recall_refuses_lone_surrogates_clearly_and_stores_nothing(tmp_path):
    recall = RecallStore(tmp_path / "recall.sqlite")
    try:
        with pytest.raises(UsageError, match="not valid Unicode"):
            recall.append(Message.user("caf\udce9"))
        assert recall.count() == 0
    finally:
        recall.close()


def test_run_keeps_a_message_with_undecodable_bytes(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test")
    store = tmp_path / "agent"
    argv = [
        "run",
        "--store",
        str(store),
        "--message",
        "caf\udce9 au lait",
        "--base-url",
        "http://127.0.0.1:9",
    ]
    rc = memgpt_cli.main([*argv, "--max-retries", "0"])
    err = capsys.readouterr().err
    assert rc == 1 and "Traceback" not in err and "unreachable" in " ".join(err.split())
    with AgentMemory.open(store, create=False, read_only=True) as memory:
        assert [m.text for m in memory.context.in_context] == ["caf\ufffd au lait"]
