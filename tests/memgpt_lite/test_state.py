"""Agent state: persisted atomically, resumed exactly, clear errors for foreign or corrupt stores."""

from __future__ import annotations

import json

import pytest

from memgpt_lite.context import Block, ContextWindowExceeded
from memgpt_lite.errors import ConfigError, StoreError, ToolError
from memgpt_lite.memory import AgentMemory
from memgpt_lite.messages import Message, ToolCallPart, ToolResultPart
from memgpt_lite.state import INTERRUPTED_KIND, orphaned_tool_calls


def open_mem(store_dir, **kw) -> AgentMemory:
    kw.setdefault("context_window", 1500)
    kw.setdefault("blocks", [Block(name="persona", value="I test things.", limit=200)])
    return AgentMemory.open(store_dir, system_prompt="You are a test agent.", **kw)


def converse(mem: AgentMemory, n: int) -> None:
    for i in range(n):
        mem.append(Message.user(f"question {i} about the staging port {8000 + i} " + "detail " * 20))
        mem.prepare()
        mem.append(
            Message.assistant({"kind": "text", "text": f"answer {i}: port {8000 + i} noted " + "ok " * 20})
        )


def test_reopen_resumes_exactly(store_dir):
    mem = open_mem(store_dir)
    converse(mem, 30)
    mem.working_context.append("persona", "Likes tea.")
    mem.extra["turn"] = 30
    mem.save()
    before = mem.state()
    assert before.counters["flushes"] >= 1 and before.summary
    request_before = mem.context.build_request()
    mem.close()

    again = open_mem(store_dir, context_window=None, blocks=None)
    after = again.state()
    assert after.model_dump(exclude={"updated_at"}) == before.model_dump(exclude={"updated_at"})
    assert again.context.build_request().model_dump(mode="json") == request_before.model_dump(mode="json")
    assert again.working_context.get("persona").value == "I test things.\nLikes tea."
    assert again.extra["turn"] == 30
    again.close()


def test_block_edits_are_persisted_and_failed_edits_change_nothing(store_dir):
    mem = open_mem(store_dir)
    mem.working_context.replace("persona", "test things", "break things")
    with pytest.raises(ToolError):
        mem.working_context.append("persona", "x" * 500)
    mem.recall.close()  # no close(): the edit must already be on disk
    again = open_mem(store_dir, blocks=None)
    assert again.working_context.get("persona").value == "I break things."
    again.close()


def test_orphaned_tool_call_is_repaired_on_open(store_dir):
    mem = open_mem(store_dir)
    mem.append(Message.user("look it up"))
    done = ToolCallPart(id="c-done", name="conversation_search", arguments={"query": "a"})
    lost = ToolCallPart(id="c-lost", name="archival_memory_insert", arguments={"content": "b"})
    mem.append(Message.assistant(done, lost))
    mem.append(
        Message.tool_results(ToolResultPart(tool_call_id="c-done", name="conversation_search", content="hit"))
    )
    mem.recall.close()  # simulated crash: no close, no further writes

    again = open_mem(store_dir)
    msgs = again.context.in_context
    assert [m.role for m in msgs] == ["user", "assistant", "tool", "tool"]
    repair = msgs[-1]
    assert repair.meta["kind"] == INTERRUPTED_KIND and repair.tool_results_parts[0].tool_call_id == "c-lost"
    assert repair.tool_results_parts[0].is_error and "Interrupted" in repair.text
    assert repair.id in again.recall and again.repaired_tool_calls == 1
    assert orphaned_tool_calls(msgs) == []
    again.close()
    third = open_mem(store_dir)  # repaired once, stays repaired
    assert third.repaired_tool_calls == 0 and len(third.context.in_context) == 4
    third.close()


def test_not_our_store_and_corrupt_state_are_clear_errors(tmp_path):
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("hello")
    with pytest.raises(StoreError, match="not a memgpt_lite store"):
        AgentMemory.open(foreign)

    store = tmp_path / "s"
    open_mem(store).close()
    state = store / "state.json"
    original = state.read_text()
    state.write_text("{ not json")
    with pytest.raises(StoreError, match="corrupt"):
        AgentMemory.open(store)
    state.write_text(json.dumps({"format": "something-else"}))
    with pytest.raises(StoreError, match="not a memgpt_lite agent state"):
        AgentMemory.open(store)
    data = json.loads(original)
    data["format_version"] = 99
    state.write_text(json.dumps(data))
    with pytest.raises(StoreError, match="reads up to"):
        AgentMemory.open(store)
    data = json.loads(original)
    data["in_context_ids"] = ["msg-does-not-exist"]
    state.write_text(json.dumps(data))
    with pytest.raises(StoreError, match="recall storage does not hold"):
        AgentMemory.open(store)
    data = json.loads(original)
    data["config"]["context_window"] = "big"
    state.write_text(json.dumps(data))
    with pytest.raises(StoreError, match="config.context_window"):
        AgentMemory.open(store)


def test_missing_store_without_create(tmp_path):
    with pytest.raises(StoreError, match="does not exist"):
        AgentMemory.open(tmp_path / "nope", create=False)


