"""The Anthropic client, offline: the real SDK over an httpx2.MockTransport with canned Messages-API replies."""

from __future__ import annotations

import json
from typing import Any

import anthropic
import httpx2
import pytest

from memgpt_lite.errors import ConfigError, ModelError
from memgpt_lite.llm.anthropic import AnthropicModel, default_model_name
from memgpt_lite.messages import (
    Message,
    ModelRequest,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    ToolResultPart,
    ToolSpec,
)

USAGE = {
    "input_tokens": 42,
    "output_tokens": 7,
    "cache_read_input_tokens": 3,
    "cache_creation_input_tokens": None,
}


def wire_message(content: list[dict[str, Any]], stop_reason: str = "end_turn") -> dict[str, Any]:
    return {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": USAGE,
    }


class FakeServer:
    """Answers each POST with the next canned (status, body); records every request body."""

    def __init__(self, *replies: tuple[int, dict[str, Any]]) -> None:
        self.replies = list(replies)
        self.bodies: list[dict[str, Any]] = []
        self.paths: list[str] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.paths.append(request.url.path)
        self.bodies.append(json.loads(request.content))
        status, body = self.replies.pop(0)
        # retry-after-ms keeps the SDK's backoff short in tests; the retry logic is the SDK's own.
        return httpx2.Response(status, json=body, headers={"retry-after-ms": "1"})


def make_model(server: FakeServer, **kw: Any) -> AnthropicModel:
    http = httpx2.Client(transport=httpx2.MockTransport(server))
    return AnthropicModel("claude-test", api_key="test", base_url="http://mock", http_client=http, **kw)


TOOL = ToolSpec(
    name="archival_memory_search",
    description="Search archival memory.",
    input_schema={"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
)


def conversation() -> list[Message]:
    call = ToolCallPart(id="toolu_1", name="archival_memory_search", arguments={"query": "cats"})
    return [
        Message.user("hello"),
        Message.user("are you there?"),
        Message.assistant(ThinkingPart(text="unsigned monologue"), TextPart(text="Let me look."), call),
        Message.tool_results(
            ToolResultPart(
                tool_call_id="toolu_1", name="archival_memory_search", content="no hits", is_error=True
            )
        ),
        Message.system("Memory pressure: 71% of the context window used."),
        Message.assistant(ThinkingPart(text="signed", signature="sig-1"), TextPart(text="Nothing found.")),
    ]


def test_exact_request_json_and_parsed_response():
    server = FakeServer((200, wire_message([{"type": "text", "text": "Hi!"}])))
    model = make_model(server)
    req = ModelRequest(
        system="You are a test agent.",
        messages=conversation(),
        tools=[TOOL],
        max_tokens=321,
        temperature=0.2,
        extra={"tools": [{"type": "memory_20250818", "name": "memory"}]},
    )
    resp = model.request(req)
    assert server.paths == ["/v1/messages"]
    assert server.bodies[0] == {
        "model": "claude-test",
        "max_tokens": 321,
        "system": "You are a test agent.",
        "temperature": 0.2,
        "tools": [
            {
                "name": "archival_memory_search",
                "description": "Search archival memory.",
                "input_schema": TOOL.input_schema,
            },
            {"type": "memory_20250818", "name": "memory"},
        ],
        "messages": [
            {
                "role": "user",
                "content": [{"type": "text", "text": "hello"}, {"type": "text", "text": "are you there?"}],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Let me look."},
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "archival_memory_search",
                        "input": {"query": "cats"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "no hits", "is_error": True},
                    {
                        "type": "text",
                        "text": "[System notice] Memory pressure: 71% of the context window used.",
                    },
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "signed", "signature": "sig-1"},
                    {"type": "text", "text": "Nothing found."},
                ],
            },
        ],
    }
    assert resp.message.text == "Hi!"
    assert resp.stop_reason == "end_turn"
    assert resp.model == "claude-test"
    assert (resp.usage.input_tokens, resp.usage.output_tokens, resp.usage.cache_read_tokens) == (42, 7, 3)


