"""The queue manager: what goes into each request, and warning/flushing *before* the call.

The main context is system instructions + working context (in `request.system`) + a FIFO queue of
messages that starts with the recursive summary. `prepare()` counts the full request it is about to
send; at the warning threshold it inserts one memory-pressure notice per pressure period, and at the
flush threshold it evicts the oldest messages (tool calls together with their results; never the latest
user message or the newest exchange) until the prompt is at most `evict_to` of the window, folding them
into a new recursive summary. Every message is written to recall storage before it joins the queue, so
eviction — even with a failing summarizer — loses nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from memgpt_lite.errors import ConfigError, ContextWindowExceeded, UsageError
from memgpt_lite.llm.base import Model
from memgpt_lite.log import logger
from memgpt_lite.messages import Message, ModelRequest, ToolSpec, utcnow

from .agent_state import AgentState
from .blocks import WorkingContext
from .config import ContextConfig
from .oversized import stand_in
from .summarizer import PRESSURE_KIND, Summarizer
from .tokens import REQUEST_OVERHEAD, TokenCounter

__all__ = [
    "ContextConfig",
    "ContextEvent",
    "ContextManager",
    "PreparedPrompt",
    "pressure_notice",
    "tool_units",
]

SUMMARY_KIND = "recursive_summary"
FAILURE_NOTE_PREFIX = "[note "
SUMMARY_HEADER = (
    "Summary of the earlier conversation (recursive; the original messages are in recall storage — "
    "use conversation_search to read them):"
)


class ContextEvent(BaseModel):
    type: Literal["memory_pressure_warning", "flush"]
    prompt_tokens_before: int
    prompt_tokens_after: int
    evicted_messages: int = 0
    evicted_ids: list[str] = Field(default_factory=list)
    summary_failed: bool = False


class PreparedPrompt(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    request: ModelRequest
    prompt_tokens: int
    events: list[ContextEvent] = Field(default_factory=list)


class MessageStore(Protocol):
    """What the queue manager needs from recall storage."""

    def append(self, msg: Message) -> None: ...


def pressure_notice(pressure: float) -> Message:
    text = (
        f"[memory pressure] The context window is {pressure:.0%} full. Older messages will soon be moved "
        "out of the context (they stay searchable with conversation_search). Save anything important now: "
        "core_memory_append / core_memory_replace for facts you need every turn, archival_memory_insert "
        "for the rest."
    )
    return Message.system(text, meta={"kind": PRESSURE_KIND})


def tool_units(messages: list[Message]) -> list[list[Message]]:
    """Group messages into eviction units: an assistant message with tool calls plus the tool-result
    messages that follow it form one unit, so a call is never separated from its result."""
    units: list[list[Message]] = []
    i, n = 0, len(messages)
    while i < n:
        unit = [messages[i]]
        i += 1
        if unit[0].role == "assistant" and unit[0].tool_calls:
            while i < n and messages[i].role == "tool":
                unit.append(messages[i])
                i += 1
        units.append(unit)
    return units


class ContextManager:
    """Owns the in-context queue, the recursive summary and the persisted agent state of one agent.

    The state (`AgentState`, `state()`) is one typed object made from what this manager holds; every
    change hands it to `on_change` (the owner's writer: `AgentMemory` writes `state.json`), once per
    appended message. `extra` and `embedder` are carried for the owner (application data and the name
    of the embedder archival storage was opened with) so that they are written with the rest."""

    def __init__(
        self,
        store: MessageStore,
        counter: TokenCounter,
        summarizer: Summarizer,
        config: ContextConfig,
        system_prompt: str,
        *,
        working_context: WorkingContext | None = None,
        messages: list[Message] | None = None,
        summary: str = "",
        summary_at: datetime | None = None,
        warned: bool = False,
        counters: dict[str, int] | None = None,
        model: Model | None = None,
        on_change: Callable[[AgentState], None] | None = None,
        extra: dict[str, Any] | None = None,
        embedder: str | None = None,
    ) -> None:
        self.store = store
        self.counter = counter
        self.summarizer = summarizer
        self.config = config
        self.system_prompt = system_prompt
        self.working_context = working_context or WorkingContext()
        self.model = model
        self.on_change = on_change
        self.extra: dict[str, Any] = extra if extra is not None else {}
        """Application data that must survive with the agent (e.g. the demo's turn number)."""
        self.embedder = embedder
        """Name of the embedder archival storage was opened with (None: not opened yet)."""
        self.warned = warned
        self.counters: dict[str, int] = {
            "appended": 0,
            "prepares": 0,
            "warnings": 0,
            "flushes": 0,
            "evicted_total": 0,
            "summary_failures": 0,
        }
        self.counters.update(counters or {})
        self.pending_ids: list[str] = []
        self.last_tools_tokens = 0
        """Raw tokens of the tool schemas sent by the last `prepare` (for reports made without the tools)."""
        self._queue: list[Message] = list(messages or [])
        self._queue_raw = sum(counter.count_message(m) for m in self._queue)
        self._ids = {m.id for m in self._queue}
        self._summary = ""
        self._summary_msg: Message | None = None
        self._summary_raw = 0
        self.summary_at: datetime | None = None
        self._set_summary(summary, summary_at)

    # -- views --------------------------------------------------------------------------------------
    @property
    def in_context(self) -> list[Message]:
        """The queue after the summary, oldest first (a copy)."""
        return list(self._queue)

    @property
    def summary(self) -> str:
        return self._summary

    def system_text(self) -> str:
        wc = self.working_context.render()
        return f"{self.system_prompt}\n\n{wc}" if wc else self.system_prompt

    def request_messages(self) -> list[Message]:
        return [self._summary_msg, *self._queue] if self._summary_msg else list(self._queue)

    def build_request(self, tools: list[ToolSpec] | None = None, max_tokens: int = 1024) -> ModelRequest:
        # model_construct: the parts are already validated Messages; revalidating 100s costs more than counting.
        return ModelRequest.model_construct(
            system=self.system_text(),
            messages=self.request_messages(),
            tools=list(tools or []),
            max_tokens=max_tokens,
            temperature=None,
            extra={},
        )

    def _fixed_raw(self, tools_raw: int) -> int:
        return REQUEST_OVERHEAD + self.counter.count_text_cached(self.system_text()) + tools_raw

    def _prompt_tokens(self, tools_raw: int) -> int:
        return self.counter.apply_margin(self._fixed_raw(tools_raw) + self._summary_raw + self._queue_raw)

    def prompt_tokens(self, tools: list[ToolSpec] | None = None) -> int:
        """Estimated tokens of the request `prepare` would send now (incremental: cached counts)."""
        return self._prompt_tokens(self.counter.count_tools(list(tools or [])))

    def pressure(self, tools: list[ToolSpec] | None = None) -> float:
        return self.prompt_tokens(tools) / self.config.context_window

    def state(self) -> AgentState:
        """The persisted agent state: everything needed to resume exactly, apart from the messages."""
        return AgentState(
            config=self.config,
            system_prompt=self.system_prompt,
            blocks=self.working_context.blocks,
            in_context_ids=[m.id for m in self._queue],
            pending_ids=list(self.pending_ids),
            summary=self._summary,
            summary_at=self.summary_at,
            warned=self.warned,
            counters=dict(self.counters),
            last_tools_tokens=self.last_tools_tokens,
            token_encoding=self.counter.encoding_name,
            embedder=self.embedder,
            safety_margin=self.counter.safety_margin,
            extra=self.extra,
        )

    # -- mutation -----------------------------------------------------------------------------------
    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.state())

    def _set_summary(self, summary: str, at: datetime | None = None) -> None:
        self._summary = summary
        self.summary_at = (at or utcnow()) if summary else None
        if summary:
            digest = hashlib.sha1(summary.encode()).hexdigest()[:16]
            self._summary_msg = Message.system(
                f"{SUMMARY_HEADER}\n{summary}",
                id=f"summary-{digest}",
                created_at=self.summary_at,
                meta={"kind": SUMMARY_KIND},
            )
            self._summary_raw = self.counter.count_message(self._summary_msg)
        else:
            self._summary_msg = None
            self._summary_raw = 0

    def append(self, msg: Message) -> None:
        """Write `msg` to recall storage, then add it to the in-context queue.

        `on_change` runs once, with the id listed in `pending_ids`, before the recall write: the state on
        disk then names the message as pending, which is all a resume needs (it re-adds a pending message
        that recall has, and drops one it does not), so nothing is written after. The next change's
        write records the message as in context.
        """
        if msg.id in self._ids or msg.id in self.pending_ids:
            raise UsageError(f"message {msg.id} is already in the context; append each message once")
        self.pending_ids.append(msg.id)
        try:
            self._changed()
            self.store.append(msg)
        finally:
            self.pending_ids.remove(msg.id)
        self._queue.append(msg)
        self._ids.add(msg.id)
        self._queue_raw += self.counter.count_message(msg)
        self.counters["appended"] += 1

    def message_limit(self) -> int:
        """Most tokens (margin applied) one model message or tool result may take in context.

        A turn keeps the latest user message and the newest tool call + result in context whatever
        the pressure, so each gets at most a third of what the window leaves for messages after the
        system prompt, working context, tool schemas (as of the last `prepare`) and the summary.
        """
        reserve = max(self._summary_raw, getattr(self.summarizer, "max_summary_tokens", 0))
        fixed = self.counter.apply_margin(self._fixed_raw(self.last_tools_tokens) + reserve)
        return max((int(self.config.flush * self.config.context_window) - fixed) // 3, 1)

    def append_bounded(self, msg: Message) -> Message:
        """`append`, except that a message over `message_limit()` is kept whole in recall storage only and a
        bounded stand-in (see `oversized.stand_in`) joins the context. Returns what joined the context."""
        if msg.id in self._ids or msg.id in self.pending_ids:
            raise UsageError(f"message {msg.id} is already in the context; append each message once")
        limit = self.message_limit()
        if self.counter.apply_margin(self.counter.count_message(msg)) <= limit:
            self.append(msg)
            return msg
        self.counter.forget([msg.id])
        short = stand_in(msg, self.counter, limit)
        logger.warning(
            "message {} over the {}-token limit: whole in recall, stand-in {}", msg.id, limit, short.id
        )
        # Recall only, not via `append`: a crash before the stand-in lands must not bring it into context.
        self.store.append(msg)
        self.append(short)
        return short

    def insert_after(self, anchor_id: str, msg: Message) -> None:
        """Insert `msg` right after the in-context message `anchor_id` (used to repair orphaned tool calls)."""
        index = next((i for i, m in enumerate(self._queue) if m.id == anchor_id), None)
        if index is None:
            raise ConfigError(f"message {anchor_id!r} is not in context")
        self.store.append(msg)
        self._queue.insert(index + 1, msg)
        self._ids.add(msg.id)
        self._queue_raw += self.counter.count_message(msg)
        self.counters["appended"] += 1
        self._changed()

    def prepare(self, tools: list[ToolSpec] | None = None, max_tokens: int = 1024) -> PreparedPrompt:
        """The request to send next, after warning/flushing as the thresholds demand."""
        tools = list(tools or [])
        tools_raw = self.last_tools_tokens = self.counter.count_tools(tools)
        cfg = self.config
        window = cfg.context_window
        if cfg.provider_counts and self.model is not None:
            self.counter.calibrate(self.model, self.build_request(tools, max_tokens), headroom=1.0)
        self.counters["prepares"] += 1
        events: list[ContextEvent] = []
        tokens = self._prompt_tokens(tools_raw)
        if tokens >= cfg.flush * window:
            events.append(self._flush(tools_raw, tokens))
        elif tokens >= cfg.warning * window and not self.warned:
            self.append(pressure_notice(tokens / window))
            self.warned = True
            self.counters["warnings"] += 1
            after = self._prompt_tokens(tools_raw)
            events.append(
                ContextEvent(
                    type="memory_pressure_warning", prompt_tokens_before=tokens, prompt_tokens_after=after
                )
            )
            if after >= cfg.flush * window:
                events.append(self._flush(tools_raw, after))
        tokens = self._prompt_tokens(tools_raw)
        if tokens > window:
            raise ContextWindowExceeded(self._overflow_message(tokens, tools_raw))
        if events:
            self._changed()
        return PreparedPrompt(
            request=self.build_request(tools, max_tokens), prompt_tokens=tokens, events=events
        )

    def _overflow_message(self, tokens: int, tools_raw: int) -> str:
        fixed = self.counter.apply_margin(self._fixed_raw(tools_raw))
        return (
            f"the prompt needs {tokens} tokens but the context window is {self.config.context_window}, and nothing "
            f"more can be evicted (system + working context + tool schemas = {fixed} tokens; the rest is the latest "
            "user message and the newest exchange). Use a larger context_window or a shorter system prompt, "
            "smaller blocks or fewer tools."
        )

    def _protected(self, units: list[list[Message]]) -> set[int]:
        """Unit indexes that must stay: the newest unit and the one holding the latest user message."""
        keep = {len(units) - 1} if units else set()
        for i in range(len(units) - 1, -1, -1):
            if any(m.role == "user" for m in units[i]):
                keep.add(i)
                break
        return keep

    def _flush(self, tools_raw: int, before: int) -> ContextEvent:
        cfg = self.config
        target = cfg.evict_to * cfg.context_window
        fixed_raw = self._fixed_raw(tools_raw)
        evicted: list[Message] = []
        previous_summary = self._summary
        failure: Exception | None = None
        while True:
            units = tool_units(self._queue)
            keep = self._protected(units)
            candidates = [u for i, u in enumerate(units) if i not in keep]
            round_out: list[Message] = []
            remaining = self._queue_raw
            # Leave room for the new summary up front (its size hint), so one summarizer call usually does.
            summary_raw = max(
                self._summary_raw, getattr(self.summarizer, "max_summary_tokens", 0) if not evicted else 0
            )
            for unit in candidates:
                if self.counter.apply_margin(fixed_raw + summary_raw + remaining) <= target:
                    break
                round_out += unit
                remaining -= sum(self.counter.count_message(m) for m in unit)
            if not round_out:
                break
            self._evict(round_out)
            evicted += round_out
            if failure is None:
                try:
                    self._set_summary(self.summarizer.summarize(self._summary, round_out))
                except Exception as exc:  # any summarizer failure: the messages are safe in recall
                    failure = exc
            if failure is not None:
                # One note for the whole flush, on top of the summary as it was before it.
                self._set_summary(self._failure_note(previous_summary, evicted, failure))
            if self._prompt_tokens(tools_raw) <= target:
                break
        if failure is not None:
            self.counters["summary_failures"] += 1
            logger.warning("summarizer failed ({}); kept the previous summary plus a note", failure)
        after = self._prompt_tokens(tools_raw)
        if after > target:
            logger.warning("flush left the prompt at {} tokens, above the {} target", after, int(target))
        self.warned = False
        self.counters["flushes"] += 1
        self.counters["evicted_total"] += len(evicted)
        logger.info("flush: {} -> {} tokens, {} messages evicted", before, after, len(evicted))
        return ContextEvent(
            type="flush",
            prompt_tokens_before=before,
            prompt_tokens_after=after,
            evicted_messages=len(evicted),
            evicted_ids=[m.id for m in evicted],
            summary_failed=failure is not None,
        )

    def _evict(self, messages: list[Message]) -> None:
        gone = {m.id for m in messages}
        self._queue = [m for m in self._queue if m.id not in gone]
        self._ids -= gone
        self._queue_raw -= sum(self.counter.count_message(m) for m in messages)
        self.counter.forget(list(gone))

    @staticmethod
    def _failure_note(previous_summary: str, evicted: list[Message], exc: Exception) -> str:
        first, last = evicted[0].created_at, evicted[-1].created_at
        note = (
            f"{FAILURE_NOTE_PREFIX}{utcnow():%Y-%m-%d %H:%M}: {len(evicted)} messages from {first:%Y-%m-%d %H:%M} to "
            f"{last:%Y-%m-%d %H:%M} left the context without a summary ({type(exc).__name__}); "
            "they are in recall storage — use conversation_search or conversation_search_date]"
        )
        # Repeated failures must not grow the summary without bound: keep the three newest notes.
        lines = previous_summary.splitlines()
        notes = [i for i, ln in enumerate(lines) if ln.startswith(FAILURE_NOTE_PREFIX)]
        drop = set(notes[:-2])
        kept = [ln for i, ln in enumerate(lines) if i not in drop]
        return "\n".join([*kept, note])
