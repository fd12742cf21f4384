"""Recursive summarizers: new summary = summarize(previous summary + evicted messages).

`DeterministicSummarizer` is for tests and the demo: reproducible, no model. `LLMSummarizer` asks a
`Model`, in chunks when its input would be too large. A summarizer may raise; the queue manager then
keeps the previous summary plus a note, and nothing is lost because evicted messages are already in
recall storage.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from memgpt_lite.errors import ConfigError, ModelError
from memgpt_lite.llm.base import Model
from memgpt_lite.messages import Message, ModelRequest

from .tokens import TokenCounter

PRESSURE_KIND = "memory_pressure"
"""`meta["kind"]` of the queue manager's memory-pressure notices: no conversation content to summarize."""


def _content(messages: list[Message]) -> list[Message]:
    return [m for m in messages if m.meta.get("kind") != PRESSURE_KIND]


@runtime_checkable
class Summarizer(Protocol):
    def summarize(self, previous_summary: str, messages: list[Message]) -> str:
        """The new summary covering `previous_summary` and then `messages` (oldest first)."""
        ...


def _one_line(msg: Message) -> str:
    return " ".join(msg.text.split())


def _speaker(msg: Message) -> str:
    if msg.role == "assistant" and msg.tool_calls:
        return "assistant(tool call)"
    return msg.role


class DeterministicSummarizer:
    """Keeps the previous summary's lines, then adds one compressed line per evicted message.

    Each new line is `[YYYY-MM-DD HH:MM] role: text`, cut to `line_chars`. The summary is bounded to
    `max_chars` by dropping its oldest lines, so the old summary's content survives as long as it fits
    (newest context is worth more than oldest; the dropped lines' originals stay in recall storage).
    """

    def __init__(self, max_chars: int = 1200, line_chars: int = 100) -> None:
        if line_chars < 20 or max_chars < line_chars:
            raise ConfigError(f"need 20 <= line_chars <= max_chars, got {line_chars=} {max_chars=}")
        self.max_chars = max_chars
        self.line_chars = line_chars

    @property
    def max_summary_tokens(self) -> int:
        """Size hint for the queue manager: timestamped lines run at ~2.5 characters per token."""
        return int(self.max_chars / 2.5)

    def line(self, msg: Message) -> str:
        text = _one_line(msg)
        head = f"[{msg.created_at:%Y-%m-%d %H:%M}] {_speaker(msg)}: "
        room = max(self.line_chars - len(head), 10)
        if len(text) > room:
            text = text[: room - 1] + "…"
        return head + text

    def summarize(self, previous_summary: str, messages: list[Message]) -> str:
        lines = [ln for ln in previous_summary.splitlines() if ln.strip()]
        lines += [self.line(m) for m in _content(messages)]
        while lines and len("\n".join(lines)) > self.max_chars:
            lines.pop(0)
        return "\n".join(lines)


SUMMARY_INSTRUCTIONS = (
    "You maintain the running summary of a conversation whose oldest messages are being moved out of "
    "the context window. You get the previous summary and the next messages. Write a new summary that "
    "keeps every still-relevant fact from the previous summary and adds what matters from the new "
    "messages: decisions, facts about the user and the task, open questions, tool outcomes, dates. "
    "Be terse; plain text; no preamble. Stay under {max_words} words."
)


class LLMSummarizer:
    """Summarizes with a model. When summary + messages exceed `max_input_tokens` it folds the messages
    in chunks (each chunk summarized together with the summary so far), so any backlog fits.
    """

    def __init__(
        self,
        model: Model,
        max_input_tokens: int = 8000,
        *,
        max_summary_tokens: int = 600,
        counter: TokenCounter | None = None,
        max_message_chars: int = 4000,
    ) -> None:
        if max_input_tokens < 4 * max_summary_tokens:
            raise ConfigError(
                f"max_input_tokens ({max_input_tokens}) must be at least 4x max_summary_tokens ({max_summary_tokens})"
            )
        self.model = model
        self.max_input_tokens = max_input_tokens
        self.max_summary_tokens = max_summary_tokens
        self.counter = counter or TokenCounter()
        self.max_message_chars = max_message_chars
        self.calls = 0

    def _render(self, msg: Message) -> str:
        text = msg.text
        if len(text) > self.max_message_chars:
            # One huge message (a page dump) must not make a chunk impossible; its full text stays in recall.
            text = text[: self.max_message_chars] + f" …[{len(msg.text) - self.max_message_chars} chars cut]"
        return f"[{msg.created_at:%Y-%m-%d %H:%M}] {_speaker(msg)}: {text}"

    def _chunks(self, previous_summary: str, lines: list[str]) -> list[list[str]]:
        # Budget: what the previous/running summary can occupy + instructions; the rest is for messages.
        budget = self.max_input_tokens - self.max_summary_tokens - 200
        budget -= max(0, self.counter.count_text(previous_summary) - self.max_summary_tokens)
        budget = max(budget, self.max_input_tokens // 4)
        budget = int(budget / self.counter.safety_margin)  # the budget is in provider tokens; counts are raw
        chunks: list[list[str]] = [[]]
        used = 0
        for line in lines:
            n = self.counter.count_text(line) + 4
            if chunks[-1] and used + n > budget:
                chunks.append([])
                used = 0
            chunks[-1].append(line)
            used += n
        return [c for c in chunks if c]

    def _call(self, summary: str, lines: list[str]) -> str:
        prompt = (
            f"<previous_summary>\n{summary or '(none)'}\n</previous_summary>\n"
            f"<messages>\n" + "\n".join(lines) + "\n</messages>"
        )
        request = ModelRequest(
            system=SUMMARY_INSTRUCTIONS.format(max_words=int(self.max_summary_tokens * 0.7)),
            messages=[Message.user(prompt)],
            max_tokens=self.max_summary_tokens,
            temperature=0.0,
        )
        self.calls += 1
        response = self.model.request(request)
        text = response.message.text.strip()
        if not text:
            raise ModelError("summarizer model returned an empty summary")
        return text

    def summarize(self, previous_summary: str, messages: list[Message]) -> str:
        messages = _content(messages)
        if not messages:
            return previous_summary
        summary = previous_summary
        for chunk in self._chunks(previous_summary, [self._render(m) for m in messages]):
            summary = self._call(summary, chunk)
        return summary
