"""The agent loop with a scripted model: heartbeats, several calls per turn, and every kind of misbehaviour."""

from __future__ import annotations

import pytest

from memgpt_lite.agent import Agent, AgentConfig
from memgpt_lite.errors import StoreError, ToolError
from memgpt_lite.memory import AgentMemory
from memgpt_lite.messages import Message, TextPart, ToolCallPart, ToolResultPart
from memgpt_lite.storage.embeddings import HashingEmbedder
from memgpt_lite.testing import ScriptedModel, UnexpectedModelCall, response, send_message, text, tool_call
from memgpt_lite.tools.memory_tool import MemoryTool
from memgpt_lite.tools.registry import ToolContext


@pytest.fixture
def memory(tmp_path):
    mem = AgentMemory.open(tmp_path / "store", context_window=8000, embedder=HashingEmbedder())
    yield mem
    mem.close()


def recall_messages(memory: AgentMemory) -> list[Message]:
    return list(memory.recall.iter_messages())


def test_simple_turn_monologue_stays_private(memory):
    model = ScriptedModel([response(text("The user greets me; be warm."), send_message("Hello there!"))])
    result = Agent(model, memory).step("hi")
    assert result.messages == ["Hello there!"] and result.reply == "Hello there!"
    assert result.steps == 1 and result.errors == 0 and result.stopped == "yield"
    assert "be warm" not in result.reply
    # ... but the monologue is in recall, in order: user, assistant, tool results.
    roles = [m.role for m in recall_messages(memory)]
    assert roles == ["user", "assistant", "tool"]
    assert "be warm" in recall_messages(memory)[1].text
    req = model.requests[0]
    assert req.messages[-1].text == "hi"
    assert {t.name for t in req.tools} >= {"send_message", "archival_memory_search", "conversation_search"}
    assert "<working_context>" in req.system
    model.assert_exhausted()


def test_heartbeat_chains_and_parallel_calls_run_in_order(memory):
    model = ScriptedModel(
        [
            response(
                tool_call("core_memory_append", name="human", content="Name: Ada"),
                tool_call("core_memory_append", name="persona", content="Friendly", request_heartbeat=True),
            ),
            response(send_message("Nice to meet you, Ada.")),
        ]
    )
    result = Agent(model, memory).step("I'm Ada")
    assert result.steps == 2 and result.messages == ["Nice to meet you, Ada."]
    assert [c.name for c in result.tool_calls] == ["core_memory_append", "core_memory_append", "send_message"]
    blocks = {b.name: b.value for b in memory.working_context.blocks}
    assert blocks == {"persona": "Friendly", "human": "Name: Ada"}
    # The second request shows both results in one tool message and the edited working context.
    second = model.requests[1]
    assert [r.tool_call_id for r in second.messages[-1].tool_results_parts] == [
        c.id for c in second.messages[-2].tool_calls
    ]
    assert "Name: Ada" in second.system


@pytest.mark.parametrize(
    ("bad", "needle"),
    [
        (tool_call("fly_to_moon", speed=3), "Unknown tool 'fly_to_moon'"),
        (tool_call("core_memory_append", name="human"), "content: Field required"),
        (tool_call("archival_memory_insert", _raw='{"content": "half'), "not valid JSON"),
        (
            tool_call("core_memory_replace", name="human", old_content="absent", new_content="x"),
            "text not found",
        ),
        (tool_call("core_memory_append", name="nope", content="x"), "no memory block named 'nope'"),
        (tool_call("conversation_search", query="x", start_date="yesterday"), "not an ISO date"),
    ],
)
def test_misbehaviour_becomes_an_error_the_model_sees_then_it_recovers(memory, bad, needle):
    model = ScriptedModel([response(bad), response(send_message("Sorry, fixed."))])
    result = Agent(model, memory).step("do something")
    assert result.messages == ["Sorry, fixed."] and result.errors == 1 and result.steps == 2
    seen = model.requests[1].messages[-1].tool_results_parts[0]
    assert seen.is_error and needle in seen.content
    assert [m.role for m in recall_messages(memory)] == ["user", "assistant", "tool", "assistant", "tool"]


