"""Hybrid search over recall storage: lexical and dense, each over messages and over windows.

Four views score every message: FTS5 bm25 of the message (recall storage's own search), bm25 of its
window (the message and its neighbours as one document), the cosine of the query and the message's
embedding, and the cosine with its window's mean embedding. Each view is min-max normalised over the
messages the filters allow and the normalised scores are summed with the configured weights.

Why this shape (measured on LoCoMo, docs/locomo.md): reciprocal-rank fusion throws away how far apart
the scores are and loses to bm25 alone; normalised score fusion keeps it and wins. Windows win most: in
a dialogue the answer ("It was Matt Patterson") often shares no word with the question; the turn
before it ("What concert was it?") does.

    search = HybridSearch.for_memory(memory)
    page = search.search("what concert did they go to", page_size=5)   # Page[RecallHit], best first
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from memgpt_lite.errors import UsageError
from memgpt_lite.search.config import HybridConfig
from memgpt_lite.search.index import RecallIndex
from memgpt_lite.search.views import named_speakers
from memgpt_lite.storage.embeddings import Embedder, default_embedder
from memgpt_lite.storage.fts import query_terms
from memgpt_lite.storage.message_filter import MessageFilter
from memgpt_lite.storage.pages import Page, check_paging
from memgpt_lite.storage.recall import RecallHit, RecallStore
from memgpt_lite.storage.times import TimeLike

INDEX_FILE = "search.sqlite"
VIEWS = ("lexical", "dense", "window_lexical", "window_dense")


@dataclass(frozen=True)
class Ranked:
    """One ranked message: its id, fused score and the four normalised view scores (in `VIEWS` order)."""

    id: str
    score: float
    views: tuple[float, float, float, float]


class HybridSearch:
    """Drop-in for `RecallStore.search` (same arguments, `Page[RecallHit]` with the fused score).

    `config` sets the view weights and candidate counts; window radius and session gap are the
    index's (they shape what is stored)."""

    def __init__(self, recall: RecallStore, index: RecallIndex, config: HybridConfig | None = None) -> None:
        self.recall = recall
        self.index = index
        self.config = config or index.config

    @classmethod
    def open(
        cls,
        recall: RecallStore,
        store_dir: str | os.PathLike[str],
        embedder: Embedder | None = None,
        config: HybridConfig | None = None,
    ) -> HybridSearch:
        """The search over `recall`, with its derived index in `store_dir/search.sqlite`."""
        config = config or HybridConfig()
        index = RecallIndex(Path(store_dir) / INDEX_FILE, embedder or default_embedder(), config)
        return cls(recall, index, config)

    @classmethod
    def for_memory(
        cls, memory: Any, embedder: Embedder | None = None, config: HybridConfig | None = None
    ) -> HybridSearch:
        """The search over an `AgentMemory`'s recall storage, indexed inside its store directory."""
        return cls.open(memory.recall, memory.store.path, embedder=embedder, config=config)

    # -- searching ----------------------------------------------------------------------------------
    def search(
        self,
        query: str,
        roles: Sequence[str] | str | None = None,
        start_date: TimeLike | None = None,
        end_date: TimeLike | None = None,
        page: int = 0,
        page_size: int = 10,
    ) -> Page[RecallHit]:
        """Messages best matching `query`, best first. `total` counts the candidates: every lexical
        match of the message or its window, plus the `dense_candidates` nearest by embedding."""
        check_paging(page, page_size)
        ranked = self.rank(query, roles=roles, start_date=start_date, end_date=end_date)
        chunk = ranked[page * page_size : (page + 1) * page_size]
        messages = self.recall.get([r.id for r in chunk]) if chunk else []
        hits = [RecallHit(message=m, score=r.score) for m, r in zip(messages, chunk, strict=True)]
        return Page.of(hits, len(ranked), page, page_size)

    def rank(
        self,
        query: str,
        roles: Sequence[str] | str | None = None,
        start_date: TimeLike | None = None,
        end_date: TimeLike | None = None,
    ) -> list[Ranked]:
        """Every candidate message, best first, with the view scores behind its rank."""
        return self.rank_each(query, [self.config], roles=roles, start_date=start_date, end_date=end_date)[0]

    def rank_each(
        self,
        query: str,
        configs: Sequence[HybridConfig],
        roles: Sequence[str] | str | None = None,
        start_date: TimeLike | None = None,
        end_date: TimeLike | None = None,
    ) -> list[list[Ranked]]:
        """`rank` under each of `configs` (weights, candidates, boost), the query's views scored once per
        `lexical_pool`: an ablation over weights reads the full-text indexes once, not once per config.
        The window shape is the index's, whatever a config says (as in `rank`)."""
        if not isinstance(query, str) or not query.strip():
            raise UsageError("query must be non-empty text")
        self.index.sync(self.recall)
        if len(self.index.ids) == 0:
            return [[] for _ in configs]
        allowed = self._mask(roles, start_date, end_date)
        if not allowed.any():
            return [[] for _ in configs]
        views: dict[int, tuple[np.ndarray, ...]] = {}
        out = []
        for config in configs:
            if config.lexical_pool not in views:
                views[config.lexical_pool] = self._views(query, allowed, roles, start_date, end_date, config)
            out.append(self._fuse(query, allowed, views[config.lexical_pool], config))
        return out

    def _views(
        self,
        query: str,
        allowed: np.ndarray,
        roles: Sequence[str] | str | None,
        start_date: TimeLike | None,
        end_date: TimeLike | None,
        config: HybridConfig,
    ) -> tuple[np.ndarray, ...]:
        """The four raw view scores (`VIEWS` order), normalised, then the raw lexical, window-lexical
        and dense views the candidate choice reads."""
        index = self.index
        n = len(index.ids)
        lexical = np.zeros(n)
        window_lexical = np.zeros(n)
        if query_terms(query):
            lexical = self._lexical(query, roles, start_date, end_date, config.lexical_pool)
            window_lexical = index.window_scores(query, limit=config.lexical_pool)
        q = index.query_vector(query)
        dense = index.vectors @ q
        window_dense = index.window_vectors @ q
        normed = tuple(_minmax(v, allowed) for v in (lexical, dense, window_lexical, window_dense))
        return (*normed, lexical, window_lexical, dense, window_dense)

    def _fuse(
        self, query: str, allowed: np.ndarray, views: tuple[np.ndarray, ...], config: HybridConfig
    ) -> list[Ranked]:
        index = self.index
        normed, (lexical, window_lexical, dense, window_dense) = views[:4], views[4:]
        # start from zeros (0.0 + x == x): the fused scores are an array even for an empty index
        fused = sum((w * v for w, v in zip(config.weights(), normed, strict=True)), np.zeros_like(lexical))
        if config.speaker_boost:
            named = named_speakers(query, index.speakers.tolist())
            if len(named) == 1:
                fused = fused + config.speaker_boost * (index.speakers == named[0])

        candidates = allowed & ((lexical > 0) | (window_lexical > 0))
        nearest = np.where(allowed, np.maximum(dense, window_dense), -np.inf)
        k = min(config.dense_candidates, int(allowed.sum()))
        candidates[np.argpartition(-nearest, k - 1)[:k]] = True
        pos = np.flatnonzero(candidates)
        # Ties keep stored order, newest first: a later statement supersedes an earlier one.
        order = pos[np.lexsort((-pos, -fused[pos]))]
        # One array operation per view instead of one Python float per candidate and view.
        rows = np.stack(normed)[:, order].T.tolist()
        return [
            Ranked(index.ids[i], f, tuple(v))
            for i, f, v in zip(order.tolist(), fused[order].tolist(), rows, strict=True)
        ]

    def _lexical(
        self,
        query: str,
        roles: Sequence[str] | str | None,
        start_date: TimeLike | None,
        end_date: TimeLike | None,
        pool: int,
    ) -> np.ndarray:
        scores = self.recall.match_scores(
            query, roles=roles, start_date=start_date, end_date=end_date, limit=pool
        )
        where = self.index.positions
        out = np.zeros(len(self.index.ids))
        for mid, score in scores:
            i = where.get(mid)
            if i is not None:
                out[i] = score
        return out

    def _mask(
        self, roles: Sequence[str] | str | None, start_date: TimeLike | None, end_date: TimeLike | None
    ) -> np.ndarray:
        index = self.index
        # The same validation (and errors) as recall storage's own search.
        f = MessageFilter.parse(roles, start_date, end_date, speakers=None)
        mask = np.ones(len(index.ids), dtype=bool)
        if f.roles is not None:
            mask &= np.isin(index.roles, f.roles)
        if f.lo is not None:
            mask &= index.times >= f.lo
        if f.hi is not None:
            mask &= index.times <= f.hi
        return mask

    def close(self) -> None:
        self.index.close()

    def __enter__(self) -> HybridSearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_SHARED: weakref.WeakKeyDictionary[Any, HybridSearch] = weakref.WeakKeyDictionary()
_SHARED_LOCK = threading.Lock()


def recall_search(memory: Any, embedder: Embedder | None = None) -> HybridSearch:
    """The one `HybridSearch` of an `AgentMemory` (created on first use, kept while the memory lives).

    For the memory tools: `recall_search(memory).search(query, roles=..., start_date=..., end_date=...,
    page=..., page_size=...)` replaces `memory.recall.search(...)` with the same arguments and result
    type. The embedder is `embedder`, else the memory's own (`memory.embedder`, when it has one), else
    the process-wide `default_embedder()` (MiniLM, or hashing when `MEMGPT_LITE_EMBEDDER=hashing`)."""
    with _SHARED_LOCK:
        search = _SHARED.get(memory)
        if search is None:
            chosen = embedder or getattr(memory, "embedder", None) or default_embedder()
            search = HybridSearch.for_memory(memory, embedder=chosen)
            _SHARED[memory] = search
        return search


def _minmax(values: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """Scale the allowed entries to [0, 1]; a view that cannot tell them apart contributes nothing."""
    out = np.zeros(len(values))
    v = values[allowed]
    lo, hi = float(v.min()), float(v.max())
    if hi > lo:
        out[allowed] = (v - lo) / (hi - lo)
    return out
