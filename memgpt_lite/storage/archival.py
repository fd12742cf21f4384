"""Archival storage: long-term passages in Chroma, ranked by recency · importance · relevance.

Embedded (`PersistentClient` under the store directory) by default; a Chroma server (`HttpClient`)
when `url=` is given. Search asks Chroma's HNSW index for the top candidates by cosine, then scores
those candidates with `memgpt_lite.retrieval` (Generative Agents) and pages the ranked list. The true
total is the number of passages that pass the filters. Chroma metadata holds scalars only, so lists
(tags, provenance) and free meta are stored as JSON strings, and each tag also as a boolean
`tag:<name>` key so tag filters run inside Chroma.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import numpy as np
from loguru import logger

from memgpt_lite.errors import ConfigError, StoreError, UsageError
from memgpt_lite.messages import new_id
from memgpt_lite.retrieval import (
    ImportanceRater,
    ScoreWeights,
    check_importance,
    heuristic_importance,
    rank,
    score,
)
from memgpt_lite.storage.chroma_ef import ChromaEmbeddingFunction
from memgpt_lite.storage.embeddings import Embedder, default_embedder
from memgpt_lite.storage.pages import Page, check_paging
from memgpt_lite.storage.passages import NewPassage, Passage, ScoredPassage, decode, encode, tag_key
from memgpt_lite.storage.times import TimeLike, check_range, to_epoch

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
    ) -> None:
        if (path is None) == (url is None):
            raise ConfigError(
                "ArchivalStore needs exactly one of a path (embedded Chroma) or url= (Chroma server)"
            )
        if candidates < 1:
            raise ConfigError("candidates must be >= 1")
        self.embedder = embedder or default_embedder()
        self.importance_rater = importance_rater or heuristic_importance
        self.candidates = candidates
        self.location = str(path) if path is not None else str(url)
        self._lock = threading.RLock()
        self._client = _connect(path, url)
        try:
            self._col = self._client.get_or_create_collection(
                collection,
                metadata={
                    "hnsw:space": "cosine",
                    "memgpt_lite_format": ARCHIVAL_FORMAT,
                    "embedder": self.embedder.name,
                    "dim": self.embedder.dim,
                },
                embedding_function=ChromaEmbeddingFunction(self.embedder),
            )
        except Exception as e:  # Chroma raises many types for a broken store; ours is one clear error
            self._client.close()
            raise StoreError(f"cannot open archival collection {collection!r} at {self.location}: {e}") from e
        meta = self._col.metadata or {}
        if meta.get("embedder") != self.embedder.name or meta.get("dim") != self.embedder.dim:
            self._client.close()
            raise StoreError(
                f"archival collection {collection!r} at {self.location} holds vectors of embedder "
                f"{meta.get('embedder')!r} (dim {meta.get('dim')}); open it with that embedder, not {self.embedder.name!r}"
            )
        if int(meta.get("memgpt_lite_format", 0)) > ARCHIVAL_FORMAT:
            self._client.close()
            raise StoreError(
                f"archival collection at {self.location} has a newer format; upgrade memgpt_lite"
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
            for sup in {p.supersedes for p in passages if p.supersedes}:
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
        return head

    # -- reading ------------------------------------------------------------------------------------
    def get(self, passage_id: str) -> Passage | None:
        found = self._fetch([passage_id])
        return found[0] if found else None

    def get_many(self, ids: Sequence[str]) -> list[Passage]:
        """Passages by id in the order asked; unknown ids are left out."""
        by_id = {p.id: p for p in self._fetch(list(ids))}
        return [by_id[i] for i in ids if i in by_id]

    def _fetch(self, ids: list[str]) -> list[Passage]:
        if not ids:
            return []
        with self._lock:
            got = self._chroma("get", ids=ids, include=["documents", "metadatas"])
        return [
            decode(i, d, m) for i, d, m in zip(got["ids"], got["documents"], got["metadatas"], strict=True)
        ]

    def count(self, include_superseded: bool = True) -> int:
        with self._lock:
            if include_superseded:
                return int(self._chroma("count"))
            return len(self._chroma("get", where={"status": "current"}, include=[])["ids"])

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
        """Best passages first by the weighted score. Chroma proposes the `candidates` nearest passages
        (more when paging deeper); they are scored, ranked and paged; the page's passages get their
        `last_accessed_at` set to `now`. `tags` matches passages with any of the tags; `since`/`until`
        bound `created_at` (a bare `until` date includes that day)."""
        check_paging(page, page_size)
        if not isinstance(query, str) or not query.strip():
            raise UsageError("archival search needs a non-empty query")
        now = now or datetime.now(UTC)
        if now.tzinfo is None:
            now = now.replace(tzinfo=UTC)
        where = _where(tags, since, until, include_superseded)
        qvec = self.embedder.embed([query])[0]
        with self._lock:
            total = (
                self.count() if where is None else len(self._chroma("get", where=where, include=[])["ids"])
            )
            if page * page_size >= total:
                return Page.of([], total, page, page_size)
            want = min(total, max(self.candidates, (page + 1) * page_size))
            res = self._chroma(
                "query",
                query_embeddings=[qvec],
                n_results=want,
                where=where,
                include=["documents", "metadatas", "distances"],
            )
            ids, docs, metas = res["ids"][0], res["documents"][0], res["metadatas"][0]
            cands = [decode(i, d, m) for i, d, m in zip(ids, docs, metas, strict=True)]
            relevance = 1.0 - np.asarray(res["distances"][0], dtype=np.float64)
            hours = [(now - p.last_accessed_at).total_seconds() / 3600.0 for p in cands]
            scores = score(hours, [p.importance for p in cands], relevance, weights)
            order = rank(scores, tie_break=[p.created_at.timestamp() for p in cands])
            chosen = order[page * page_size : (page + 1) * page_size]
            hits = [
                ScoredPassage(
                    passage=cands[i].model_copy(update={"last_accessed_at": now}),
                    score=float(scores.total[i]),
                    recency=float(scores.recency[i]),
                    importance=float(scores.importance[i]),
                    relevance=float(scores.relevance[i]),
                    cosine=float(relevance[i]),
                )  # fmt: skip
                for i in chosen
            ]
            if hits:
                self._chroma(
                    "update", ids=[h.passage.id for h in hits], metadatas=[encode(h.passage) for h in hits]
                )
        return Page.of(hits, total, page, page_size)

    def _chroma(self, op: str, **kw: Any) -> Any:
        try:
            return getattr(self._col, op)(**kw)
        except (UsageError, ConfigError):
            raise
        except Exception as e:  # a lost server or a broken file is a runtime store failure
            raise StoreError(f"archival storage at {self.location} failed during {op}: {e}") from e

    def close(self) -> None:
        try:
            self._client.close()
        except Exception as e:  # closing must not hide the caller's own error
            logger.warning("closing archival store {}: {}", self.location, e)

    def __enter__(self) -> ArchivalStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _connect(path: str | Path | None, url: str | None) -> Any:
    import chromadb
    from chromadb.config import Settings

    settings = Settings(anonymized_telemetry=False)
    try:
        if url is not None:
            parsed = urlparse(url)
            if parsed.scheme not in ("http", "https") or not parsed.hostname:
                raise ConfigError(f"archival url must be http(s)://host[:port], got {url!r}")
            port = parsed.port or (443 if parsed.scheme == "https" else 8000)
            return chromadb.HttpClient(
                host=parsed.hostname, port=port, ssl=parsed.scheme == "https", settings=settings
            )
        Path(path).mkdir(parents=True, exist_ok=True)  # type: ignore[arg-type]
        return chromadb.PersistentClient(path=str(path), settings=settings)
    except ConfigError:
        raise
    except Exception as e:
        raise StoreError(f"cannot open Chroma at {url or path}: {e}") from e


def _where(
    tags: Sequence[str] | None, since: TimeLike | None, until: TimeLike | None, include_superseded: bool
) -> dict[str, Any] | None:
    clauses: list[dict[str, Any]] = []
    if tags is not None:
        tag_list = [tags] if isinstance(tags, str) else list(tags)
        if not tag_list:
            raise UsageError("tags filter is empty; pass None for no tag filter")
        keys = [{tag_key(t): True} for t in tag_list]
        clauses.append(keys[0] if len(keys) == 1 else {"$or": keys})
    lo = to_epoch(since, name="since") if since is not None else None
    hi = to_epoch(until, end_of_day=True, name="until") if until is not None else None
    check_range(lo, hi, ("since", "until"))
    if lo is not None:
        clauses.append({"created_at": {"$gte": lo}})
    if hi is not None:
        clauses.append({"created_at": {"$lte": hi}})
    if not include_superseded:
        clauses.append({"status": "current"})
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}