def test_empty_reply_and_text_cut_off_become_notices(memory):
    model = ScriptedModel(
        [
            response(),
            response(text("Let me explain at great len"), stop_reason="max_tokens"),
            response(send_message("Short answer.")),
        ]
    )
    result = Agent(model, memory).step("explain")
    assert result.messages == ["Short answer."] and result.steps == 3 and result.errors == 2
    assert "was empty" in model.requests[1].messages[-1].text
    assert "cut off at the output limit" in model.requests[2].messages[-1].text
    notices = [m for m in recall_messages(memory) if m.role == "system"]
    assert len(notices) == 2


def test_truncated_tool_use_is_not_run(memory):
    model = ScriptedModel(
        [
            response(
                tool_call("core_memory_append", name="human", content="ok part"),
                tool_call("core_memory_append", name="human", content="trunc"),
                stop_reason="max_tokens",
            ),
            response(send_message("done")),
        ]
    )
    result = Agent(model, memory).step("save")
    human = next(b for b in memory.working_context.blocks if b.name == "human")
    assert human.value == "ok part"
    results = model.requests[1].messages[-1].tool_results_parts
    assert [r.is_error for r in results] == [False, True]
    assert "cut off" in results[1].content and result.messages == ["done"]


def test_step_limit_stops_a_model_that_never_yields(memory):
    looping = [
        response(tool_call("conversation_search", query="x", request_heartbeat=True)) for _ in range(3)
    ]
    model = ScriptedModel(looping)
    result = Agent(model, memory, config=AgentConfig(max_steps=3)).step("loop")
    assert result.stopped == "max_steps" and result.steps == 3
    model.assert_exhausted()
    # State is consistent: every call has its result.
    msgs = recall_messages(memory)
    assert sum(len(m.tool_calls) for m in msgs) == sum(len(m.tool_results_parts) for m in msgs) == 3


def test_token_budget_stops_the_turn(memory):
    model = ScriptedModel([response(tool_call("conversation_search", query="x", request_heartbeat=True))] * 5)
    result = Agent(model, memory, config=AgentConfig(max_turn_tokens=10)).step("go")
    assert result.stopped == "max_turn_tokens" and result.steps == 1


def test_nudge_once_when_the_turn_ends_without_send_message(memory):
    model = ScriptedModel([response(text("I'll just think.")), response(send_message("Here you go."))])
    result = Agent(model, memory).step("answer me")
    assert result.messages == ["Here you go."] and result.errors == 0
    assert "user saw nothing" in model.requests[1].messages[-1].text
    silent = ScriptedModel([response(text("hmm")), response(text("still nothing"))])
    result = Agent(silent, memory).step("again")
    assert result.messages == [] and result.steps == 2 and result.stopped == "yield"


def test_unexpected_extra_call_is_not_swallowed(memory):
    model = ScriptedModel([response(tool_call("conversation_search", query="x", request_heartbeat=True))])
    with pytest.raises(UnexpectedModelCall):
        Agent(model, memory).step("go")