def test_bad_configuration_is_a_config_error(store_dir):
    with pytest.raises(ConfigError, match="context_window"):
        AgentMemory.open(store_dir, context_window=-5)
    with pytest.raises(ConfigError, match="evict_to"):
        AgentMemory.open(store_dir, context_window=1000, evict_to=0.9)


def test_window_too_small_for_system_and_blocks(store_dir):
    mem = AgentMemory.open(
        store_dir,
        context_window=100,
        system_prompt="rules " * 80,
        blocks=[Block(name="persona", value="p", limit=10)],
    )
    mem.append(Message.user("hi"))
    with pytest.raises(ContextWindowExceeded, match="context window is 100"):
        mem.prepare()
    assert len(mem.context.in_context) == 1  # nothing lost
    mem.close()


def test_reopen_uses_the_archival_embedder_recorded_in_the_state(store_dir, capsys):
    from memgpt_lite.cli import main
    from memgpt_lite.storage.embeddings import HashingEmbedder

    mem = open_mem(store_dir, embedder=HashingEmbedder(dim=64))
    mem.archival.insert("the staging server listens on port 8443", importance=7)
    mem.close()
    again = open_mem(store_dir)  # no embedder given: the recorded hashing-64 one is rebuilt
    assert again.state().embedder == "hashing-64"
    assert "8443" in again.archival.search("staging server port").items[0].passage.content
    again.close()
    capsys.readouterr()
    assert main(["inspect", "--store", str(store_dir), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["archival_passages"] == 1


def _count_state_writes(monkeypatch) -> list[dict]:
    import memgpt_lite.state as state_module

    written: list[dict] = []
    real = state_module.atomic_write_json

    def spy(path, data):
        written.append(data)
        real(path, data)

    monkeypatch.setattr(state_module, "atomic_write_json", spy)
    return written


@pytest.mark.parametrize("edit_block", [False, True])
def test_a_two_call_turn_writes_the_state_once_per_change(store_dir, monkeypatch, edit_block):
    from memgpt_lite.agent import Agent
    from memgpt_lite.storage.embeddings import HashingEmbedder
    from memgpt_lite.testing import ScriptedModel, response, send_message, tool_call

    first = (
        tool_call("core_memory_append", name="human", content="likes tea", request_heartbeat=True)
        if edit_block
        else tool_call("conversation_search", query="tea", request_heartbeat=True)
    )
    model = ScriptedModel([response(first), response(send_message("Noted."))])
    with AgentMemory.open(store_dir, context_window=8000, embedder=HashingEmbedder()) as mem:
        written = _count_state_writes(monkeypatch)
        before = mem.recall.count()
        Agent(model, mem).step("remember I like tea")
        appended = mem.recall.count() - before
        assert len(model.requests) == 2 and appended == 5  # user, 2 x (assistant call + tool result)
        # one write per appended message; a tool's block edit rides on the tool results' write
        assert len(written) == appended
        # each write names the message being appended, so a crash right after it loses nothing
        assert [len(w["pending_ids"]) for w in written] == [1] * appended
        assert ("likes tea" in written[2]["blocks"][1]["value"]) is edit_block  # the tool results' write
    with AgentMemory.open(store_dir, embedder=HashingEmbedder()) as again:  # resumes every message
        assert [m.role for m in again.context.in_context][-5:] == [
            "user",
            "assistant",
            "tool",
            "assistant",
            "tool",
        ]
        assert ("likes tea" in again.working_context.render()) is edit_block


def test_memory_opens_from_one_settings_object(store_dir):
    from memgpt_lite.errors import UsageError
    from memgpt_lite.memory import MemorySettings

    settings = MemorySettings(context_window=4000, system_prompt="You are terse.")
    with AgentMemory.open(store_dir, settings) as mem:
        assert mem.context.config.context_window == 4000 and mem.context.system_prompt == "You are terse."
    with AgentMemory.open(store_dir, settings, context_window=5000) as mem:  # keywords apply on top
        assert mem.context.config.context_window == 5000
    with pytest.raises(UsageError, match="context_windw"):
        AgentMemory.open(store_dir, context_windw=5000)


def test_a_block_edit_before_a_failing_tool_call_is_still_saved(store_dir):
    from memgpt_lite.agent import Agent
    from memgpt_lite.storage.embeddings import HashingEmbedder
    from memgpt_lite.testing import ScriptedModel, response, tool_call
    from memgpt_lite.tools.registry import ToolContext

    def note_then_fail(ctx: ToolContext) -> str:
        """Notes something, then hits a broken store."""
        ctx.memory.working_context.append("human", "prefers tea")
        raise StoreError("archival index is corrupt")

    model = ScriptedModel([response(tool_call("note_then_fail"))])
    with AgentMemory.open(store_dir, context_window=8000, embedder=HashingEmbedder()) as mem:
        with pytest.raises(StoreError):
            Agent(model, mem, tools=[note_then_fail]).step("go")
        saved = json.loads(mem.store.state_path.read_text())
        assert "prefers tea" in saved["blocks"][1]["value"]  # written when the error left the tool loop
