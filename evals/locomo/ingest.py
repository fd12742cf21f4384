"""Putting a LoCoMo conversation into a fresh memgpt_lite store, through the public API only.

Each turn becomes one `user` message (both people talk to the listening agent): its text, plus a
second text part `[image: <caption>]` for image turns, `created_at` = the session's date, and in
`meta` the speaker, the dialogue id, the session number and the caption. Nothing else of the dataset
is read here (see `data.Turn`).
"""

from __future__ import annotations

from pathlib import Path

from evals.locomo.data import Conversation, Turn
from memgpt_lite.errors import UsageError
from memgpt_lite.memory import AgentMemory
from memgpt_lite.messages import Message, TextPart
from memgpt_lite.storage.embeddings import Embedder


def turn_message(turn: Turn, sample_id: str) -> Message:
    parts = [TextPart(text=turn.text)]
    meta: dict[str, object] = {
        "speaker": turn.speaker,
        "dia_id": turn.dia_id,
        "session": turn.session,
        "conversation": sample_id,
    }
    if turn.caption:
        parts.append(TextPart(text=f"[image: {turn.caption}]"))
        meta["blip_caption"] = turn.caption
    return Message(role="user", parts=parts, created_at=turn.date, meta=meta)


def ingest(
    conversation: Conversation, store_dir: str | Path, embedder: Embedder | None = None
) -> AgentMemory:
    """A new store in `store_dir` holding the conversation's turns in recall storage; returns the memory.

    The turns go straight to recall storage (`memory.recall.extend`, the same write the context
    manager makes for every message): a listener's in-context queue is irrelevant to what retrieval
    can find, and saving agent state per turn would only cost time."""
    path = Path(store_dir)
    if path.exists() and any(path.iterdir()):
        raise UsageError(f"{path} is not empty; LoCoMo ingests into a fresh store")
    memory = AgentMemory.open(path, embedder=embedder)
    memory.recall.extend(turn_message(t, conversation.sample_id) for t in conversation.turns)
    return memory
