"""LoCoMo through archival storage: every turn one passage, ranked by `ArchivalStore.search`.

Recall storage is where a conversation lives; archival storage is where an agent files what it wants to
keep. Putting every turn there shows what the archival search itself does with the same evidence: its
candidates (nearest by meaning, and best bm25 matches of the words), relevance (the two fused), and the
Generative-Agents score (recency · importance · relevance) under several weightings.

Searching marks the returned page as accessed, so with recency weighted each question sees the access
times earlier questions left: the score's own feedback loop, measured as it is. So that one variant's
accesses cannot steer another's ranking, each variant gets its own store (same vectors, embedded once).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from evals.locomo.data import Conversation
from evals.locomo.metrics import Scored, score_question
from memgpt_lite.memory import AgentMemory
from memgpt_lite.retrieval import EVIDENCE_WEIGHTS, ScoreWeights
from memgpt_lite.search import message_view
from memgpt_lite.storage.archival import ArchivalStore
from memgpt_lite.storage.passages import NewPassage

GA = ScoreWeights(recency=1, importance=1, relevance=1)
RELEVANCE = ScoreWeights(recency=0, importance=0, relevance=1)

VARIANTS: dict[str, tuple[ScoreWeights, float]] = {
    # name: (Generative-Agents weights, lexical weight in relevance; 0 = meaning only, as before)
    "dense_generative_agents": (GA, 0.0),
    "dense_relevance_only": (RELEVANCE, 0.0),
    "generative_agents": (GA, 1.0),
    "relevance_only": (RELEVANCE, 1.0),
    "evidence_preset": (EVIDENCE_WEIGHTS, 1.0),
}
"""`generative_agents` is `ArchivalStore.search` as shipped (default weights, hybrid relevance): it runs
on the memory's own archival storage, filled through the public API by `ingest_archival`."""
SHIPPED = "generative_agents"


def _items(memory: AgentMemory, conv: Conversation) -> list[NewPassage]:
    """One passage per turn (`speaker: text`), provenance = the turn's recall message id."""
    messages = list(memory.recall.iter_messages())
    return [
        NewPassage(
            content=message_view(m),
            provenance=[m.id],
            meta={"dia_id": m.meta["dia_id"]},
            created_at=turn.date,
        )
        for m, turn in zip(messages, conv.turns, strict=True)
    ]


def ingest_archival(memory: AgentMemory, conv: Conversation) -> None:
    """The turns into the memory's own archival storage, through the public API."""
    memory.archival.insert_many(_items(memory, conv))


def score_archival(
    memory: AgentMemory,
    conv: Conversation,
    ks: Sequence[int],
    advance: Callable[[str], None],
    variants: dict[str, tuple[ScoreWeights, float]] | None = None,
) -> dict[str, list[Scored]]:
    depth = max(ks)
    # Questions are asked a day after the last session, one minute apart.
    now = max(t.date for t in conv.turns).astimezone(UTC) + timedelta(days=1)
    items = _items(memory, conv)
    embedder = memory.archival.embedder
    vectors = None
    out: dict[str, list[Scored]] = {}
    for name, (weights, lexical) in (variants or VARIANTS).items():
        if name == SHIPPED and lexical == memory.archival.lexical_weight:
            out[name] = _ask(memory.archival, conv, depth, ks, weights, now, advance, name)
            continue
        if vectors is None:
            vectors = embedder.embed([i.content for i in items])
        path = Path(memory.store.path) / "locomo-archival" / name
        with ArchivalStore(path, embedder, lexical_weight=lexical) as store:
            store.insert_many(items, embeddings=vectors)
            out[name] = _ask(store, conv, depth, ks, weights, now, advance, name)
    return out


def _ask(
    store: ArchivalStore,
    conv: Conversation,
    depth: int,
    ks: Sequence[int],
    weights: ScoreWeights,
    now: datetime,
    advance: Callable[[str], None],
    name: str,
) -> list[Scored]:
    bucket: list[Scored] = []
    for i, q in enumerate(conv.questions):
        page = store.search(q.question, page_size=depth, weights=weights, now=now + timedelta(minutes=i))
        ranked = [hit.passage.meta["dia_id"] for hit in page.items]
        bucket.append(Scored(q.category, score_question(ranked, q.evidence, ks)))
        advance(f"{conv.sample_id}: archival ({name})")
    return bucket
