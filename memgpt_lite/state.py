"""Reading and writing the persisted agent state, and the repairs that make a store left by a killed
process usable.

`state.json` in the store directory holds everything that is not a message: working-context blocks,
which messages are in context (ids into recall storage), the recursive summary, counters and the
context configuration — one `AgentState`, made and owned by the context manager
(`memgpt_lite.context.agent_state`, `ContextManager.state()`). It is rewritten atomically on every
change, so after a crash it is either the previous or the next state, never half of one.
"""

from __future__ import annotations

from pydantic import ValidationError

from memgpt_lite.context.agent_state import STATE_FORMAT, STATE_VERSION, AgentState
from memgpt_lite.errors import StoreError, format_validation_error
from memgpt_lite.messages import Message, ToolCallPart, ToolResultPart, utcnow
from memgpt_lite.storage.directory import StoreDirectory, atomic_write_json, read_json

__all__ = [
    "INTERRUPTED_KIND",
    "STATE_FORMAT",
    "STATE_VERSION",
    "AgentState",
    "interrupted_results",
    "load_state",
    "orphaned_tool_calls",
    "save_state",
]

INTERRUPTED_KIND = "interrupted_tool_call"


def load_state(store: StoreDirectory) -> AgentState | None:
    """The saved state, or None for a store that has none yet. Corrupt or foreign → `StoreError`."""
    data = read_json(store.state_path, default=None)
    if data is None:
        return None
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        raise StoreError(
            f"{store.state_path} is not a memgpt_lite agent state (format is not {STATE_FORMAT!r})"
        )
    version = data.get("format_version")
    if isinstance(version, int) and version > STATE_VERSION:
        raise StoreError(
            f"{store.state_path} has agent-state format {version}; this memgpt_lite reads up to {STATE_VERSION}"
        )
    try:
        return AgentState.model_validate(data)
    except ValidationError as e:
        raise StoreError(
            f"{store.state_path} is corrupt: {format_validation_error(e, every=False)} "
            f"({e.error_count()} problem(s))"
        ) from e


def save_state(store: StoreDirectory, state: AgentState) -> None:
    state.updated_at = utcnow()
    atomic_write_json(store.state_path, state.model_dump(mode="json"))


def orphaned_tool_calls(messages: list[Message]) -> list[tuple[str, list[ToolCallPart]]]:
    """Assistant tool calls whose results are not in the tool messages right after them.

    Returns (id of the message to insert the repair after, calls missing a result), oldest first.
    """
    out: list[tuple[str, list[ToolCallPart]]] = []
    for i, msg in enumerate(messages):
        if msg.role != "assistant" or not msg.tool_calls:
            continue
        answered: set[str] = set()
        anchor = msg.id
        j = i + 1
        while j < len(messages) and messages[j].role == "tool":
            answered |= {r.tool_call_id for r in messages[j].tool_results_parts}
            anchor = messages[j].id
            j += 1
        missing = [c for c in msg.tool_calls if c.id not in answered]
        if missing:
            out.append((anchor, missing))
    return out


def interrupted_results(calls: list[ToolCallPart]) -> Message:
    """The error results that close tool calls a killed process never finished."""
    return Message.tool_results(
        *[
            ToolResultPart(
                tool_call_id=c.id,
                name=c.name,
                is_error=True,
                content=(
                    f"Interrupted: the agent process stopped before {c.name} returned, so its result is unknown "
                    "and it may or may not have taken effect. Check before repeating it."
                ),
            )
            for c in calls
        ],
        meta={"kind": INTERRUPTED_KIND},
    )
