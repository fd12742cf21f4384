"""The Anthropic Messages API client: our `ModelRequest` in, our `ModelResponse` out.

This is the only module that knows the wire format. It works against api.anthropic.com and against
any server that speaks the Messages API (Ollama, llama.cpp server, vLLM) via `base_url`.
Retries with exponential backoff for 429 / 5xx / 529 overload are the SDK's, with `max_retries`.
"""

from __future__ import annotations

import json
import os
from typing import Any
from urllib.parse import urlsplit

import anthropic
import httpx2
from loguru import logger

from memgpt_lite.errors import ConfigError, ModelError
from memgpt_lite.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    Part,
    StopReason,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    Usage,
)

DEFAULT_MODEL = "claude-sonnet-4-5"
MODEL_ENV = "MEMGPT_LITE_MODEL"
SYSTEM_NOTICE_PREFIX = "[System notice]"
LONG_REQUEST_TOKENS = 16_000
REDACTED_THINKING_META = "anthropic_redacted_thinking"

_STOP_REASONS: dict[str, StopReason] = {
    "end_turn": "end_turn",
    "tool_use": "tool_use",
    "max_tokens": "max_tokens",
    "stop_sequence": "stop_sequence",
    "refusal": "refusal",
    "pause_turn": "pause_turn",
    # The reply was cut off because the window filled up: for the loop that is the same as a max_tokens cut.
    "model_context_window_exceeded": "max_tokens",
}


def default_model_name() -> str:
    return os.environ.get(MODEL_ENV) or DEFAULT_MODEL


# -- request translation -----------------------------------------------------------------------------


def _part_blocks(part: Part) -> list[dict[str, Any]]:
    if isinstance(part, TextPart):
        # The API rejects empty and whitespace-only text blocks.
        return [{"type": "text", "text": part.text}] if part.text.strip() else []
    if isinstance(part, ThinkingPart):
        # A thinking block is only valid with the signature the API issued; unsigned monologue (from a
        # scripted model or another provider) stays in recall and is not replayed.
        if part.signature:
            return [{"type": "thinking", "thinking": part.text, "signature": part.signature}]
        return []
    if isinstance(part, ToolCallPart):
        # Invalid JSON from the model is kept in raw_arguments; the API needs an object here.
        return [{"type": "tool_use", "id": part.id, "name": part.name, "input": part.arguments}]
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": part.tool_call_id, "content": part.content}
    if part.is_error:
        block["is_error"] = True
    return [block]


def _message_turn(message: Message) -> tuple[str, list[dict[str, Any]]]:
    if message.role == "system":
        # Mid-conversation system messages (memory-pressure warnings, summaries) have no API role of their own.
        return "user", [{"type": "text", "text": f"{SYSTEM_NOTICE_PREFIX} {message.text}"}]
    role = "assistant" if message.role == "assistant" else "user"
    blocks = [b for p in message.parts for b in _part_blocks(p)]
    if role == "assistant":
        # Redacted thinking has no part of its own; it rides in meta and goes back where it came from,
        # because the API wants thinking blocks of a tool-use turn returned unchanged.
        for item in message.meta.get(REDACTED_THINKING_META, []):
            blocks.insert(
                min(int(item["index"]), len(blocks)), {"type": "redacted_thinking", "data": item["data"]}
            )
    return role, blocks


def to_wire_messages(messages: list[Message]) -> list[dict[str, Any]]:
    """Our messages → Messages-API turns: strictly alternating roles, tool results first in their turn."""
    turns: list[dict[str, Any]] = []
    for message in messages:
        role, blocks = _message_turn(message)
        if not blocks:
            continue
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})
    for turn in turns:
        if turn["role"] == "user":
            # The API wants tool_result blocks before any text in a user turn; keep their relative order.
            turn["content"].sort(key=lambda b: b["type"] != "tool_result")
    if turns and turns[0]["role"] != "user":
        # After an eviction the queue may start with an assistant turn; the API requires a user turn first.
        turns.insert(
            0,
            {
                "role": "user",
                "content": [{"type": "text", "text": f"{SYSTEM_NOTICE_PREFIX} Conversation continues."}],
            },
        )
    return turns


def to_wire_tools(request: ModelRequest) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = [
        {"name": t.name, "description": t.description, "input_schema": t.input_schema} for t in request.tools
    ]
    # Pre-built definitions such as {"type": "memory_20250818", "name": "memory"} pass through untouched.
    tools.extend(request.extra.get("tools", []))
    return tools


def build_params(request: ModelRequest, model: str) -> dict[str, Any]:
    """The keyword arguments for `client.messages.create`, exactly as they go on the wire."""
    params: dict[str, Any] = {
        "model": model,
        "max_tokens": request.max_tokens,
        "messages": to_wire_messages(request.messages),
    }
    if request.system:
        params["system"] = request.system
    tools = to_wire_tools(request)
    if tools:
        params["tools"] = tools
    body: dict[str, Any] = {}
    if request.temperature is not None:
        # SDK 2.x has no typed `temperature` (current Claude models fix sampling); servers such as Ollama
        # still honour it, so it travels in the body.
        body["temperature"] = request.temperature
    # Provider options we do not model (thinking config, metadata, ...).
    body.update(request.extra.get("body") or {})
    if body:
        params["extra_body"] = body
    return params


# -- response translation ----------------------------------------------------------------------------


