"""The texts the retriever indexes: a message as `speaker: text`, and windows of neighbouring messages.

The speaker is part of what is embedded because questions name people ("what did Melanie paint?") and
the same words said by the other person are a different fact. Windows stay inside one session: a
conversation resumed days later is not context for the last thing said before the pause.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memgpt_lite.messages import Message

SEARCH_TOOLS = frozenset({"conversation_search", "conversation_search_date", "archival_memory_search"})
"""The memory tools that search (names fixed in docs/contracts.md)."""


def indexed(msg: Message) -> bool:
    """Whether a message takes part in search: it has text and is not the agent's own searching.

    A search call repeats its query and its result repeats earlier hits; indexed, every search would
    find more of itself, and the windows around it would all match the query they echo."""
    if not msg.text.strip():
        return False
    if msg.role == "tool":
        results = msg.tool_results_parts
        return not (results and all(r.name in SEARCH_TOOLS for r in results))
    if msg.role == "assistant":
        calls = msg.tool_calls
        return not (calls and all(c.name in SEARCH_TOOLS for c in calls))
    return True


def speaker_of(msg: Message) -> str:
    speaker = msg.meta.get("speaker")
    return str(speaker) if speaker else ""


def message_view(msg: Message) -> str:
    """What is embedded for one message."""
    text = msg.text.strip()
    speaker = speaker_of(msg)
    return f"{speaker}: {text}" if speaker else text


def named_speakers(query: str, speakers: Sequence[str]) -> list[str]:
    """The known speakers a query names (as whole words, any case), in order of first mention."""
    found: list[tuple[int, str]] = []
    for s in set(speakers):
        if not s:
            continue
        m = re.search(rf"(?<!\w){re.escape(s)}(?!\w)", query, flags=re.IGNORECASE)
        if m:
            found.append((m.start(), s))
    return [s for _, s in sorted(found)]


def segments(times: Sequence[float], gap_seconds: float) -> list[int]:
    """A session number per item (items in stored order): a new one after each pause over `gap_seconds`.

    A message stored earlier than the one before it (out-of-order import) also starts a session, so a
    window never joins messages that were not said together."""
    out: list[int] = []
    seg = 0
    for i, t in enumerate(times):
        if i and (t - times[i - 1] > gap_seconds or t < times[i - 1]):
            seg += 1
        out.append(seg)
    return out


def window_bounds(segs: Sequence[int], i: int, radius: int) -> tuple[int, int]:
    """The half-open range of items in item `i`'s window."""
    lo = i
    while lo > 0 and i - lo < radius and segs[lo - 1] == segs[i]:
        lo -= 1
    hi = i + 1
    while hi < len(segs) and hi - i <= radius and segs[hi] == segs[i]:
        hi += 1
    return lo, hi
