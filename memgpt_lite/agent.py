"""The agent loop — one for every model client (Claude, a Messages-API server, a scripted test model).

One user turn: append the user message → repeat { prepare the prompt through the queue manager (which
warns and flushes before the call) → call the model → append its reply → run every tool call → append
the results } while the model asks for a heartbeat or something went wrong → yield to the user.

The user sees only what the model passes to `send_message`; any other text is inner monologue, kept in
recall storage. Model mistakes (unknown tool, bad or truncated arguments, an empty reply, a cut-off at
max_tokens, a reply or tool result too large for the context) become error results, notices or bounded
stand-ins the model reads on its next step — never a crash, and every message is appended through the
context manager (recall first, whole), so nothing is lost.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from memgpt_lite.context.oversized import omitted_calls
from memgpt_lite.context.queue import ContextEvent
from memgpt_lite.errors import ConfigError
from memgpt_lite.llm.base import Model
from memgpt_lite.log import logger
from memgpt_lite.memory import AgentMemory
from memgpt_lite.messages import (
    Message,
    ModelRequest,
    Part,
    TextPart,
    ToolCallPart,
    ToolResultPart,
    Usage,
    new_id,
)
from memgpt_lite.tools.memory_functions import register_memory_functions
from memgpt_lite.tools.registry import Tool, ToolContext, ToolRegistry, requests_heartbeat

NOTICE_KIND = "agent_notice"
TOO_MANY_CALLS_KIND = "too_many_calls_stand_in"
MAX_TOOL_CALLS_PER_REPLY = 32
"""Tool calls run from one model reply; the rest are dropped (see `Agent._append_reply`)."""
StopKind = Literal["yield", "max_steps", "max_turn_tokens", "refusal"]


class AgentConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    max_steps: int = Field(default=10, ge=1)
    """Model calls per user turn (heartbeats included)."""
    max_turn_tokens: int | None = Field(default=None, ge=1)
    """Budget of input + output tokens per user turn; the turn yields when it is spent."""
    max_tokens: int = Field(default=1024, ge=1)
    """Output tokens per model call."""
    page_size: int = Field(default=5, ge=1, le=50)
    """Results per page of the search tools."""
    require_send_message: bool = True
    """When a turn would end without any `send_message`, tell the model once that the user saw nothing."""
    temperature: float | None = None


class ToolCallRecord(BaseModel):
    name: str
    arguments: dict[str, Any]
    is_error: bool
    result: str


class TurnResult(BaseModel):
    """What one `agent.step()` produced."""

    messages: list[str] = Field(default_factory=list)
    """What the user sees: the `send_message` texts, in order."""
    steps: int = 0
    usage: Usage = Field(default_factory=Usage)
    events: list[ContextEvent] = Field(default_factory=list)
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    errors: int = 0
    """Tool calls that came back as errors, plus notices about empty or cut-off replies."""
    stopped: StopKind = "yield"

    @property
    def reply(self) -> str:
        return "\n\n".join(self.messages)


def _add_usage(a: Usage, b: Usage) -> Usage:
    return Usage(
        input_tokens=a.input_tokens + b.input_tokens,
        output_tokens=a.output_tokens + b.output_tokens,
        cache_read_tokens=a.cache_read_tokens + b.cache_read_tokens,
        cache_write_tokens=a.cache_write_tokens + b.cache_write_tokens,
    )


def _as_tool(item: Any) -> Tool | Callable[..., Any]:
    # The Claude memory tool (or any SDK builtin tool with `as_tool`) joins as a native tool.
    as_tool = getattr(item, "as_tool", None)
    if not callable(as_tool):
        return item  # type: ignore[no-any-return]  # a function or Tool, checked when registered
    tool = as_tool()
    if not isinstance(tool, Tool):
        raise ConfigError(f"{type(item).__name__}.as_tool() must return a Tool, got {type(tool).__name__}")
    return tool


class Agent:
    """A MemGPT-style agent: a model, an `AgentMemory`, and tools (the memory functions plus yours)."""

    def __init__(
        self,
        model: Model,
        memory: AgentMemory,
        tools: ToolRegistry | Iterable[Callable[..., Any] | Tool | Any] | None = None,
        config: AgentConfig | None = None,
        *,
        deps: Any = None,
        memory_functions: bool = True,
    ) -> None:
        self.model = model
        self.memory = memory
        self.config = config or AgentConfig()
        self.deps = deps
        if isinstance(tools, ToolRegistry):
            self.tools = tools
        else:
            self.tools = ToolRegistry(heartbeat=True)
            if memory_functions:
                register_memory_functions(self.tools)
            for item in tools or ():
                self.tools.register(_as_tool(item))
        if not len(self.tools):
            raise ConfigError("an agent needs at least one tool (send_message is how it talks to the user)")

    # -- one user turn -----------------------------------------------------------------------------
    def step(self, user_input: str | Message | None) -> TurnResult:
        """Handle one user message (or, with None, continue without one) and return what the user sees."""
        if user_input is not None:
            msg = Message.user(user_input) if isinstance(user_input, str) else user_input
            self.memory.append(msg)
        cfg = self.config
        result = TurnResult()
        spent = 0
        nudged = False
        while True:
            if result.steps >= cfg.max_steps:
                result.stopped = "max_steps"
                logger.warning("turn stopped after {} steps (max_steps)", result.steps)
                break
            if cfg.max_turn_tokens is not None and spent >= cfg.max_turn_tokens:
                result.stopped = "max_turn_tokens"
                logger.warning(
                    "turn stopped: {} tokens spent (max_turn_tokens={})", spent, cfg.max_turn_tokens
                )
                break
            request, prompt_tokens = self._prepare(result)
            response = self.model.request(request)
            result.steps += 1
            result.usage = _add_usage(result.usage, response.usage)
            spent += max(response.usage.input_tokens, prompt_tokens) + response.usage.output_tokens
            reply = response.message
            reply.model = reply.model or response.model or self.model.name
            reply.stop_reason = reply.stop_reason or response.stop_reason

            if not reply.parts:
                self._notice("Your last reply was empty. Reply with send_message, or call a tool.", result)
                continue
            # A reply too large for the context is kept whole in recall; its stand-in goes on from here.
            reply = self._append_reply(reply)
            failed, heartbeat, sent = self._run_calls(reply, response.stop_reason, result)

            cut_in_text = response.stop_reason == "max_tokens" and not isinstance(
                reply.parts[-1], ToolCallPart
            )
            if cut_in_text:
                self._notice(
                    f"Your last reply was cut off at the output limit ({cfg.max_tokens} tokens). "
                    "Continue more briefly.",
                    result,
                )
                continue
            if response.stop_reason == "refusal":
                result.stopped = "refusal"
                break
            if failed or heartbeat or response.stop_reason == "pause_turn":
                continue
            if cfg.require_send_message and not result.messages and not sent and not nudged:
                nudged = True
                self._notice(
                    "You ended your turn without calling send_message, so the user saw nothing. "
                    "Use send_message to reply to the user.",
                    result,
                    counts_as_error=False,
                )
                continue
            break
        return result

    # -- pieces ------------------------------------------------------------------------------------
    def _prepare(self, result: TurnResult) -> tuple[ModelRequest, int]:
        # Native tools (the Claude memory tool) are counted with a stand-in schema, then sent as their
        # provider definition in `extra["tools"]`.
        specs = [t.spec() for t in (self.tools.get(n) for n in self.tools.names) if t is not None]
        prepared = self.memory.prepare(specs, max_tokens=self.config.max_tokens)
        result.events.extend(prepared.events)
        request = prepared.request
        native = {t["name"] for t in self.tools.definitions()}
        request.tools = [s for s in request.tools if s.name not in native]
        request.extra = (
            {**request.extra, "tools": self.tools.definitions()} if native else dict(request.extra)
        )
        if self.config.temperature is not None:
            request.temperature = self.config.temperature
        return request, prepared.prompt_tokens

    def _append_reply(self, reply: Message) -> Message:
        """Append the model's reply; returns what joined the context (the calls that will run).

        A reply with more than `MAX_TOOL_CALLS_PER_REPLY` calls (a runaway model, a hostile server) is
        kept whole in recall; the context gets a stand-in with the first calls and a note saying how
        many were dropped, unrun — thousands of calls would not fit any window even emptied of their
        arguments, and running them all would be a denial of service of its own."""
        calls = reply.tool_calls
        if len(calls) <= MAX_TOOL_CALLS_PER_REPLY:
            return self.memory.append_bounded(reply)
        kept = {c.id for c in calls[:MAX_TOOL_CALLS_PER_REPLY]}
        dropped = len(calls) - MAX_TOOL_CALLS_PER_REPLY
        parts: list[Part] = [p for p in reply.parts if not isinstance(p, ToolCallPart) or p.id in kept]
        first_call = next(i for i, p in enumerate(parts) if isinstance(p, ToolCallPart))
        note = TextPart(
            text=(
                f"[{dropped} more tool calls of this reply were dropped and not run: at most "
                f"{MAX_TOOL_CALLS_PER_REPLY} calls per reply. The full reply is in recall storage under "
                f"message id {reply.id}.]"
            )
        )
        parts.insert(first_call, note)
        logger.warning("reply {} has {} tool calls; the last {} are dropped", reply.id, len(calls), dropped)
        meta = {**reply.meta, "kind": TOO_MANY_CALLS_KIND, "original_id": reply.id, "dropped_calls": dropped}
        short = Message(id=new_id(), role=reply.role, parts=parts, created_at=reply.created_at, meta=meta)
        # Recall first, whole (nothing is lost); then the stand-in through the usual bounded append.
        self.memory.recall.append(reply)
        return self.memory.append_bounded(short)

    def _run_calls(self, reply: Message, stop_reason: str, result: TurnResult) -> tuple[bool, bool, bool]:
        """Run every tool call of `reply`; append one tool-results message. Returns (failed, heartbeat, sent)."""
        calls = reply.tool_calls
        if not calls:
            return False, False, False
        # A reply cut off inside a tool call: that last call's arguments are incomplete; never run it.
        cut = stop_reason == "max_tokens" and isinstance(reply.parts[-1], ToolCallPart)
        truncated = calls[-1].id if cut else None
        too_large = omitted_calls(reply)
        results: list[ToolResultPart] = []
        failed = heartbeat = sent = False
        # block edits made by the tools are written once, with the results (see deferred_saves)
        with self.memory.deferred_saves():
            for call in calls:
                if call.id == truncated:
                    res = ToolResultPart(
                        tool_call_id=call.id,
                        name=call.name,
                        is_error=True,
                        content=(
                            f"This {call.name} call was cut off at the output limit ({self.config.max_tokens} tokens), "
                            "so its arguments are incomplete and it was not run. Call it again with shorter arguments."
                        ),
                    )
                elif call.id in too_large:
                    res = ToolResultPart(
                        tool_call_id=call.id,
                        name=call.name,
                        is_error=True,
                        content=(
                            f"This {call.name} call was not run: its arguments were too large "
                            f"({too_large[call.id]} tokens; one message may take at most "
                            f"{reply.stand_in.token_limit if reply.stand_in else '?'} tokens of the context). The full "
                            f"call is kept in recall storage (message id {reply.stand_in.original_id if reply.stand_in else '?'}). "
                            "Call it again with much smaller "
                            "arguments, e.g. split the content over several calls."
                        ),
                    )
                else:
                    ctx = ToolContext(
                        memory=self.memory, agent=self, deps=self.deps, page_size=self.config.page_size
                    )
                    res = self.tools.call(call, ctx)
                    if ctx.outbox and not res.is_error:
                        result.messages.extend(ctx.outbox)
                        sent = True
                results.append(res)
                failed |= res.is_error
                heartbeat |= requests_heartbeat(call)
                result.errors += int(res.is_error)
                result.tool_calls.append(
                    ToolCallRecord(
                        name=call.name,
                        arguments=_shown_arguments(call),
                        is_error=res.is_error,
                        result=res.content,
                    )
                )
        # An oversized result is cut in context, with a note naming the full original in recall.
        self.memory.append_bounded(Message.tool_results(*results))
        return failed, heartbeat, sent

    def _notice(self, text: str, result: TurnResult, counts_as_error: bool = True) -> None:
        self.memory.append(Message.system(text, meta={"kind": NOTICE_KIND}))
        result.errors += int(counts_as_error)


def _shown_arguments(call: ToolCallPart) -> dict[str, Any]:
    return {"_raw": call.raw_arguments} if call.raw_arguments is not None else dict(call.arguments)
