"""Bounded stand-ins for messages too large for the context (a 200 KB tool call, a huge tool result).

The queue manager always keeps the latest user message and the newest call + result in context, so
one such message could make every later prompt overflow the window. Instead, the original goes to
recall storage unchanged (nothing is lost) and a stand-in that fits joins the context: oversized tool
calls keep their id and name but not their arguments (the agent does not run them and answers with an
error result), and texts and tool results are cut with a note naming the original's message id.
"""

from __future__ import annotations

import json

from memgpt_lite.messages import (
    Message,
    Part,
    StandIn,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    ToolResultPart,
    new_id,
)

from .tokens import MESSAGE_OVERHEAD, TOOL_CALL_OVERHEAD, TOOL_RESULT_OVERHEAD, TokenCounter

STAND_IN_KIND = "oversized_stand_in"
OMITTED_KEY = "_omitted"
"""The only argument a stand-in tool call keeps: why the real arguments are not in context."""
NOTE_ROOM = 80
"""Raw tokens set aside for the truncation note itself."""


def _part_tokens(counter: TokenCounter, part: Part) -> int:
    if isinstance(part, TextPart | ThinkingPart):
        return counter.count_text(part.text)
    if isinstance(part, ToolCallPart):
        args = (
            part.raw_arguments
            if part.raw_arguments is not None
            else json.dumps(part.arguments, ensure_ascii=False)
        )
        return TOOL_CALL_OVERHEAD + counter.count_text(part.name) + counter.count_text(args)
    return TOOL_RESULT_OVERHEAD + counter.count_text(part.content)


def _cut(counter: TokenCounter, text: str, budget: int) -> str:
    """The longest prefix (by a shrinking estimate) of `text` within `budget` raw tokens."""
    tokens = counter.count_text(text)
    keep = text
    while keep and tokens > budget:
        keep = keep[: int(len(keep) * max(budget, 0) / tokens * 0.95)]
        tokens = counter.count_text(keep)
    return keep


def stand_in(msg: Message, counter: TokenCounter, limit: int) -> Message:
    """A copy of `msg` (new id) within `limit` tokens (margin applied), pointing back at `msg.id`.

    Tool calls are emptied largest first, then texts and tool results are cut largest first, until
    the message fits. Its `stand_in.omitted_calls` maps each emptied call's id to its size in tokens.
    """
    raw_limit = max(int(limit / counter.safety_margin), MESSAGE_OVERHEAD + 1)
    original_tokens = counter.apply_margin(
        MESSAGE_OVERHEAD + sum(_part_tokens(counter, p) for p in msg.parts)
    )
    parts: list[Part] = list(msg.parts)
    sizes = [_part_tokens(counter, p) for p in parts]
    omitted: dict[str, int] = {}

    def total() -> int:
        return MESSAGE_OVERHEAD + sum(sizes)

    where = f"the full text is in recall storage under message id {msg.id} (conversation_search finds it)"
    for i in sorted(range(len(parts)), key=lambda i: -sizes[i]):
        part = parts[i]
        if total() <= raw_limit:
            break
        if isinstance(part, ToolCallPart):
            tokens = counter.apply_margin(sizes[i])
            omitted[part.id] = tokens
            reason = (
                f"arguments too large for the context ({tokens} tokens, limit {limit}); the call was not run. "
                f"The full call is in recall storage under message id {msg.id}."
            )
            parts[i] = ToolCallPart(id=part.id, name=part.name, arguments={OMITTED_KEY: reason})
        else:
            text = part.content if isinstance(part, ToolResultPart) else part.text
            budget = raw_limit - (total() - sizes[i]) - NOTE_ROOM
            note = (
                f"\n[… truncated: this message was {original_tokens} tokens, over the {limit}-token limit for one "
                f"message in context; {where}]"
            )
            cut = _cut(counter, text, budget) + note
            if isinstance(part, ToolResultPart):
                parts[i] = part.model_copy(update={"content": cut})
            else:
                # Cut thinking no longer matches its signature: it goes on as plain (inner) text.
                parts[i] = TextPart(text=cut)
        sizes[i] = _part_tokens(counter, parts[i])
    info = StandIn(
        original_id=msg.id, original_tokens=original_tokens, token_limit=limit, omitted_calls=omitted
    )
    return msg.model_copy(
        update={"id": new_id(), "parts": parts, "meta": {**msg.meta, "kind": STAND_IN_KIND}, "stand_in": info}
    )


def omitted_calls(msg: Message) -> dict[str, int]:
    """Tool calls of a stand-in whose arguments were too large: call id → tokens."""
    return dict(msg.stand_in.omitted_calls) if msg.stand_in is not None else {}
