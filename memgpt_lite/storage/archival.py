"""Archival storage: long-term passages in Chroma, ranked by recency · importance · relevance.

Embedded (`PersistentClient` under the store directory) by default; a Chroma server (`HttpClient`)
when `url=` is given. Search takes as candidates the nearest passages by cosine (Chroma's HNSW index)
and, embedded, the best bm25 matches of the query's words (FTS5 in the passage index beside Chroma,
`passage_index.py`); relevance fuses the two, and `memgpt_lite.retrieval` ranks by recency ·
importance · relevance (Generative Agents). The true total is the number of passages passing the
filters. See docs/storage.md.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from memgpt_lite.errors import ConfigError, StoreError, UsageError
from memgpt_lite.log import logger
from memgpt_lite.messages import new_id
from memgpt_lite.retrieval import (
    ImportanceRater,
    ScoreWeights,
    check_importance,
    heuristic_importance,
    hybrid_relevance,
    rank,
    score,
)
from memgpt_lite.storage.archival_reader import check_chroma_file
from memgpt_lite.storage.candidates import Reach, hybrid_candidates, server_candidates
from memgpt_lite.storage.chroma_util import PassageFilter, connect, is_panic, open_collection
from memgpt_lite.storage.embeddings import Embedder, QueryVectors, default_embedder
from memgpt_lite.storage.pages import Page, check_paging
from memgpt_lite.storage.passage_index import open_index, row_of
from memgpt_lite.storage.passages import NewPassage, Passage, ScoredPassage, decode, encode
from memgpt_lite.storage.times import TimeLike, from_epoch, to_epoch

ARCHIVAL_FORMAT = 1


class ArchivalStore:
    """Passages of one agent (one Chroma collection). Thread-safe within a process."""

    def __init__(
        self,
        path: str | Path | None = None,
        embedder: Embedder | None = None,
        *,
        url: str | None = None,
        collection: str = "archival",
        importance_rater: ImportanceRater | None = None,
        candidates: int = 100,
        lexical_candidates: int = 50,
        max_overfetch: int = 3000,
        count_ttl: float | None = None,
        access_flush_seconds: float = 2.0,
        weights: ScoreWeights | None = None,
        lexical_weight: float = 1.0,
    ) -> None:
        if (path is None) == (url is None):
            raise ConfigError(
                "ArchivalStore needs exactly one of a path (embedded Chroma) or url= (Chroma server)"
            )
        if candidates < 1:
            raise ConfigError("candidates must be >= 1")
        if lexical_weight < 0:
            raise ConfigError("lexical_weight must be >= 0")
        if lexical_candidates < 1:
            raise ConfigError("lexical_candidates must be >= 1")
        # Words add few candidates: on LoCoMo 10-100 of them give the same frac@10 (docs/storage.md),
        # and each one found by words only costs a vector read.
        self.lexical_candidates = lexical_candidates
        # Search defaults: the Generative-Agents weights, and words weighed like meaning in relevance.
        self.weights = weights or ScoreWeights()
        self.lexical_weight = lexical_weight
        self.embedder = embedder or default_embedder()
        self.importance_rater = importance_rater or heuristic_importance
        self.candidates = candidates
        self.max_overfetch = max_overfetch
        # Totals are cached until our next write; another client of a shared server can write too,
        # so there they expire after a second unless told otherwise.
        self.count_ttl = count_ttl if count_ttl is not None or url is None else 1.0
        self.access_flush_seconds = access_flush_seconds
        self._counts: dict[str, tuple[float, int]] = {}
        self._query_vectors = QueryVectors(self.embedder)
        self._touched: dict[str, float] = {}
        self._words: ThreadPoolExecutor | None = None
        self._flushed_at = time.monotonic()
        self.location = str(path) if path is not None else str(url)
        self._lock = threading.RLock()
        if path is not None:
            # Chroma would write a new database over an empty or foreign chroma.sqlite3 (and then the
            # passage index would be "rebuilt" empty); a garbled one makes its Rust core panic.
            check_chroma_file(path)
        self._client = connect(path, url)
        try:
            self._col = open_collection(self._client, collection, self.embedder, ARCHIVAL_FORMAT)
        except StoreError as e:
            self._client.close()
            raise StoreError(f"archival storage at {self.location}: {e}") from e
        # Embedded only: a server may have other writers, whose passages a local index would miss.
        try:
            self._index = self._open_index(path, collection)
        except BaseException:
            self._client.close()
            raise

    def _open_index(self, path: str | Path | None, collection: str) -> Any:
        return (
            open_index(
                Path(path) / f"{collection}.index.sqlite",
                lambda: int(self._chroma("count")),
                lambda offset, limit: self._chroma(
                    "get", include=["metadatas", "documents"], offset=offset, limit=limit
                ),
            )
            if path is not None
            else None
        )

    # -- writing ------------------------------------------------------------------------------------
    def insert(
        self,
        content: str,
        importance: int | None = None,
        tags: Sequence[str] | None = None,
        provenance: Sequence[str] | None = None,
        meta: dict[str, Any] | None = None,
        created_at: TimeLike | None = None,
        supersedes: str | None = None,
    ) -> Passage:
        """Store one passage. `supersedes=old_id` makes it the live entry of that chain: the chain's
        current head is marked superseded by the new passage (it stays stored and searchable)."""
        item = NewPassage(
            content=content, importance=importance, tags=tags, provenance=provenance, meta=meta,
            created_at=created_at, supersedes=supersedes,
        )  # fmt: skip
        return self.insert_many([item])[0]

    def insert_many(
        self, items: Sequence[NewPassage | dict[str, Any]], embeddings: np.ndarray | None = None
    ) -> list[Passage]:
        """Store many passages in batches (one embedding call per batch). `embeddings` (one row per
        item, L2-normalised) skips embedding, e.g. for bulk loads of precomputed vectors."""
        news = [i if isinstance(i, NewPassage) else NewPassage.model_validate(i) for i in items]
        if embeddings is not None and (
            embeddings.ndim != 2 or embeddings.shape != (len(news), self.embedder.dim)
        ):
            raise UsageError(f"embeddings must have shape ({len(news)}, {self.embedder.dim})")
        now = datetime.now(UTC)
        passages = [self._materialise(n, now) for n in news]
        batch = max(1, min(5000, self._client.get_max_batch_size()))
        with self._lock:
            new_ids = {p.id for p in passages}
            chosen_ids = [n.id for n in news if n.id]
            if len(new_ids) != len(passages):
                raise UsageError("insert_many got the same passage id twice")
            taken = self._chroma("get", ids=chosen_ids, include=[])["ids"] if chosen_ids else []
            if taken:
                raise UsageError(f"passage id(s) already stored: {taken[:5]}; use supersedes= to replace")
            for sup in {p.supersedes for p in passages if p.supersedes} - new_ids:
                if self._fetch([sup]) == []:
                    raise UsageError(f"no passage {sup!r} to supersede")
            for start in range(0, len(passages), batch):
                chunk = passages[start : start + batch]
                vectors = (
                    embeddings[start : start + batch]
                    if embeddings is not None
                    else self.embedder.embed([p.content for p in chunk])
                )
                self._chroma(
                    "add",
                    ids=[p.id for p in chunk],
                    embeddings=np.asarray(vectors, dtype=np.float32),
                    documents=[p.content for p in chunk],
                    metadatas=[encode(p) for p in chunk],
                )
                if self._index is not None:
                    self._index.add(row_of(p) for p in chunk)
            self._changed()
            for p in passages:
                if p.supersedes:
                    self._supersede_chain(p.supersedes, p.id, p.created_at)
        logger.debug("archival: inserted {} passage(s)", len(passages))
        return [self.get(p.id) or p for p in passages] if any(p.supersedes for p in passages) else passages

    def _materialise(self, n: NewPassage, now: datetime) -> Passage:
        importance = (
            n.importance if n.importance is not None else check_importance(self.importance_rater(n.content))
        )
        created = n.created_at or now
        return Passage(
            id=n.id or new_id("psg"), content=n.content, importance=importance, tags=n.tags or [],
            provenance=n.provenance or [], created_at=created, last_accessed_at=created,
            supersedes=n.supersedes, meta=n.meta or {},
        )  # fmt: skip

    def supersede(self, old_id: str, new_id: str, at: TimeLike | None = None) -> Passage:
        """Mark `old_id`'s chain head as superseded by `new_id` (which must exist and be current)."""
        when = datetime.fromtimestamp(to_epoch(at, name="at"), UTC) if at is not None else datetime.now(UTC)
        with self._lock:
            new = self.get(new_id)
            if new is None:
                raise UsageError(f"no passage {new_id!r}")
            if new.status != "current":
                raise UsageError(f"passage {new_id!r} is itself superseded; supersede with the live entry")
            return self._supersede_chain(old_id, new_id, when)

    def _supersede_chain(self, old_id: str, new_id: str, when: datetime) -> Passage:
        # Walk to the live head so one chain never has two current entries.
        seen = {new_id}
        head = self.get(old_id)
        if head is None:
            raise UsageError(f"no passage {old_id!r}")
        while head.status == "superseded" and head.superseded_by and head.superseded_by not in seen:
            seen.add(head.id)
            nxt = self.get(head.superseded_by)
            if nxt is None:
                break
            head = nxt
        if head.id == new_id:
            raise UsageError(f"passage {new_id!r} cannot supersede itself")
        if head.status == "current":
            head = head.model_copy(
                update={"status": "superseded", "superseded_by": new_id, "superseded_at": when}
            )
            self._chroma("update", ids=[head.id], metadatas=[encode(head)])
            if self._index is not None:
                self._index.set_current(head.id, False)
            self._changed()
        return head

    # -- reading ------------------------------------------------------------------------------------
    def get(self, passage_id: str) -> Passage | None:
        found = self._fetch([passage_id])
        return found[0] if found else None

    def get_many(self, ids: Sequence[str]) -> list[Passage]:
        """Passages by id in the order asked; unknown ids are left out."""
        by_id = {p.id: p for p in self._fetch(list(ids))}
        return [by_id[i] for i in ids if i in by_id]

    def iter_passages(self, batch: int = 1000) -> Iterator[Passage]:
        """Every stored passage (current and superseded), in storage order, `batch` at a time — for
        exact scans (a ticket id, a path) that ranked search must not decide."""
        total = self.count()
        for offset in range(0, total, batch):
            with self._lock:
                got = self._chroma("get", include=["documents", "metadatas"], offset=offset, limit=batch)
            for i, d, m in zip(got["ids"], got["documents"], got["metadatas"], strict=True):
                yield decode(i, d, m)

    def _fetch(self, ids: list[str]) -> list[Passage]:
        if not ids:
            return []
        with self._lock:
            got = self._chroma("get", ids=ids, include=["documents", "metadatas"])
            # The index (embedded) or the pending writes (server) hold newer access times than Chroma.
            touched = self._index.accessed(got["ids"]) if self._index is not None else dict(self._touched)
        out = [
            decode(i, d, m) for i, d, m in zip(got["ids"], got["documents"], got["metadatas"], strict=True)
        ]
        return [
            p.model_copy(update={"last_accessed_at": from_epoch(touched[p.id])}) if p.id in touched else p
            for p in out
        ]

    def count(self, include_superseded: bool = True) -> int:
        with self._lock:
            return self._count(PassageFilter(current_only=not include_superseded))

    def search(
        self,
        query: str,
        page: int = 0,
        page_size: int = 10,
        tags: Sequence[str] | None = None,
        since: TimeLike | None = None,
        until: TimeLike | None = None,
        now: datetime | None = None,
        weights: ScoreWeights | None = None,
        include_superseded: bool = True,
    ) -> Page[ScoredPassage]:
        """Best passages first by the weighted score (`weights`, else the store's). Candidates: the
        `candidates` nearest passages by cosine and (embedded) the `lexical_candidates` best bm25
        matches of the words (more of each when paging deeper); relevance fuses cosine and bm25.
        Only the returned page — what the caller is shown — gets `last_accessed_at = now`. `tags`
        matches passages with any of the tags; `since`/`until` bound `created_at` (a bare `until`
        date includes that day)."""
        check_paging(page, page_size)
        if not isinstance(query, str) or not query.strip():
            raise UsageError("archival search needs a non-empty query")
        now = now or datetime.now(UTC)
        if now.tzinfo is None:
            now = now.replace(tzinfo=UTC)
        flt = PassageFilter.parse(tags, since, until, include_superseded)
        qvec = self._query_vector(query)
        with self._lock:
            total = self._count(flt)
            if page * page_size >= total:
                return Page.of([], total, page, page_size)
            want = min(total, max(self.candidates, (page + 1) * page_size))
            reach = Reach(want, total, self._count(PassageFilter()), self.max_overfetch)
            if self._index is not None:
                lexical = -(-want * self.lexical_candidates // self.candidates) if self.lexical_weight else 0
                pool = hybrid_candidates(
                    self._chroma, self._index, query, qvec, flt, reach, lexical, self._words_thread()
                )
            else:
                # No local word index with a server (other clients write too): meaning only.
                pool = server_candidates(self._chroma, qvec, flt, reach, self._touched)
            ids, cosine, bm25 = pool.ids, pool.cosine, pool.bm25
            importance = [s.importance for s in pool.info]
            accessed = [s.accessed for s in pool.info]
            created = [s.created_at for s in pool.info]
            relevance = hybrid_relevance(cosine, bm25, self.lexical_weight)
            hours = (now.timestamp() - np.asarray(accessed, dtype=np.float64)) / 3600.0
            scores = score(hours, importance, relevance, weights or self.weights)
            order = rank(scores, tie_break=created)
            chosen = [int(i) for i in order[page * page_size : (page + 1) * page_size]]
            # Full passages (document, JSON record) are read for the page only.
            got = self._chroma("get", ids=[ids[i] for i in chosen], include=["documents", "metadatas"])
            stored = {
                i: decode(i, d, m)
                for i, d, m in zip(got["ids"], got["documents"], got["metadatas"], strict=True)
            }
            hits = [
                ScoredPassage(
                    passage=stored[ids[i]].model_copy(update={"last_accessed_at": now}),
                    score=float(scores.total[i]),
                    recency=float(scores.recency[i]),
                    importance=float(scores.importance[i]),
                    relevance=float(scores.relevance[i]),
                    cosine=cosine[i],
                    bm25=bm25[i],
                )
                for i in chosen
                if ids[i] in stored
            ]
            self._touch([h.passage.id for h in hits], now.timestamp())
        return Page.of(hits, total, page, page_size)

    def similarity(self, query: str, ids: Sequence[str]) -> dict[str, float]:
        """Cosine of `query` to each stored passage in `ids`, from the vectors kept at insert time (the
        ones `search` ranks by), so ordering a handful of exact matches embeds only the query."""
        if not ids:
            return {}
        qvec = self._query_vector(query)
        with self._lock:
            got = self._chroma("get", ids=list(ids), include=["embeddings"])
        vectors = np.asarray(got["embeddings"], dtype=np.float32).reshape(len(got["ids"]), -1)
        return {i: float(qvec @ v) for i, v in zip(got["ids"], vectors, strict=True)}

    def _words_thread(self) -> ThreadPoolExecutor:
        if self._words is None:
            self._words = ThreadPoolExecutor(max_workers=1, thread_name_prefix="archival-words")
        return self._words

    # -- caches: the query vector, totals, and access times written in batches -----------------------
    def _query_vector(self, query: str) -> np.ndarray:
        # Paging through one query embeds it once, not once per page.
        return self._query_vectors(query)

    def _count(self, flt: PassageFilter) -> int:
        where = flt.where()
        key = json.dumps(where, sort_keys=True)
        hit = self._counts.get(key)
        if hit is not None and (self.count_ttl is None or time.monotonic() - hit[0] < self.count_ttl):
            return hit[1]
        if self._index is not None:
            n = self._index.count(flt)
        elif where is None:
            n = int(self._chroma("count"))
        else:
            n = len(self._chroma("get", where=where, include=[])["ids"])
        if len(self._counts) >= 64:
            self._counts.clear()
        self._counts[key] = (time.monotonic(), n)
        return int(n)

    def _changed(self) -> None:
        self._counts.clear()

    def _touch(self, ids: list[str], at: float) -> None:
        for pid in ids:
            self._touched[pid] = at
        if self._index is not None:
            # The index has them now; Chroma's copy is only for rebuilding the index, so it is
            # brought up to date rarely (and on close) instead of inside searches.
            self._index.touch(ids, at)
            if len(self._touched) >= 10_000:
                self.flush()
        elif len(self._touched) >= 256 or time.monotonic() - self._flushed_at >= self.access_flush_seconds:
            self.flush()

    def flush(self) -> None:
        """Write pending last-access times to Chroma (searches batch them; `close` flushes)."""
        with self._lock:
            if self._touched:
                pending = dict(self._touched)
                self._chroma(
                    "update", ids=list(pending), metadatas=[{"last_accessed_at": t} for t in pending.values()]
                )
                for pid, t in pending.items():
                    if self._touched.get(pid) == t:
                        del self._touched[pid]
            self._flushed_at = time.monotonic()

    def _chroma(self, op: str, **kw: Any) -> Any:
        try:
            return getattr(self._col, op)(**kw)
        except (UsageError, ConfigError):
            raise
        except Exception as e:  # a lost server or a broken file is a runtime store failure
            raise StoreError(f"archival storage at {self.location} failed during {op}: {e}") from e
        except BaseException as e:
            # Chroma's Rust core panics on some damaged files (pyo3's PanicException is a BaseException).
            if not is_panic(e):
                raise
            raise StoreError(f"archival storage at {self.location} is damaged ({op} crashed: {e})") from e

    def close(self) -> None:
        try:
            self.flush()
        except StoreError as e:  # access times only steer recency; never fail a close over them
            logger.warning("archival store {}: last-access times not written: {}", self.location, e)
        if self._words is not None:
            self._words.shutdown(wait=True)
        try:
            if self._index is not None:
                self._index.close()
            self._client.close()
        except Exception as e:  # closing must not hide the caller's own error
            logger.warning("closing archival store {}: {}", self.location, e)

    def __enter__(self) -> ArchivalStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
