"""Small constructors for model responses, so scripted conversations read like the dialogue they test."""

from __future__ import annotations

import json
import uuid
from typing import Any

from memgpt_lite.messages import (
    Message,
    ModelResponse,
    StopReason,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    Usage,
)

AssistantPart = TextPart | ThinkingPart | ToolCallPart


def text(value: str) -> TextPart:
    """A text part. In a MemGPT-style agent, text outside `send_message` is private inner monologue."""
    return TextPart(text=value)


def thinking(value: str, signature: str | None = None) -> ThinkingPart:
    """A thinking part (extended thinking); kept in recall, never shown to the user."""
    return ThinkingPart(text=value, signature=signature)


def tool_call(
    name: str, /, _id: str | None = None, _raw: str | None = None, **arguments: Any
) -> ToolCallPart:
    """A tool call with keyword arguments as its input.

    `_raw` simulates a model that sent arguments which are not valid JSON: `arguments` stays empty and
    `raw_arguments` carries the broken text, exactly as a client adapter reports it.
    """
    call_id = _id or f"toolu_{uuid.uuid4().hex[:20]}"
    if _raw is not None:
        return ToolCallPart(id=call_id, name=name, arguments={}, raw_arguments=_raw)
    # Round-trip through JSON so a script cannot smuggle in values a real model could never send.
    return ToolCallPart(id=call_id, name=name, arguments=json.loads(json.dumps(arguments)))


def send_message(message: str, /, request_heartbeat: bool = False, _id: str | None = None) -> ToolCallPart:
    """Shorthand for the `send_message` tool call that shows `message` to the user."""
    args: dict[str, Any] = {"message": message}
    if request_heartbeat:
        args["request_heartbeat"] = True
    return tool_call("send_message", _id=_id, **args)


def response(
    *parts: AssistantPart,
    stop_reason: StopReason | None = None,
    usage: Usage | None = None,
    model: str = "scripted",
) -> ModelResponse:
    """One assistant response. The stop reason defaults to `tool_use` when a part is a tool call."""
    if stop_reason is None:
        stop_reason = "tool_use" if any(isinstance(p, ToolCallPart) for p in parts) else "end_turn"
    return ModelResponse(
        message=Message.assistant(*parts),
        stop_reason=stop_reason,
        usage=usage or Usage(),
        model=model,
    )