def test_tool_results_are_placed_before_text_in_their_turn():
    server = FakeServer((200, wire_message([{"type": "text", "text": "ok"}])))
    call = ToolCallPart(id="t1", name="f", arguments={})
    msgs = [
        Message.user("go"),
        Message.assistant(call),
        Message.system("a notice that arrived first"),
        Message.tool_results(ToolResultPart(tool_call_id="t1", content="done")),
    ]
    make_model(server).request(ModelRequest(system="", messages=msgs))
    body = server.bodies[0]
    assert "system" not in body and "tools" not in body and "temperature" not in body
    assert [b["type"] for b in body["messages"][2]["content"]] == ["tool_result", "text"]


def test_conversation_starting_with_assistant_gets_a_user_turn_first():
    server = FakeServer((200, wire_message([{"type": "text", "text": "ok"}])))
    make_model(server).request(
        ModelRequest(system="s", messages=[Message.assistant(TextPart(text="earlier"))])
    )
    first = server.bodies[0]["messages"][0]
    assert first["role"] == "user" and first["content"][0]["text"].startswith("[System notice]")


def test_parallel_tool_calls_thinking_and_stop_reason():
    content = [
        {"type": "thinking", "thinking": "two lookups", "signature": "s"},
        {"type": "text", "text": "Checking both."},
        {"type": "tool_use", "id": "toolu_a", "name": "conversation_search", "input": {"query": "dog"}},
        {
            "type": "tool_use",
            "id": "toolu_b",
            "name": "archival_memory_search",
            "input": {"query": "cat", "page": 1},
        },
    ]
    server = FakeServer((200, wire_message(content, stop_reason="tool_use")))
    resp = make_model(server).request(ModelRequest(system="s", messages=[Message.user("x")]))
    assert resp.stop_reason == "tool_use"
    kinds = [type(p).__name__ for p in resp.message.parts]
    assert kinds == ["ThinkingPart", "TextPart", "ToolCallPart", "ToolCallPart"]
    calls = resp.message.tool_calls
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("toolu_a", "conversation_search", {"query": "dog"}),
        ("toolu_b", "archival_memory_search", {"query": "cat", "page": 1}),
    ]
    assert resp.message.parts[0] == ThinkingPart(text="two lookups", signature="s")


def test_max_tokens_cut_off_with_a_truncated_tool_use():
    content = [
        {"type": "text", "text": "I will save"},
        {"type": "tool_use", "id": "toolu_cut", "name": "archival_memory_insert", "input": {}},
    ]
    server = FakeServer((200, wire_message(content, stop_reason="max_tokens")))
    resp = make_model(server).request(ModelRequest(system="s", messages=[Message.user("x")]))
    assert resp.stop_reason == "max_tokens"
    assert resp.message.tool_calls[0].id == "toolu_cut"


@pytest.mark.parametrize("status", [429, 529, 500])
def test_rate_limit_and_overload_are_retried(status):
    error = {
        "type": "error",
        "error": {
            "type": "overloaded_error" if status == 529 else "rate_limit_error",
            "message": "slow down",
        },
    }
    server = FakeServer(
        (status, error), (status, error), (200, wire_message([{"type": "text", "text": "finally"}]))
    )
    resp = make_model(server, max_retries=2).request(ModelRequest(system="s", messages=[Message.user("x")]))
    assert resp.message.text == "finally"
    assert len(server.bodies) == 3
    assert server.bodies[0] == server.bodies[2]


def test_retries_exhausted_raise_model_error():
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    server = FakeServer((529, error), (529, error))
    with pytest.raises(ModelError, match="HTTP 529"):
        make_model(server, max_retries=1).request(ModelRequest(system="s", messages=[Message.user("x")]))
    assert len(server.bodies) == 2


def test_client_errors_are_not_retried():
    error = {"type": "error", "error": {"type": "invalid_request_error", "message": "bad tools"}}
    server = FakeServer((400, error))
    with pytest.raises(ModelError, match="bad tools"):
        make_model(server, max_retries=3).request(ModelRequest(system="s", messages=[Message.user("x")]))
    assert len(server.bodies) == 1


