"""The MemGPT memory functions over a real AgentMemory: paging with true totals, edits, archival."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memgpt_lite.memory import AgentMemory
from memgpt_lite.messages import Message, TextPart
from memgpt_lite.storage.embeddings import HashingEmbedder
from memgpt_lite.testing import tool_call
from memgpt_lite.tools.memory_functions import memory_functions
from memgpt_lite.tools.registry import ToolContext, ToolRegistry


@pytest.fixture
def memory(tmp_path):
    mem = AgentMemory.open(tmp_path / "store", context_window=50_000, embedder=HashingEmbedder())
    yield mem
    mem.close()


@pytest.fixture
def registry():
    return ToolRegistry(memory_functions())


def run(registry, memory, tool, /, **args):
    ctx = ToolContext(memory=memory, page_size=3)
    res = registry.call(tool_call(tool, **args), ctx)
    return res, ctx


def test_every_function_has_a_heartbeat_and_a_described_schema(registry):
    names = [s.name for s in registry.spec()]
    assert names == [
        "send_message",
        "core_memory_append",
        "core_memory_replace",
        "conversation_search",
        "conversation_search_date",
        "archival_memory_insert",
        "archival_memory_search",
    ]
    for spec in registry.spec():
        props = spec.input_schema["properties"]
        assert props["request_heartbeat"]["type"] == "boolean"
        assert all(p.get("description") for p in props.values()), spec.name


def test_send_message_goes_to_the_outbox(registry, memory):
    res, ctx = run(registry, memory, "send_message", message="Hi Ada")
    assert not res.is_error and ctx.outbox == ["Hi Ada"]
    res, ctx = run(registry, memory, "send_message", message="  ")
    assert res.is_error and ctx.outbox == []


def test_core_memory_edits_are_all_or_nothing(registry, memory):
    assert not run(registry, memory, "core_memory_append", name="human", content="Likes tea")[0].is_error
    res, _ = run(
        registry, memory, "core_memory_replace", name="human", old_content="tea", new_content="coffee"
    )
    assert "Replaced in human" in res.content
    res, _ = run(registry, memory, "core_memory_append", name="human", content="x" * 5000)
    assert res.is_error and "over its limit" in res.content
    assert next(b for b in memory.working_context.blocks if b.name == "human").value == "Likes coffee"


def test_conversation_search_pages_with_true_totals(registry, memory):
    for i in range(7):
        memory.append(Message.user(f"my cat number {i} is called Tom{i}"))
    memory.append(Message.user("the weather is fine"))
    res, _ = run(registry, memory, "conversation_search", query="cat", mode="words")
    lines = res.content.splitlines()
    assert lines[0] == "Showing messages 1-3 of 7 (page 0 of 0..2). More: page=1."
    assert len(lines) == 4 and all("cat number" in line for line in lines[1:])
    res, _ = run(registry, memory, "conversation_search", query="cat", page=2, mode="words")
    assert res.content.splitlines()[0] == "Showing messages 7-7 of 7 (page 2 of 0..2). This is the last page."
    res, _ = run(registry, memory, "conversation_search", query="cat", page=5, mode="words")
    assert "past the end" in res.content
    res, _ = run(registry, memory, "conversation_search", query="giraffe", mode="words")
    assert res.content == "No messages found."
    res, _ = run(registry, memory, "conversation_search", query="cat", roles=["assistant"], mode="words")
    assert res.content == "No messages found."
    res, _ = run(registry, memory, "conversation_search", query="cat", page=-1, mode="words")
    assert res.is_error and "page" in res.content


def test_conversation_search_hybrid_finds_the_turn_after_a_match(registry, memory):
    memory.append(Message.user("Which concert did you go to last night?"))
    memory.append(Message.assistant(TextPart(text="It was Matt Patterson, amazing show.")))
    for i in range(6):
        memory.append(Message.user(f"unrelated chatter about gardening number {i}"))
    words, _ = run(registry, memory, "conversation_search", query="concert", mode="words")
    assert "Matt Patterson" not in words.content  # the answer shares no word with the question
    hybrid, _ = run(registry, memory, "conversation_search", query="concert")
    assert "Matt Patterson" in "\n".join(hybrid.content.splitlines()[:3])


def test_conversation_search_date(registry, memory):
    base = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
    for d in range(4):
        memory.append(Message.user(f"day {d} note", created_at=base + timedelta(days=d)))
    res, _ = run(registry, memory, "conversation_search_date", start_date="2024-05-02", end_date="2024-05-03")
    lines = res.content.splitlines()
    assert lines[0].startswith("Showing messages 1-2 of 2")
    assert "day 1 note" in lines[1] and "day 2 note" in lines[2]
    assert "[2024-05-02 09:00 user id=" in lines[1]
    res, _ = run(registry, memory, "conversation_search_date", start_date="2024-05-09", end_date="2024-05-01")
    assert res.is_error


def test_archival_insert_redacts_and_search_pages(registry, memory):
    res, _ = run(
        registry,
        memory,
        "archival_memory_insert",
        content="Staging login: password=hunter2 for qa@example.com",
        importance=8,
        tags=["credentials"],
    )
    assert not res.is_error and "redactions" in res.content
    for i in range(4):
        run(
            registry,
            memory,
            "archival_memory_insert",
            content=f"The settings page bug {i} is about saving profiles",
        )
    stored = [h.passage.content for h in memory.archival.search("password login", page_size=10).items]
    assert not any("hunter2" in c or "qa@example.com" in c for c in stored)
    res, _ = run(registry, memory, "archival_memory_search", query="settings page bug saving")
    lines = res.content.splitlines()
    assert lines[0] == "Showing passages 1-3 of 5 (page 0 of 0..1). More: page=1."
    assert "settings page bug" in lines[1]
    res, _ = run(registry, memory, "archival_memory_search", query="login", tags=["credentials"])
    assert res.content.splitlines()[0].endswith("of 1 (page 0 of 0..0). This is the last page.")
    assert "tags=credentials" in res.content and "importance=8" in res.content
    res, _ = run(registry, memory, "archival_memory_search", query="   ")
    assert res.is_error
