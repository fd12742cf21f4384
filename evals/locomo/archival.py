"""LoCoMo through archival storage: every turn one passage, ranked by `ArchivalStore.search`.

Recall storage is where a conversation lives; archival storage is where an agent files what it wants to
keep. Putting every turn there shows what the archival search itself (Chroma's nearest neighbours, then
the Generative-Agents score) does with the same evidence: once with the paper's weights (recency,
importance and relevance all 1) and once by relevance alone. Searching marks the returned passages as
accessed, so with recency weighted each question sees the access times earlier questions left: the
score's own feedback loop, measured as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, timedelta

from evals.locomo.data import Conversation
from evals.locomo.metrics import Scored, score_question
from memgpt_lite.memory import AgentMemory
from memgpt_lite.retrieval import ScoreWeights
from memgpt_lite.search import message_view
from memgpt_lite.storage.passages import NewPassage

VARIANTS: dict[str, ScoreWeights] = {
    "generative_agents": ScoreWeights(recency=1, importance=1, relevance=1),
    "relevance_only": ScoreWeights(recency=0, importance=0, relevance=1),
}


def ingest_archival(memory: AgentMemory, conv: Conversation) -> None:
    """One passage per turn (`speaker: text`), provenance = the turn's recall message id."""
    messages = list(memory.recall.iter_messages())
    items = [
        NewPassage(
            content=message_view(m),
            provenance=[m.id],
            meta={"dia_id": m.meta["dia_id"]},
            created_at=turn.date,
        )
        for m, turn in zip(messages, conv.turns, strict=True)
    ]
    memory.archival.insert_many(items)


def score_archival(
    memory: AgentMemory,
    conv: Conversation,
    ks: tuple[int, ...] | list[int],
    advance: Callable[[str], None],
) -> dict[str, list[Scored]]:
    depth = max(ks)
    # Questions are asked a day after the last session, one minute apart.
    now = max(t.date for t in conv.turns).astimezone(UTC) + timedelta(days=1)
    out: dict[str, list[Scored]] = {}
    for name, weights in VARIANTS.items():
        bucket: list[Scored] = []
        for i, q in enumerate(conv.questions):
            page = memory.archival.search(
                q.question, page_size=depth, weights=weights, now=now + timedelta(minutes=i)
            )
            ranked = [hit.passage.meta["dia_id"] for hit in page.items]
            bucket.append(Scored(q.category, score_question(ranked, q.evidence, ks)))
            advance(f"{conv.sample_id}: archival ({name})")
        out[name] = bucket
    return out