def from_wire_message(msg: Any) -> ModelResponse:
    """An SDK `Message` → our `ModelResponse`."""
    parts: list[TextPart | ThinkingPart | ToolCallPart] = []
    redacted: list[dict[str, Any]] = []
    for block in msg.content:
        kind = getattr(block, "type", None)
        if kind == "redacted_thinking":
            redacted.append({"index": len(parts) + len(redacted), "data": block.data})
        elif kind == "text":
            parts.append(TextPart(text=block.text))
        elif kind == "thinking":
            parts.append(ThinkingPart(text=block.thinking, signature=block.signature))
        elif kind == "tool_use":
            parts.append(_tool_call(block.id, block.name, block.input))
        else:
            logger.debug("ignoring content block of type {}", kind)
    usage = msg.usage
    meta: dict[str, Any] = {"provider_message_id": msg.id}
    if redacted:
        meta[REDACTED_THINKING_META] = redacted
    return ModelResponse(
        message=Message.assistant(*parts, meta=meta),
        stop_reason=_STOP_REASONS.get(msg.stop_reason or "end_turn", "end_turn"),
        usage=Usage(
            input_tokens=usage.input_tokens or 0,
            output_tokens=usage.output_tokens or 0,
            cache_read_tokens=usage.cache_read_input_tokens or 0,
            cache_write_tokens=usage.cache_creation_input_tokens or 0,
        ),
        model=msg.model or "",
    )


def _tool_call(call_id: str, name: str, raw_input: Any) -> ToolCallPart:
    if isinstance(raw_input, dict):
        return ToolCallPart(id=call_id, name=name, arguments=raw_input)
    if isinstance(raw_input, str):
        # Some Messages-API servers hand back the argument string unparsed.
        try:
            parsed = json.loads(raw_input)
        except json.JSONDecodeError:
            parsed = None
        if isinstance(parsed, dict):
            return ToolCallPart(id=call_id, name=name, arguments=parsed)
        return ToolCallPart(id=call_id, name=name, arguments={}, raw_arguments=raw_input)
    return ToolCallPart(id=call_id, name=name, arguments={}, raw_arguments=json.dumps(raw_input))


# -- the client --------------------------------------------------------------------------------------


def _http_url(url: str) -> bool:
    try:
        parts = urlsplit(url)
        return parts.scheme in ("http", "https") and bool(parts.hostname) and parts.port != -1
    except ValueError:  # an unclosed [IPv6 bracket, a port outside 0-65535
        return False


class AnthropicModel:
    """A `Model` backed by the Anthropic Messages API (or any server speaking it, via `base_url`).

    `api_key` defaults to `ANTHROPIC_API_KEY`; `model` to `MEMGPT_LITE_MODEL` or `claude-sonnet-4-5`.
    Local servers usually need no key: with `base_url` and no key a placeholder is sent.
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        http_client: httpx2.Client | None = None,
        max_retries: int = 4,
        timeout: float | None = None,
        client: anthropic.Anthropic | None = None,
    ) -> None:
        if max_retries < 0:
            raise ConfigError(f"max_retries must be >= 0, got {max_retries}")
        self.name = model or default_model_name()
        self.max_retries = max_retries
        self.timeout = timeout
        if client is not None:
            self.client = client
            return
        key = api_key or os.environ.get("ANTHROPIC_API_KEY")
        if not key and not base_url:
            raise ConfigError(
                "no model available: set ANTHROPIC_API_KEY, or pass base_url for a server that speaks the "
                "Messages API (Ollama, llama.cpp server, vLLM)"
            )
        kwargs: dict[str, Any] = {"api_key": key or "not-needed", "max_retries": max_retries}
        if base_url:
            if not _http_url(base_url):
                raise ConfigError(
                    f"base_url: expected an http(s) URL like http://localhost:11434, got {base_url!r}"
                )
            kwargs["base_url"] = base_url
        if http_client is not None:
            kwargs["http_client"] = http_client
        if timeout is not None:
            kwargs["timeout"] = timeout
        self.client = anthropic.Anthropic(**kwargs)

    def request(self, request: ModelRequest) -> ModelResponse:
        params = build_params(request, self.name)
        if request.max_tokens > LONG_REQUEST_TOKENS:
            # The SDK refuses long non-streaming requests unless a timeout is given explicitly.
            params["timeout"] = self.timeout or 1800.0
        try:
            msg = self.client.messages.create(**params)
        except anthropic.APIStatusError as err:
            raise ModelError(
                f"{self.name}: HTTP {err.status_code} from the model provider: {err.message}"
            ) from err
        except anthropic.APIError as err:
            where = getattr(self.client, "base_url", None)
            at = f" at {where}" if where else ""
            raise ModelError(f"{self.name}: model provider{at} unreachable or failed: {err}") from err
        try:
            return from_wire_message(msg)
        except (AttributeError, TypeError, ValueError, KeyError) as err:
            # a 200 whose body is not a Messages API message (a proxy's page, another API's JSON)
            where = getattr(self.client, "base_url", None) or "the model provider"
            raise ModelError(
                f"{self.name}: {where} answered with something that is not a Messages API message ({err})"
            ) from err

    def count_tokens(self, request: ModelRequest) -> int | None:
        """The provider's exact input-token count; None when the server does not offer counting."""
        params = build_params(request, self.name)
        params.pop("max_tokens", None)
        params.pop("extra_body", None)
        try:
            return int(self.client.messages.count_tokens(**params).input_tokens)
        except Exception as err:  # counting is optional; any failure means "unknown"
            logger.debug("count_tokens unavailable: {}", err)
            return None