def test_connection_failure_is_a_model_error():
    def refuse(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ConnectError("refused")

    http = httpx2.Client(transport=httpx2.MockTransport(refuse))
    model = AnthropicModel("m", base_url="http://mock", http_client=http, max_retries=0)
    with pytest.raises(ModelError, match="unreachable"):
        model.request(ModelRequest(system="s", messages=[Message.user("x")]))


def test_count_tokens_uses_the_endpoint_and_returns_none_when_unavailable():
    server = FakeServer(
        (200, {"input_tokens": 1234}),
        (404, {"type": "error", "error": {"type": "not_found_error", "message": "no"}}),
    )
    model = make_model(server, max_retries=0)
    req = ModelRequest(system="s", messages=[Message.user("x")], tools=[TOOL], max_tokens=99, temperature=0.5)
    assert model.count_tokens(req) == 1234
    assert server.paths[0] == "/v1/messages/count_tokens"
    assert set(server.bodies[0]) == {"model", "system", "messages", "tools"}
    assert model.count_tokens(req) is None


def test_model_name_from_configuration(monkeypatch):
    monkeypatch.setenv("MEMGPT_LITE_MODEL", "claude-from-env")
    assert default_model_name() == "claude-from-env"
    assert AnthropicModel(base_url="http://localhost:11434").name == "claude-from-env"
    monkeypatch.delenv("MEMGPT_LITE_MODEL")
    assert AnthropicModel(base_url="http://localhost:11434").name == "claude-sonnet-4-5"


def test_no_key_and_no_base_url_is_a_clear_config_error(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        AnthropicModel()


def test_base_url_server_without_key_and_extra_body_pass_through():
    server = FakeServer(
        (200, wire_message([{"type": "tool_use", "id": "t", "name": "f", "input": '{"a": 1'}], "tool_use"))
    )
    http = httpx2.Client(transport=httpx2.MockTransport(server))
    model = AnthropicModel("llama3", base_url="http://mock", http_client=http)
    req = ModelRequest(
        system="s", messages=[Message.user("x")], extra={"body": {"metadata": {"user_id": "u1"}}}
    )
    resp = model.request(req)
    assert server.bodies[0]["metadata"] == {"user_id": "u1"}
    # A server that returns the arguments as a broken string: kept raw for the agent to report.
    assert resp.message.tool_calls[0].raw_arguments == '{"a": 1'
    assert isinstance(model.client, anthropic.Anthropic)


def test_whitespace_text_is_dropped_and_long_requests_are_allowed():
    server = FakeServer((200, wire_message([{"type": "text", "text": "ok"}])))
    msgs = [
        Message.user("q"),
        Message.assistant(TextPart(text="  \n"), ToolCallPart(id="t", name="f", arguments={})),
    ]
    msgs.append(Message.tool_results(ToolResultPart(tool_call_id="t", content="r")))
    make_model(server).request(ModelRequest(system="s", messages=msgs, max_tokens=40_000))
    assert server.bodies[0]["messages"][1]["content"] == [
        {"type": "tool_use", "id": "t", "name": "f", "input": {}}
    ]
    assert server.bodies[0]["max_tokens"] == 40_000


def test_redacted_thinking_round_trips_in_place():
    content = [
        {"type": "thinking", "thinking": "plan", "signature": "sig"},
        {"type": "redacted_thinking", "data": "ENCRYPTED"},
        {"type": "tool_use", "id": "t1", "name": "f", "input": {}},
    ]
    server = FakeServer(
        (200, wire_message(content, "tool_use")), (200, wire_message([{"type": "text", "text": "ok"}]))
    )
    model = make_model(server)
    first = model.request(ModelRequest(system="s", messages=[Message.user("x")]))
    history = [
        Message.user("x"),
        first.message,
        Message.tool_results(ToolResultPart(tool_call_id="t1", content="r")),
    ]
    model.request(ModelRequest(system="s", messages=history))
    assert server.bodies[1]["messages"][1]["content"] == content
