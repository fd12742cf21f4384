"""The scripted and function models users drive their agents with in tests."""

from __future__ import annotations

import socket

import pytest

from memgpt_lite.llm.base import Model
from memgpt_lite.messages import Message, ModelRequest, ToolCallPart
from memgpt_lite.testing import (
    FunctionModel,
    NetworkBlockedError,
    ScriptedModel,
    UnexpectedModelCall,
    block_network,
    response,
    send_message,
    text,
    tool_call,
)


def _req(user: str) -> ModelRequest:
    return ModelRequest(system="sys", messages=[Message.user(user)])


def test_scripted_model_returns_script_in_order_and_records_requests():
    model = ScriptedModel([response(text("one")), text("two"), [text("three"), tool_call("f", x=1)]])
    assert isinstance(model, Model)
    out = [model.request(_req(f"q{i}")) for i in range(3)]
    assert [r.message.text for r in out[:2]] == ["one", "two"]
    assert out[0].stop_reason == "end_turn"
    assert out[2].stop_reason == "tool_use"
    assert out[2].message.tool_calls[0].arguments == {"x": 1}
    assert [r.messages[0].text for r in model.requests] == ["q0", "q1", "q2"]
    assert model.remaining == 0
    model.assert_exhausted()


def test_scripted_model_fails_loudly_on_an_extra_call():
    model = ScriptedModel([text("only")])
    model.request(_req("a"))
    with pytest.raises(UnexpectedModelCall, match="call #2 was not scripted"):
        model.request(_req("b"))
    assert len(model.requests) == 2


def test_unused_script_is_reported():
    model = ScriptedModel([text("a"), text("b")])
    model.request(_req("x"))
    with pytest.raises(AssertionError, match="1 scripted response"):
        model.assert_exhausted()


def test_recorded_request_is_a_snapshot():
    model = ScriptedModel([text("a")])
    req = _req("before")
    model.request(req)
    req.messages.append(Message.user("after"))
    assert len(model.requests[0].messages) == 1


def test_script_item_may_be_a_function_of_the_request():
    model = ScriptedModel([lambda r: response(text(r.messages[-1].text.upper()))])
    assert model.request(_req("echo")).message.text == "ECHO"


def test_function_model_answers_from_the_request():
    model = FunctionModel(lambda r: send_message(f"you said {r.messages[-1].text}"))
    for word in ("a", "b"):
        call = model.request(_req(word)).message.tool_calls[0]
        assert call.name == "send_message" and call.arguments == {"message": f"you said {word}"}
    assert len(model.requests) == 2
    quiet = FunctionModel(lambda r: send_message("ok"), record=False)  # the demo's: answers, keeps nothing
    assert quiet.request(_req("a")).message.tool_calls[0].arguments == {"message": "ok"}
    assert quiet.requests == []


def test_bad_script_item_is_a_type_error():
    with pytest.raises(TypeError, match="script item"):
        ScriptedModel([42]).request(_req("x"))  # type: ignore[list-item]


def test_tool_call_builder_can_simulate_invalid_json():
    part = tool_call("f", _raw='{"x": 1', _id="call-1")
    assert isinstance(part, ToolCallPart)
    assert part.arguments == {} and part.raw_arguments == '{"x": 1' and part.id == "call-1"


def test_block_network_refuses_non_loopback_hosts():
    before = (socket.socket.connect, socket.getaddrinfo)
    with block_network():
        with pytest.raises(NetworkBlockedError):
            socket.getaddrinfo("api.anthropic.com", 443)
        s = socket.socket()
        try:
            with pytest.raises(NetworkBlockedError):
                s.connect(("203.0.113.5", 443))
        finally:
            s.close()
    assert (socket.socket.connect, socket.getaddrinfo) == before
