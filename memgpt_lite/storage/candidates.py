"""Archival search candidates: the nearest passages by meaning (Chroma HNSW) and, with the passage
index, the best matches of the query's words (FTS5 bm25), each with both scores and its scoring
fields. `ArchivalStore.search` ranks them (docs/storage.md)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, NamedTuple

import numpy as np

from memgpt_lite.storage.chroma_util import PassageFilter, nearest
from memgpt_lite.storage.passage_index import PassageIndex, Scoring


class Reach(NamedTuple):
    """How far a search for candidates goes: the `want` nearest passages, where `total` pass the filter
    out of `everything`; over-fetching neighbours without the filter stops at `max_overfetch`."""

    want: int
    total: int
    everything: int
    max_overfetch: int


def nearest_indexed(
    chroma: Callable[..., Any], index: PassageIndex, qvec: Any, flt: PassageFilter, reach: Reach
) -> tuple[list[str], list[Scoring], list[float]]:
    """The `want` nearest passages passing the filter: (ids, scoring fields, cosine distances).

    Chroma returns only ids and distances; the filter and the scoring fields come from the index.
    With a filter, neighbours are over-fetched in proportion to its share of the collection; if
    too few survive, Chroma filters exactly."""
    want, total, everything, max_overfetch = reach
    fetch = want if flt.empty else min(everything, int(want * everything / max(total, 1) * 1.5) + 10)
    if flt.empty or fetch <= max_overfetch:
        res = chroma("query", query_embeddings=[qvec], n_results=fetch, include=["distances"])
        found = _indexed(res, index.scoring(res["ids"][0], flt), want)
        if len(found[0]) >= want or fetch >= everything:
            return found
    res = chroma("query", query_embeddings=[qvec], n_results=want, where=flt.where(), include=["distances"])
    return _indexed(res, index.scoring(res["ids"][0], PassageFilter()))


def _indexed(
    res: dict[str, Any], info: dict[str, Scoring], limit: int | None = None
) -> tuple[list[str], list[Scoring], list[float]]:
    """The first `limit` of a Chroma query's neighbours that the index knows (and let through its
    filter): (ids, scoring fields, cosine distances)."""
    rows = [(i, d) for i, d in zip(res["ids"][0], res["distances"][0], strict=True) if i in info][:limit]
    return [r[0] for r in rows], [info[r[0]] for r in rows], [r[1] for r in rows]


class Candidates(NamedTuple):
    """The pool a search scores: per passage its cosine, bm25 (0 when no word matches) and fields."""

    ids: list[str]
    cosine: list[float]
    bm25: list[float]
    info: list[Scoring]


def hybrid_candidates(
    chroma: Callable[..., Any],
    index: PassageIndex,
    query: str,
    qvec: Any,
    flt: PassageFilter,
    reach: Reach,
    lexical: int = 0,
    executor: Executor | None = None,
) -> Candidates:
    """The `want` nearest passages (Chroma HNSW) ∪ the `lexical` best bm25 matches (FTS5), filtered.

    A passage found only by its words gets its true cosine from its stored vector, so both views are
    known for every candidate. With an `executor` the words are ranked while Chroma searches (SQLite
    and Chroma both work outside the GIL: ~3 ms less at 100k passages)."""
    words: Future[dict[int, float]] | None = None
    if lexical >= 1 and executor is not None:
        words = executor.submit(index.lexical, query, flt, reach.everything)
    ids, info, distances = nearest_indexed(chroma, index, qvec, flt, reach)
    cosine = [1.0 - float(d) for d in distances]
    bm25 = [0.0] * len(ids)
    if lexical < 1:
        return Candidates(ids, cosine, bm25, info)
    pool = words.result() if words is not None else index.lexical(query, flt, reach.everything)
    if not pool:
        return Candidates(ids, cosine, bm25, info)
    bm25 = [pool.get(x.n, 0.0) for x in info]
    known = {x.n for x in info}
    rows = [n for n in list(pool)[:lexical] if n not in known]  # the best matches meaning missed
    extra = index.fields(rows)
    if extra:
        # Their true cosine, not a stand-in: imputing the pool's lowest cosine saves ~2 ms at 100k
        # passages but cost ~0.01 frac@10 on LoCoMo (docs/storage.md).
        by_id = {pid: (n, sc) for n, (pid, sc) in extra.items()}
        got = chroma("get", ids=list(by_id), include=["embeddings"])
        vectors = np.asarray(got["embeddings"], dtype=np.float64)
        sims = vectors @ np.asarray(qvec, dtype=np.float64)
        for pid, sim in zip(got["ids"], sims.tolist(), strict=True):
            n, sc = by_id[pid]
            ids.append(pid)
            cosine.append(float(sim))
            bm25.append(pool[n])
            info.append(sc)
    return Candidates(ids, cosine, bm25, info)


def server_candidates(
    chroma: Callable[..., Any],
    qvec: Any,
    flt: PassageFilter,
    reach: Reach,
    touched: dict[str, float],
) -> Candidates:
    """Candidates without a passage index (a Chroma server): the nearest by meaning only, their fields
    from Chroma's metadata, with access times not yet written back (`touched`) overlaid."""
    ids, metas, distances = nearest(chroma, qvec, flt, *reach)
    info = [
        Scoring(m["importance"], max(m["last_accessed_at"], touched.get(i, 0.0)), m["created_at"])
        for i, m in zip(ids, metas, strict=True)
    ]
    return Candidates(ids, [1.0 - float(d) for d in distances], [0.0] * len(ids), info)
