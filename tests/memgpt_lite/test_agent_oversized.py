"""A model message or tool result too large for the context: an error the model reads, never a crash.

The original stays whole in recall storage; a bounded stand-in joins the context, tool calls keep
their pairing, and a reopened store carries on from the stand-in.
"""

from __future__ import annotations

import re

import pytest

from memgpt_lite.agent import Agent
from memgpt_lite.context.oversized import OMITTED_KEY, STAND_IN_KIND
from memgpt_lite.memory import AgentMemory
from memgpt_lite.messages import Message
from memgpt_lite.storage.embeddings import HashingEmbedder
from memgpt_lite.testing import ScriptedModel, response, send_message, text, tool_call
from memgpt_lite.tools.registry import ToolContext

WINDOW = 8000
HUGE = " ".join(f"line{i} of the pasted log: status=ok value={i * 7}" for i in range(5000))  # ~200 KB


def open_memory(store):
    return AgentMemory.open(store, context_window=WINDOW, embedder=HashingEmbedder())


def assert_paired(messages: list[Message]) -> None:
    for i, m in enumerate(messages):
        if m.role == "assistant" and m.tool_calls:
            following = messages[i + 1]
            assert following.role == "tool"
            assert [r.tool_call_id for r in following.tool_results_parts] == [c.id for c in m.tool_calls]


def test_oversized_tool_call_is_not_run_and_the_model_reads_why(tmp_path):
    assert len(HUGE) > 200_000
    store = tmp_path / "store"
    memory = open_memory(store)
    model = ScriptedModel(
        [
            response(
                text("Saving the whole log."),
                tool_call("archival_memory_insert", content=HUGE, request_heartbeat=True),
            ),
            response(send_message("That was too much; I saved a short note instead.")),
        ]
    )
    result = Agent(model, memory).step("here is my log, keep it")  # before the fix: ContextWindowExceeded

    assert result.messages == ["That was too much; I saved a short note instead."]
    assert result.errors == 1 and result.steps == 2
    assert memory.archival_count() == 0  # the call was not run
    error = result.tool_calls[0]
    assert error.is_error and error.arguments.keys() == {OMITTED_KEY}
    tokens, limit = map(
        int, re.search(r"too large \((\d+) tokens; .* at most (\d+) tokens", error.result).groups()
    )
    # Written out by hand, not read back from the code under test: one message may take a third of what
    # the window leaves after the fixed part (system prompt, blocks, tool schemas, summary reserve:
    # well under 3,000 tokens here), so 1,666 <= limit <= 2,666; the log is ~75k raw tokens, ~100k with
    # the 1.3 margin.
    assert 90_000 < tokens < 110_000
    assert (WINDOW - 3000) // 3 <= limit <= WINDOW // 3

    # The model saw a bounded stand-in and the error, in one prompt that fits the window.
    second = model.requests[1]
    assert memory.counter.count_request(second) <= WINDOW
    stand_in, results = second.messages[-2], second.messages[-1]
    assert stand_in.meta["kind"] == STAND_IN_KIND and "line4999" not in stand_in.text
    assert "Saving the whole log." in stand_in.text
    assert results.tool_results_parts[0].is_error and "was not run" in results.text
    assert_paired(second.messages)

    # Nothing lost: the original call, arguments and all, is in recall under the id the error names.
    original_id = stand_in.stand_in.original_id
    assert original_id in results.text
    [original] = memory.recall.get([original_id])
    assert original.tool_calls[0].arguments == {"content": HUGE, "request_heartbeat": True}
    memory.close()

    # The persisted state names the stand-in, not the original: a reopened store carries on.
    with open_memory(store) as again:
        in_context = again.context.in_context
        assert original_id not in {m.id for m in in_context}
        assert stand_in.id in {m.id for m in in_context} and again.repaired_tool_calls == 0
        assert_paired(in_context)
        later = ScriptedModel([response(send_message("Still here."))])
        assert Agent(later, again).step("ok?").messages == ["Still here."]


def test_oversized_tool_result_is_cut_with_a_note_naming_the_full_text(tmp_path):
    def read_log(ctx: ToolContext) -> str:
        """Return the whole server log."""
        return HUGE

    with open_memory(tmp_path / "store") as memory:
        model = ScriptedModel(
            [
                response(tool_call("read_log", request_heartbeat=True)),
                response(send_message("The log ends well.")),
            ]
        )
        result = Agent(model, memory, tools=[read_log]).step("read the log")
        assert result.messages == ["The log ends well."] and result.errors == 0
        assert result.tool_calls[0].result == HUGE  # the caller's record is the real result

        second = model.requests[1]
        assert memory.counter.count_request(second) <= WINDOW
        cut = second.messages[-1]
        assert cut.role == "tool" and cut.meta["kind"] == STAND_IN_KIND
        content = cut.tool_results_parts[0].content
        assert content.startswith(HUGE[:200]) and len(content) < len(HUGE) // 10
        assert "truncated" in content and cut.stand_in.original_id in content
        assert memory.counter.apply_margin(memory.counter.count_message(cut)) <= WINDOW // 3
        assert_paired(second.messages)
        [full] = memory.recall.get([cut.stand_in.original_id])
        assert full.tool_results_parts[0].content == HUGE
        # The model can find the full result again with its search tool.
        hits = memory.recall.search("line4999", page_size=10)
        assert cut.stand_in.original_id in {h.message.id for h in hits.items}


def test_small_messages_join_the_context_unchanged(tmp_path):
    with open_memory(tmp_path / "store") as memory:
        msg = Message.assistant(tool_call("send_message", message="hi"))
        assert memory.append_bounded(msg) is msg
        assert memory.context.in_context[-1].id == msg.id
        with pytest.raises(Exception, match="already in the context"):
            memory.append_bounded(msg)
