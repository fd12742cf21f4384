"""Typed message parts: the only message model the framework speaks.

Wire formats (Anthropic JSON, etc.) are produced and parsed at the edge, in `memgpt_lite.llm` adapters.
Everything else — context manager, storage, tools, agent loop — uses these types.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Role = Literal["system", "user", "assistant", "tool"]
"""`tool` messages carry tool results back to the model (Anthropic puts them in a user turn)."""


def new_id(prefix: str = "msg") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:16]}"


def utcnow() -> datetime:
    return datetime.now(UTC)


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TextPart(_Part):
    kind: Literal["text"] = "text"
    text: str


class ThinkingPart(_Part):
    """Inner monologue: kept in recall storage, never shown to the user."""

    kind: Literal["thinking"] = "thinking"
    text: str
    signature: str | None = None


class ToolCallPart(_Part):
    kind: Literal["tool_call"] = "tool_call"
    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    raw_arguments: str | None = None
    """Set when the model sent arguments that were not valid JSON; `arguments` is then empty."""


class ToolResultPart(_Part):
    kind: Literal["tool_result"] = "tool_result"
    tool_call_id: str
    name: str = ""
    content: str
    is_error: bool = False


Part = Annotated[TextPart | ThinkingPart | ToolCallPart | ToolResultPart, Field(discriminator="kind")]

ROLE_PARTS: dict[str, tuple[type[_Part], ...]] = {
    "system": (TextPart,),
    "user": (TextPart,),
    "assistant": (TextPart, ThinkingPart, ToolCallPart),
    "tool": (ToolResultPart,),
}
"""Which parts each role may carry: only the model calls tools, only tool messages answer them."""

StopReason = Literal["end_turn", "tool_use", "max_tokens", "stop_sequence", "refusal", "pause_turn", "error"]


class StandIn(BaseModel):
    """Marks a bounded stand-in for a message too large for the context (the original is in recall)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    original_id: str
    original_tokens: int
    token_limit: int
    """Most tokens one message may take in the context when the stand-in was made."""
    omitted_calls: dict[str, int] = Field(default_factory=dict)
    """Tool calls whose arguments were emptied (id → their size in tokens): they are not run."""


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(default_factory=new_id)
    role: Role
    parts: list[Part]
    created_at: datetime = Field(default_factory=utcnow)
    meta: dict[str, Any] = Field(default_factory=dict)
    """Free metadata (speaker, dialogue id, kind of system notice, ...). Searchable fields live in storage."""
    model: str | None = None
    """The model that wrote this (assistant) message, as the provider named it."""
    stop_reason: StopReason | None = None
    """Why the model stopped writing this message."""
    stand_in: StandIn | None = None

    @model_validator(mode="after")
    def _parts_fit_the_role(self) -> Message:
        allowed = ROLE_PARTS[self.role]
        for p in self.parts:
            if not isinstance(p, allowed):
                kinds = ", ".join(t.model_fields["kind"].default for t in allowed)
                raise ValueError(f"a {self.role} message cannot carry a {p.kind} part (only {kinds})")
        return self

    # -- constructors -------------------------------------------------------------------------------
    @classmethod
    def system(cls, text: str, **kw: Any) -> Message:
        return cls(role="system", parts=[TextPart(text=text)], **kw)

    @classmethod
    def user(cls, text: str, **kw: Any) -> Message:
        return cls(role="user", parts=[TextPart(text=text)], **kw)

    @classmethod
    def assistant(cls, *parts: TextPart | ThinkingPart | ToolCallPart, **kw: Any) -> Message:
        return cls(role="assistant", parts=list(parts), **kw)

    @classmethod
    def tool_results(cls, *results: ToolResultPart, **kw: Any) -> Message:
        return cls(role="tool", parts=list(results), **kw)

    # -- views --------------------------------------------------------------------------------------
    @property
    def text(self) -> str:
        """Plain text of the message, as indexed for search and shown in summaries."""
        out: list[str] = []
        for p in self.parts:
            if isinstance(p, TextPart | ThinkingPart):
                out.append(p.text)
            elif isinstance(p, ToolCallPart):
                args = (
                    p.raw_arguments
                    if p.raw_arguments is not None
                    else json.dumps(p.arguments, ensure_ascii=False)
                )
                out.append(f"{p.name}({args})")
            elif isinstance(p, ToolResultPart):
                out.append(p.content)
        return "\n".join(out)

    @property
    def tool_calls(self) -> list[ToolCallPart]:
        return [p for p in self.parts if isinstance(p, ToolCallPart)]

    @property
    def tool_results_parts(self) -> list[ToolResultPart]:
        return [p for p in self.parts if isinstance(p, ToolResultPart)]


class Usage(BaseModel):
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0


class ModelResponse(BaseModel):
    """What a model returned for one request, in our types."""

    message: Message
    stop_reason: StopReason = "end_turn"
    usage: Usage = Field(default_factory=Usage)
    model: str = ""


class ToolSpec(BaseModel):
    """A tool as the model sees it: name, description and JSON schema of its input."""

    name: str
    description: str
    input_schema: dict[str, Any]


class ModelRequest(BaseModel):
    """Everything one model call sends. Token counting and adapters read exactly this."""

    system: str
    messages: list[Message]
    tools: list[ToolSpec] = Field(default_factory=list)
    max_tokens: int = 1024
    temperature: float | None = None
    extra: dict[str, Any] = Field(default_factory=dict)
    """Client-specific pass-through (e.g. Anthropic server tools such as the memory tool definition)."""
