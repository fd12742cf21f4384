"""Model replies that cannot crash the loop, through the real SDK over an httpx2.MockTransport: bodies
that are cut off or nested 50,000 deep, lone surrogates, thousands of tool calls, repeated tool-use ids,
and a Retry-After of a day."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest

from memgpt_lite import Agent, AgentMemory
from memgpt_lite.agent import MAX_TOOL_CALLS_PER_REPLY, TOO_MANY_CALLS_KIND
from memgpt_lite.errors import ModelError
from memgpt_lite.llm.anthropic import RETRY_AFTER_CAP_S, AnthropicModel, to_wire_messages
from memgpt_lite.messages import Message, ModelRequest
from memgpt_lite.storage.embeddings import HashingEmbedder


def wire(content: list[dict[str, Any]], stop_reason: str = "tool_use") -> dict[str, Any]:
    return {
        "id": "msg_x",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 5, "output_tokens": 5},
    }


def send(text: str, call_id: str, more: bool = False) -> dict[str, Any]:
    args: dict[str, Any] = {"message": text, "request_heartbeat": True} if more else {"message": text}
    return {"type": "tool_use", "id": call_id, "name": "send_message", "input": args}


class Server:
    """Serves the given raw bodies (bytes) or JSON objects in order, the last one for ever after."""

    def __init__(self, *replies: Any, status: int = 200, headers: dict[str, str] | None = None) -> None:
        self.replies = list(replies)
        self.bodies: list[dict[str, Any]] = []
        self.status = [status] if isinstance(status, int) else list(status)
        self.headers = headers or {}

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.bodies.append(json.loads(request.content))
        reply = self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]
        status = self.status.pop(0) if len(self.status) > 1 else self.status[0]
        content = reply if isinstance(reply, bytes) else json.dumps(reply).encode()
        return httpx2.Response(
            status, content=content, headers={"content-type": "application/json", **self.headers}
        )


def model_for(server: Server, **kw: Any) -> AnthropicModel:
    client = httpx2.Client(transport=httpx2.MockTransport(server))
    return AnthropicModel("m", api_key="k", base_url="http://mock", http_client=client, **kw)


REQUEST = ModelRequest(system="s", messages=[Message.user("hi")], max_tokens=64)


@pytest.mark.parametrize(
    "body",
    [
        b'{"id": "m", "type": "message", "role": "assistant", "content": [{"type": "te',
        b'{"a": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
        json.dumps(wire([{"type": "tool_use", "id": "t", "name": "x", "input": {}}]))
        .encode()
        .replace(b'"input": {}', b'"input": {"a": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"),
        b"\xff\xfe not even utf-8",
    ],
    ids=["truncated", "nested-50000", "nested-50000-tool-input", "not-utf8"],
)
def test_an_unparseable_reply_is_a_model_error(body):
    with pytest.raises(
        ModelError, match=r"m: http://mock.* (sent a reply that cannot be parsed|not a Messages API)"
    ):
        model_for(Server(body), max_retries=0).request(REQUEST)


def test_lone_surrogates_are_kept_with_a_replacement_character(tmp_path):
    body = json.dumps(wire([{"type": "text", "text": "a\\ud800b"}, send("hi \\udfff there", "t1")])).replace(
        "\\\\u", "\\u"
    )
    reply = model_for(Server(body.encode()), max_retries=0).request(REQUEST).message
    assert reply.parts[0].text == "a\ufffdb"
    assert reply.tool_calls[0].arguments == {"message": "hi \ufffd there"}
    with AgentMemory.open(tmp_path / "s", context_window=8000, embedder=HashingEmbedder()) as memory:
        memory.append(reply)  # storable: valid UTF-8 now
        assert memory.recall.get([reply.id])[0].parts[0].text == "a\ufffdb"


def test_thousands_of_tool_calls_get_a_bounded_stand_in(tmp_path):
    calls = [send(f"hello {i}", f"toolu_{i}") for i in range(5000)]
    server = Server(wire(calls), wire([send("done", "toolu_final")], "end_turn"))
    with AgentMemory.open(tmp_path / "s", context_window=8000, embedder=HashingEmbedder()) as memory:
        agent = Agent(model_for(server, max_retries=0), memory)
        result = agent.step("go")
        in_context = memory.context.in_context
        stand_in = next(m for m in in_context if m.meta.get("kind") == TOO_MANY_CALLS_KIND)
        assert len(stand_in.tool_calls) == MAX_TOOL_CALLS_PER_REPLY == 32
        assert "4968 more tool calls of this reply were dropped and not run" in stand_in.text
        original = memory.recall.get([stand_in.meta["original_id"]])[0]
        assert len(original.tool_calls) == 5000  # nothing lost
        assert result.messages == [f"hello {i}" for i in range(32)]
        assert agent.step("and now?").messages == ["done"]
    # The replayed request carries the 32 calls and their 32 results only.
    replay = server.bodies[1]["messages"]
    uses = [b for t in replay for b in t["content"] if b["type"] == "tool_use"]
    results = [b for t in replay for b in t["content"] if b["type"] == "tool_result"]
    assert len(uses) == len(results) == 32


def test_repeated_tool_use_ids_are_made_unique_within_a_reply_and_on_replay(tmp_path):
    server = Server(
        wire([send("one", "call_0"), send("two", "call_0", more=True)]),
        wire([send("three", "call_0", more=True)]),
        wire([send("done", "call 0 !")], "end_turn"),
    )
    with AgentMemory.open(tmp_path / "s", context_window=8000, embedder=HashingEmbedder()) as memory:
        result = Agent(model_for(server, max_retries=0), memory).step("go")
    assert result.messages == ["one", "two", "three", "done"]
    last = server.bodies[-1]["messages"]
    uses = [b["id"] for t in last for b in t["content"] if b["type"] == "tool_use"]
    assert uses == ["call_0", "call_0_2", "call_0_3"]
    for i, turn in enumerate(last):
        ids = [b["id"] for b in turn["content"] if b["type"] == "tool_use"]
        if ids:
            answered = [b["tool_use_id"] for b in last[i + 1]["content"] if b["type"] == "tool_result"]
            assert answered == ids


def test_replayed_history_with_repeated_ids_is_renamed_with_its_results():
    from memgpt_lite.testing import tool_call

    a = Message.assistant(tool_call("send_message", _id="x", message="1"))
    b = Message.assistant(tool_call("send_message", _id="x", message="2"))
    from memgpt_lite.messages import ToolResultPart

    turns = to_wire_messages(
        [
            Message.user("hi"),
            a,
            Message.tool_results(ToolResultPart(tool_call_id="x", name="send_message", content="ok1")),
            b,
            Message.tool_results(ToolResultPart(tool_call_id="x", name="send_message", content="ok2")),
        ]
    )
    assert [blk["id"] for t in turns for blk in t["content"] if blk["type"] == "tool_use"] == ["x", "x_2"]
    assert [
        (blk["tool_use_id"], blk["content"])
        for t in turns
        for blk in t["content"]
        if blk["type"] == "tool_result"
    ] == [
        ("x", "ok1"),
        ("x_2", "ok2"),
    ]


@pytest.mark.parametrize(("timeout", "cap"), [(None, RETRY_AFTER_CAP_S), (5.0, 5.0)])
def test_a_retry_after_of_a_day_is_capped(monkeypatch, timeout, cap):
    import anthropic._base_client as base

    waits: list[float] = []
    monkeypatch.setattr(base.time, "sleep", lambda s: waits.append(s))
    ok = wire([{"type": "text", "text": "fine"}], "end_turn")
    server = Server({"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}, ok,
                    status=[429, 200], headers={"retry-after": "86400"})  # fmt: skip
    reply = model_for(server, max_retries=2, timeout=timeout).request(REQUEST)
    assert reply.message.text == "fine"
    assert waits == [cap]
    assert RETRY_AFTER_CAP_S == 60.0


def test_tool_input_nested_500_deep_is_an_error_result_not_a_crash(tmp_path):
    deep = (
        b'{"id":"m","type":"message","role":"assistant","model":"m","stop_reason":"tool_use","stop_sequence":null,'
        b'"usage":{"input_tokens":1,"output_tokens":1},"content":[{"type":"tool_use","id":"t1",'
        b'"name":"send_message","input":{"message":"hi","x":' + b"[" * 500 + b"]" * 500 + b"}}]}"
    )
    server = Server(deep, wire([send("sorry", "t2")], "end_turn"))
    with AgentMemory.open(tmp_path / "s", context_window=8000, embedder=HashingEmbedder()) as memory:
        result = Agent(model_for(server, max_retries=0), memory).step("go")
    assert result.messages == ["sorry"]
    [record, _] = result.tool_calls
    assert record.is_error and "nested more than 64 levels deep were dropped" in record.result
