"""Resume after `kill -9` in the middle of a step, with a real subprocess at three points of a step."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from memgpt_lite.memory import AgentMemory
from memgpt_lite.state import INTERRUPTED_KIND, load_state, orphaned_tool_calls
from memgpt_lite.storage.directory import StoreDirectory

CHILD = textwrap.dedent(
    """
    import sys, time
    from memgpt_lite.memory import AgentMemory
    from memgpt_lite.messages import Message, ToolCallPart
    from memgpt_lite.storage.recall import RecallStore

    store, phase = sys.argv[1], sys.argv[2]

    def ready():
        print("READY", flush=True)
        time.sleep(120)  # the parent kills us here

    mem = AgentMemory.open(store, context_window=4000)
    for i in range(3):  # some history, written normally
        mem.append(Message.user(f"earlier question {i}", id=f"u{i}"))
        mem.prepare()
        mem.append(Message.assistant({"kind": "text", "text": f"earlier answer {i}"}, id=f"a{i}"))
    mem.append(Message.user("find my parking spot", id="u-last"))
    mem.prepare()
    call = ToolCallPart(id="call-1", name="conversation_search", arguments={"query": "parking"})
    original_extend = RecallStore.extend
    if phase == "before_recall_write":
        RecallStore.extend = lambda self, msgs: ready()
    elif phase == "after_recall_write":
        def extend_then_die(self, msgs):
            msgs = list(msgs)
            original_extend(self, msgs)
            ready()
        RecallStore.extend = extend_then_die
    mem.append(Message.assistant(call, id="a-call"))
    if phase == "tool_running":
        ready()  # the tool call is stored and in context; its result never comes
    print("NOT KILLED", flush=True)
    """
)


def run_and_kill(store_dir, phase: str) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(store_dir), phase],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        line = proc.stdout.readline().decode().strip()
        assert line == "READY", (
            f"child did not reach the kill point: {line!r} {proc.stderr.read().decode()[-2000:]}"
        )
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL


@pytest.mark.slow
@pytest.mark.parametrize(
    ("phase", "expect_call_in_context"),
    [("before_recall_write", False), ("after_recall_write", True), ("tool_running", True)],
)
def test_resume_after_kill_9(store_dir, phase, expect_call_in_context):
    run_and_kill(store_dir, phase)

    saved = load_state(StoreDirectory.open(store_dir, create=False))
    assert saved is not None
    if phase != "tool_running":
        assert saved.pending_ids == ["a-call"]  # killed mid-append: the state names the message in flight

    mem = AgentMemory.open(store_dir)
    msgs = mem.context.in_context
    ids = [m.id for m in msgs]
    assert ids[:7] == ["u0", "a0", "u1", "a1", "u2", "a2", "u-last"]
    assert mem.recall.count() == len(ids)  # recall and context agree: nothing lost, nothing duplicated
    if expect_call_in_context:
        assert ids[7] == "a-call" and msgs[8].meta["kind"] == INTERRUPTED_KIND
        assert msgs[8].tool_results_parts[0].tool_call_id == "call-1" and mem.repaired_tool_calls == 1
    else:
        assert len(ids) == 7 and "a-call" not in mem.recall and mem.repaired_tool_calls == 0
    assert orphaned_tool_calls(msgs) == [] and mem.context.pending_ids == []
    prepared = mem.prepare()  # and the agent can carry on
    assert prepared.request.messages[-1].id == ids[-1]
    mem.close()
