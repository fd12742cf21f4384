"""The Anthropic Messages API client: our `ModelRequest` in, our `ModelResponse` out.

This is the only module that knows the wire format. It works against api.anthropic.com and against
any server that speaks the Messages API (Ollama, llama.cpp server, vLLM) via `base_url`.
Retries with exponential backoff for 429 / 5xx / 529 overload are the SDK's, with `max_retries`; a
`Retry-After` longer than `RETRY_AFTER_CAP_S` (or the client's `timeout`, when smaller) is cut to that
cap with a warning, so one call waits at most `max_retries` × the cap between attempts.

Replies are untrusted input: a body that is not JSON, is truncated or nested past the parser's depth,
or is not a Messages-API message is a `ModelError`; lone surrogates are replaced by U+FFFD; tool-use ids
are made unique (and safe for the API) within a reply and again across the history when replayed.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any
from urllib.parse import urlsplit

import anthropic
import httpx2

from memgpt_lite.errors import ConfigError, ModelError, ServerMismatch
from memgpt_lite.llm.base import StatedWindow
from memgpt_lite.llm.server_info import (
    CONNECT_TIMEOUT_S,
    PROBE_TIMEOUT_S,
    check_reachable,
    stated_context_window,
)
from memgpt_lite.log import logger
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
RETRY_AFTER_CAP_S = 60.0
MAX_ARGUMENT_DEPTH = 64
"""Deepest nesting of tool-call arguments kept; deeper ones become an error result for the model."""
"""Longest wait between two attempts, whatever `Retry-After` says (the SDK obeys up to ~50 days)."""
_SURROGATE = re.compile("[\ud800-\udfff]")
_UNSAFE_ID = re.compile(r"[^A-Za-z0-9_-]")

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
    _unique_tool_ids(turns)
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


def _unique_tool_ids(turns: list[dict[str, Any]]) -> None:
    """Rename repeated `tool_use` ids (a server that numbers calls per reply, a replayed reply) and the
    `tool_result`s of the next user turn that answer them: the API refuses duplicates in one request."""
    seen: set[str] = set()
    renamed: dict[str, str] = {}
    for turn in turns:
        if turn["role"] == "assistant":
            renamed = {}
            for block in turn["content"]:
                if block.get("type") != "tool_use":
                    continue
                old = block["id"]
                new = old
                n = 1
                while new in seen:
                    n += 1
                    new = f"{old}_{n}"
                seen.add(new)
                if new != old:
                    block["id"] = new
                    renamed[old] = new
        elif renamed:
            for block in turn["content"]:
                if block.get("type") == "tool_result" and block["tool_use_id"] in renamed:
                    block["tool_use_id"] = renamed[block["tool_use_id"]]
            renamed = {}


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


def clean_text(text: str) -> str:
    """`text` with every lone surrogate (a JSON `\\ud800` escape that is not half of a pair) replaced by
    U+FFFD: such a string cannot be encoded as UTF-8, so it could be neither stored nor sent back."""
    return _SURROGATE.sub("\ufffd", text)


class TooDeep(ValueError):
    """JSON data nested deeper than allowed."""


def clean_value(value: Any, max_depth: int = 10_000) -> Any:
    """A copy of JSON data with `clean_text` applied to every string, keys included. Iterative;
    `TooDeep` past `max_depth` levels of nesting."""
    if isinstance(value, str):
        return clean_text(value)
    if not isinstance(value, dict | list):
        return value
    root: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any, int]] = [(value, root, 1)]
    while stack:
        src, dst, depth = stack.pop()
        if depth > max_depth:
            raise TooDeep(f"nested more than {max_depth} levels deep")
        items = src.items() if isinstance(src, dict) else enumerate(src)
        for key, item in items:
            if isinstance(item, dict | list):
                child: Any = {} if isinstance(item, dict) else []
                stack.append((item, child, depth + 1))
            else:
                child = clean_text(item) if isinstance(item, str) else item
            if isinstance(dst, dict):
                dst[clean_text(key) if isinstance(key, str) else key] = child
            else:
                dst.append(child)
    return root


def _call_id(raw: Any, seen: set[str]) -> str:
    """A tool-use id the API accepts on replay (`[A-Za-z0-9_-]{1,64}`) and unique within the reply."""
    base = _UNSAFE_ID.sub("_", str(raw or ""))[:56] or "toolu"
    new, n = base, 1
    while new in seen:
        n += 1
        new = f"{base}_{n}"
    seen.add(new)
    return new


def from_wire_message(msg: Any) -> ModelResponse:
    """An SDK `Message` → our `ModelResponse`."""
    parts: list[TextPart | ThinkingPart | ToolCallPart] = []
    redacted: list[dict[str, Any]] = []
    ids: set[str] = set()
    for block in msg.content:
        kind = getattr(block, "type", None)
        if kind == "redacted_thinking":
            redacted.append({"index": len(parts) + len(redacted), "data": block.data})
        elif kind == "text":
            parts.append(TextPart(text=clean_text(block.text)))
        elif kind == "thinking":
            parts.append(ThinkingPart(text=clean_text(block.thinking), signature=block.signature))
        elif kind == "tool_use":
            call_id, name = _call_id(block.id, ids), clean_text(block.name)
            try:
                arguments = clean_value(block.input, MAX_ARGUMENT_DEPTH)
            except TooDeep:
                # Deeper than any tool takes, and past what the store's JSON serializer writes: the
                # model gets an error result instead of the loop crashing on the way to recall.
                note = f"<arguments nested more than {MAX_ARGUMENT_DEPTH} levels deep were dropped>"
                parts.append(ToolCallPart(id=call_id, name=name, arguments={}, raw_arguments=note))
                continue
            parts.append(_tool_call(call_id, name, arguments))
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

TOOL_TEMPLATE_FIX = (
    "start llama-server with --jinja and a chat template that renders tools "
    "(--chat-template-file scripts/chatml-tools.jinja in memgpt_lite's repository), or serve a model "
    "whose own template does"
)


def _without_tools(request: ModelRequest) -> ModelRequest:
    extra = {k: v for k, v in request.extra.items() if k != "tools"}
    return request.model_copy(update={"tools": [], "extra": extra})


def _tools_key(request: ModelRequest) -> str:
    return json.dumps(to_wire_tools(request), sort_keys=True, default=str)


def _http_url(url: str) -> bool:
    try:
        parts = urlsplit(url)
        return parts.scheme in ("http", "https") and bool(parts.hostname) and parts.port != -1
    except ValueError:  # an unclosed [IPv6 bracket, a port outside 0-65535
        return False


class _BoundedRetryClient(anthropic.Anthropic):
    """The SDK client with its wait between retries capped: it sleeps as long as `Retry-After` says
    (up to ~50 days), which neither `timeout` nor `max_retries` bounds."""

    def __init__(self, *, retry_after_cap: float = RETRY_AFTER_CAP_S, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.retry_after_cap = retry_after_cap

    def _calculate_retry_timeout(
        self, remaining_retries: int, options: Any, response_headers: Any = None
    ) -> float:
        wait = super()._calculate_retry_timeout(remaining_retries, options, response_headers)
        if not wait <= self.retry_after_cap:  # also NaN
            logger.warning(
                "model provider asked to wait {} s before retrying; waiting {:g} s (the cap)",
                wait,
                self.retry_after_cap,
            )
            return self.retry_after_cap
        return wait


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
        check_tools: bool | None = None,
    ) -> None:
        if max_retries < 0:
            raise ConfigError(f"max_retries must be >= 0, got {max_retries}")
        self.name = model or default_model_name()
        self.max_retries = max_retries
        self.timeout = timeout
        self.base_url = base_url
        self._http_client = http_client
        self.check_tools = check_tools
        """Before the first request with a set of tools, ask the server to count the prompt with and
        without them: equal counts mean its chat template drops the tools (`ServerMismatch`). None (the
        default): for a server that states its context (`stated_window()`: llama.cpp, Ollama — servers
        that render the prompt with a chat template); True: any server that counts tokens; False: never."""
        self._tools_seen: set[str] = set()
        self._stated: StatedWindow | None = None
        self._probed = False
        self._reached = http_client is not None or client is not None
        """Whether `base_url` was seen to answer (an injected transport is taken as answering)."""
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
        cap = min(RETRY_AFTER_CAP_S, timeout) if timeout else RETRY_AFTER_CAP_S
        self.retry_after_cap = cap
        self.client = _BoundedRetryClient(retry_after_cap=cap, **kwargs)

    def stated_window(self) -> StatedWindow | None:
        """The context size the server at `base_url` states (llama.cpp `/props`, Ollama); None for the
        Anthropic API or a server that states none (`memgpt_lite.llm.server_info`)."""
        if not self.base_url:
            return None
        if not self._probed:  # asked once per client: a server's context does not change while it runs
            wait = min(PROBE_TIMEOUT_S, self.timeout) if self.timeout else PROBE_TIMEOUT_S
            if self._http_client is not None:
                self._stated = stated_context_window(self._http_client, self.base_url, self.name, wait)
            else:
                with httpx2.Client() as http:
                    self._stated = stated_context_window(http, self.base_url, self.name, wait)
            self._probed = True
        return self._stated

    def check_tools_rendered(self, request: ModelRequest) -> None:
        """Raise `ServerMismatch` when the server counts the prompt of `request` the same with and without
        its tools: its chat template leaves them out, so the model could never call a function. Each set
        of tools is checked once; a server that cannot count is not checked."""
        if not (request.tools or request.extra.get("tools")):
            return
        key = _tools_key(request)
        if key in self._tools_seen:
            return
        with_tools = self.count_tokens(request)
        without = self.count_tokens(_without_tools(request)) if with_tools is not None else None
        if with_tools is None or without is None:
            logger.debug("{}: no token counts; cannot check that the tools reach the prompt", self.name)
            self._tools_seen.add(key)
            return
        if with_tools <= without:
            where = self.base_url or "the model server"
            n = len(request.tools) + len(request.extra.get("tools", []))
            raise ServerMismatch(
                f"{where} drops the tools from the prompt ({n} tools; {with_tools} input tokens with them, "
                f"{without} without), so {self.name} can never call a function: {TOOL_TEMPLATE_FIX}"
            )
        self._tools_seen.add(key)

    def request(self, request: ModelRequest) -> ModelResponse:
        if self.base_url and not self._reached:
            # once, before the first call: a dead server is one line at once, not every retry's backoff
            wait = min(CONNECT_TIMEOUT_S, self.timeout) if self.timeout else CONNECT_TIMEOUT_S
            check_reachable(self.base_url, self.name, wait)
            self._reached = True
        if self.check_tools or (self.check_tools is None and self._stated is not None):
            self.check_tools_rendered(request)
        params = build_params(request, self.name)
        if request.max_tokens > LONG_REQUEST_TOKENS:
            # The SDK refuses long non-streaming requests unless a timeout is given explicitly.
            params["timeout"] = self.timeout or 1800.0
        try:
            msg = self.client.messages.create(**params)
        except (ValueError, RecursionError, UnicodeError) as err:
            # A 200 whose body is not JSON, is cut off, or nests deeper than the parser goes.
            where = getattr(self.client, "base_url", None) or "the model provider"
            raise ModelError(
                f"{self.name}: {where} sent a reply that cannot be parsed ({type(err).__name__}: {str(err)[:200]})"
            ) from None
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
        except (AttributeError, TypeError, ValueError, KeyError, RecursionError) as err:
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
