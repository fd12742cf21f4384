"""One evaluation run: ingest each conversation, rank every question with the framework's search and
with the BM25 baseline, and score both against the evidence turns."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evals.locomo.bm25 import BM25
from evals.locomo.data import Conversation
from evals.locomo.ingest import ingest, turn_message
from evals.locomo.metrics import Scored, aggregate, score_question
from memgpt_lite.search import HybridConfig, HybridSearch
from memgpt_lite.storage.embeddings import Embedder

ABLATION_STEPS: tuple[tuple[str, dict[str, float]], ...] = (
    ("FTS5 bm25 over messages", {"lexical": 1, "dense": 0, "window_lexical": 0, "window_dense": 0}),
    ("MiniLM over messages", {"lexical": 0, "dense": 1, "window_lexical": 0, "window_dense": 0}),
    (
        "bm25 + MiniLM, normalised score fusion",
        {"lexical": 1, "dense": 1, "window_lexical": 0, "window_dense": 0},
    ),
    ("+ bm25 over windows", {"lexical": 1, "dense": 1, "window_lexical": 1, "window_dense": 0}),
    ("+ MiniLM over windows (default)", {"lexical": 1, "dense": 1, "window_lexical": 1, "window_dense": 1}),
)


@dataclass
class Progress:
    """Callbacks the CLI turns into a progress bar: `start(total)` then `advance(description)`."""

    start: Callable[[int], None] = lambda total: None
    advance: Callable[[str], None] = lambda description: None


@dataclass
class RunResult:
    ours: dict[str, Any]
    baseline: dict[str, Any]
    ablation: list[dict[str, Any]] = field(default_factory=list)
    archival: dict[str, dict[str, Any]] = field(default_factory=dict)
    seconds: float = 0.0
    questions: int = 0
    skipped: int = 0
    turns: int = 0


def evaluate(
    conversations: Sequence[Conversation],
    ks: Sequence[int],
    embedder: Embedder,
    config: HybridConfig | None = None,
    ablate: bool = False,
    archival: bool = False,
    progress: Progress | None = None,
    workdir: str | Path | None = None,
) -> RunResult:
    config = config or HybridConfig()
    progress = progress or Progress()
    depth = max(ks)
    steps = [(name, config.model_copy(update=w)) for name, w in ABLATION_STEPS] if ablate else []
    per_question = sum(len(c.questions) for c in conversations)
    if archival:  # Chroma (~1 s of imports) only for the archival scoring that needs it
        from evals.locomo.archival import VARIANTS, ingest_archival, score_archival
    extra = len(VARIANTS) if archival else 0
    progress.start(len(conversations) + per_question * (1 + len(steps) + extra))
    started = time.perf_counter()
    ours: list[Scored] = []
    baseline: list[Scored] = []
    by_step: list[list[Scored]] = [[] for _ in steps]
    by_variant: dict[str, list[Scored]] = {name: [] for name in VARIANTS} if archival else {}
    with tempfile.TemporaryDirectory(prefix="locomo-", dir=workdir) as tmp:
        for conv in conversations:
            memory = ingest(conv, Path(tmp) / conv.sample_id, embedder=embedder)
            try:
                search = HybridSearch.for_memory(memory, embedder=embedder, config=config)
                search.index.sync(memory.recall)
                progress.advance(f"{conv.sample_id}: indexed {len(conv.turns)} turns")
                dia = {m.id: m.meta["dia_id"] for m in memory.recall.iter_messages()}
                bm25 = BM25([turn_message(t, conv.sample_id).text for t in conv.turns])
                # the default and every ablation step rank from the same view scores (read once)
                configs = [config, *(step_config for _, step_config in steps)]
                for q in conv.questions:
                    rankings = search.rank_each(q.question, configs)
                    ranked = [dia[r.id] for r in rankings[0][:depth]]
                    ours.append(Scored(q.category, score_question(ranked, q.evidence, ks)))
                    base = [conv.turns[i].dia_id for i in bm25.rank(q.question, depth)]
                    baseline.append(Scored(q.category, score_question(base, q.evidence, ks)))
                    progress.advance(f"{conv.sample_id}: questions")
                    for ranking, bucket in zip(rankings[1:], by_step, strict=True):
                        ranked = [dia[r.id] for r in ranking[:depth]]
                        bucket.append(Scored(q.category, score_question(ranked, q.evidence, ks)))
                        progress.advance(f"{conv.sample_id}: ablation")
                search.close()
                if archival:
                    ingest_archival(memory, conv)
                    for name, scored in score_archival(memory, conv, ks, progress.advance).items():
                        by_variant[name] += scored
            finally:
                memory.close()
    ablation = [
        {"step": name, "weights": w, **aggregate(bucket, ks)}
        for (name, w), bucket in zip(ABLATION_STEPS if ablate else (), by_step, strict=True)
    ]
    return RunResult(
        ours=aggregate(ours, ks),
        baseline=aggregate(baseline, ks),
        ablation=ablation,
        archival={name: aggregate(scored, ks) for name, scored in by_variant.items()},
        seconds=time.perf_counter() - started,
        questions=len(ours),
        skipped=sum(c.skipped for c in conversations),
        turns=sum(len(c.turns) for c in conversations),
    )