def test_memory_tool_joins_as_a_native_tool(memory, tmp_path):
    mt = MemoryTool(tmp_path / "memories")
    model = ScriptedModel(
        [
            response(
                tool_call(
                    "memory", command="create", path="/memories/handover.md", file_text="user likes tea"
                ),
                tool_call("memory", command="view", path="/memories/../../etc/passwd"),
            ),
            response(send_message("Noted.")),
        ]
    )
    agent = Agent(model, memory, tools=[mt])
    result = agent.step("remember I like tea")
    req = model.requests[0]
    assert req.extra["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    assert "memory" not in {t.name for t in req.tools}
    # ... but it is counted: the prompt with the memory tool is bigger than without it.
    specs = [t.spec() for t in (Agent(model, memory).tools.get(n) for n in Agent(model, memory).tools.names)]
    assert (
        memory.context.prompt_tokens([*specs, mt.as_tool().spec()])
        > memory.context.prompt_tokens(specs) + 100
    )
    assert (mt.root / "handover.md").read_text() == "user likes tea"
    assert [c.is_error for c in result.tool_calls[:2]] == [False, True]
    assert result.messages == ["Noted."]


def test_user_tools_with_context_and_deps(memory):
    clicked: list[str] = []

    def click(ctx: ToolContext, link: str) -> str:
        """Click a link.

        Args:
            link: The link text.
        """
        ctx.deps.append(link)
        return f"clicked {link}"

    model = ScriptedModel([response(tool_call("click", link="Settings")), response(send_message("ok"))])
    agent = Agent(model, memory, tools=[click], deps=clicked)
    agent.step("click settings")
    assert clicked == ["Settings"]
    assert "link" in next(t for t in model.requests[0].tools if t.name == "click").input_schema["properties"]


def test_resume_continues_with_the_same_memory(tmp_path):
    store = tmp_path / "s"
    with AgentMemory.open(store, context_window=8000, embedder=HashingEmbedder()) as mem:
        Agent(ScriptedModel([response(send_message("first"))]), mem).step("one")
    with AgentMemory.open(store, embedder=HashingEmbedder()) as mem:
        model = ScriptedModel([response(send_message("second"))])
        Agent(model, mem).step("two")
        texts = [m.text for m in model.requests[0].messages]
        assert texts[0] == "one" and texts[-1] == "two"


def test_step_without_user_message_continues_the_conversation(memory):
    model = ScriptedModel([response(send_message("first")), response(send_message("follow-up"))])
    agent = Agent(model, memory)
    agent.step("hello")
    result = agent.step(None)
    assert result.messages == ["follow-up"]
    assert model.requests[1].messages[-1].role == "tool"
    assert sum(m.role == "user" for m in recall_messages(memory)) == 1


@pytest.mark.parametrize("exc", [StoreError("archival index is corrupt"), AssertionError("a bug")])
def test_a_store_error_or_failing_assert_in_a_tool_ends_the_turn(memory, exc):
    def fragile(ctx: ToolContext) -> str:
        """Reads the store."""
        raise exc

    model = ScriptedModel([response(tool_call("fragile")), response(send_message("should not be asked"))])
    with pytest.raises(type(exc), match=str(exc)):
        Agent(model, memory, tools=[fragile]).step("go")
    assert len(model.requests) == 1  # the model never saw the failure as a tool result
    # The call stays in recall without a result; the next turn repairs it (see test_state.py).
    assert any(p.name == "fragile" for m in recall_messages(memory) for p in m.tool_calls)


def test_a_tool_error_still_reaches_the_model(memory):
    def picky(ctx: ToolContext, name: str) -> str:
        """Looks a name up.

        Args:
            name: The name.
        """
        raise ToolError(f"no such name {name!r}; try 'ada'")

    model = ScriptedModel([response(tool_call("picky", name="bob")), response(send_message("Sorry."))])
    result = Agent(model, memory, tools=[picky]).step("find bob")
    assert result.messages == ["Sorry."] and len(model.requests) == 2
    seen = model.requests[1].messages[-1].parts[0]
    assert seen.is_error and "no such name 'bob'" in seen.content


@pytest.mark.parametrize(
    ("role", "part"),
    [
        ("user", ToolCallPart(id="t1", name="send_message", arguments={"message": "hi"})),
        ("user", ToolResultPart(tool_call_id="t1", content="ok")),
        ("system", ToolCallPart(id="t1", name="x")),
        ("tool", TextPart(text="not a result")),
        ("assistant", ToolResultPart(tool_call_id="t1", content="ok")),
    ],
)
def test_a_part_that_does_not_fit_the_role_is_rejected(role, part):
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match=f"a {role} message cannot carry a {part.kind} part"):
        Message(role=role, parts=[part])


def test_the_loop_records_model_and_stop_reason_as_typed_fields(memory):
    model = ScriptedModel([response(send_message("Hello."))])
    Agent(model, memory).step("hi")
    [reply] = [m for m in recall_messages(memory) if m.role == "assistant"]
    assert reply.model == model.name and reply.stop_reason == "tool_use"
    assert "model" not in reply.meta and "stop_reason" not in reply.meta
