"""Chroma plumbing for archival storage: opening a client, and our filters as a Chroma `where`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import numpy as np

from memgpt_lite.errors import ConfigError, StoreError, UsageError
from memgpt_lite.log import logger
from memgpt_lite.storage.chroma_ef import ChromaEmbeddingFunction
from memgpt_lite.storage.passages import tag_key
from memgpt_lite.storage.times import TimeLike, check_range, to_epoch

_SETTINGS: Any = None


def _settings() -> Any:
    """A fresh copy of one `Settings`: building one reads the environment through pydantic-settings
    (~4 ms, once per open store), a copy costs microseconds; the client writes its path into its copy."""
    global _SETTINGS
    from chromadb.config import Settings

    if _SETTINGS is None:
        _SETTINGS = Settings(anonymized_telemetry=False)
    return _SETTINGS.model_copy()


def connect(path: str | Path | None, url: str | None) -> Any:
    import chromadb

    settings = _settings()
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
    except BaseException as e:
        if not is_panic(e):
            raise
        raise StoreError(f"cannot open Chroma at {url or path}: it is damaged (Chroma crashed: {e})") from e


def is_panic(err: BaseException) -> bool:
    """Whether `err` is a Rust panic surfacing through pyo3 (`PanicException`, a `BaseException`)."""
    return type(err).__name__ == "PanicException"


SEARCH_EF = 400


def open_collection(client: Any, name: str, embedder: Any, fmt: int) -> Any:
    """Get or create our collection and check it holds vectors of this embedder in a format we read."""
    wanted = {
        "hnsw:space": "cosine",
        # Chroma's default (100) found 76% of the true top 10 on a 100k hashing-vector corpus;
        # 400 finds 91% for ~1 ms more (benchmarks/storage.py reports the agreement).
        "hnsw:search_ef": SEARCH_EF,
        "memgpt_lite_format": fmt,
        "embedder": embedder.name,
        "dim": embedder.dim,
    }
    try:
        col = client.get_or_create_collection(
            name, metadata=wanted, embedding_function=ChromaEmbeddingFunction(embedder)
        )
    except Exception as e:  # Chroma raises many types for a broken store; ours is one clear error
        raise StoreError(f"cannot open collection {name!r}: {e}") from e
    except BaseException as e:
        if not is_panic(e):
            raise
        raise StoreError(
            f"cannot open collection {name!r}: the store is damaged (Chroma crashed: {e})"
        ) from e
    meta = col.metadata or {}
    if meta.get("embedder") != embedder.name or meta.get("dim") != embedder.dim:
        raise StoreError(
            f"collection {name!r} holds vectors of embedder {meta.get('embedder')!r} (dim {meta.get('dim')}); "
            f"open it with that embedder, not {embedder.name!r}"
        )
    if int(meta.get("memgpt_lite_format", 0)) > fmt:
        raise StoreError(f"collection {name!r} has a newer format; upgrade memgpt_lite")
    hnsw = (getattr(col, "configuration_json", None) or {}).get("hnsw") or {}
    if hnsw.get("ef_search", SEARCH_EF) < SEARCH_EF:  # made by an older version: takes effect on reopen
        try:
            col.modify(configuration={"hnsw": {"ef_search": SEARCH_EF}})
        except Exception as e:  # a tuning knob; never fail opening over it
            logger.warning("cannot raise ef_search of collection {!r}: {}", name, e)
    return col


@dataclass(frozen=True)
class PassageFilter:
    """Search filters, usable both as a Chroma `where` and as a predicate on returned metadata."""

    tags: tuple[str, ...] | None = None
    lo: float | None = None
    hi: float | None = None
    current_only: bool = False

    @classmethod
    def parse(
        cls,
        tags: Sequence[str] | str | None,
        since: TimeLike | None,
        until: TimeLike | None,
        include_superseded: bool,
    ) -> PassageFilter:
        tag_list = None
        if tags is not None:
            tag_list = tuple([tags] if isinstance(tags, str) else list(tags))
            if not tag_list or not all(isinstance(t, str) and t.strip() for t in tag_list):
                raise UsageError("tags filter must be a non-empty list of tags; pass None for no tag filter")
        lo = to_epoch(since, name="since") if since is not None else None
        hi = to_epoch(until, end_of_day=True, name="until") if until is not None else None
        check_range(lo, hi, ("since", "until"))
        return cls(tag_list, lo, hi, not include_superseded)

    @property
    def empty(self) -> bool:
        return self.tags is None and self.lo is None and self.hi is None and not self.current_only

    def where(self) -> dict[str, Any] | None:
        clauses: list[dict[str, Any]] = []
        if self.tags is not None:
            keys = [{tag_key(t): True} for t in self.tags]
            clauses.append(keys[0] if len(keys) == 1 else {"$or": keys})
        if self.lo is not None:
            clauses.append({"created_at": {"$gte": self.lo}})
        if self.hi is not None:
            clauses.append({"created_at": {"$lte": self.hi}})
        if self.current_only:
            clauses.append({"status": "current"})
        if not clauses:
            return None
        return clauses[0] if len(clauses) == 1 else {"$and": clauses}

    def matches(self, meta: dict[str, Any]) -> bool:
        if self.tags is not None and not any(meta.get(tag_key(t)) is True for t in self.tags):
            return False
        created = meta.get("created_at", 0.0)
        if (self.lo is not None and created < self.lo) or (self.hi is not None and created > self.hi):
            return False
        return not (self.current_only and meta.get("status") != "current")


def nearest(
    chroma: Callable[..., Any],
    qvec: np.ndarray,
    flt: PassageFilter,
    want: int,
    total: int,
    everything: int,
    max_overfetch: int,
) -> tuple[list[str], list[dict[str, Any]], list[float]]:
    """The `want` nearest passages that pass the filter: (ids, metadatas, cosine distances), for a
    Chroma without a local passage index (a server).

    `total` passages pass the filter out of `everything`. Chroma filters metadata slowly on large
    collections (0.1-0.5 s at 100k), so with a filter we first over-fetch nearest neighbours without
    it, sized by the filter's share of the collection, and filter them by their metadata here; only
    if too few survive does Chroma filter exactly."""
    include = ["metadatas", "distances"]
    if not flt.empty:
        fetch = min(everything, int(want * everything / max(total, 1) * 1.5) + 10)
        if fetch <= max_overfetch:
            res = chroma("query", query_embeddings=[qvec], n_results=fetch, include=include)
            kept = [
                (i, m, d)
                for i, m, d in zip(res["ids"][0], res["metadatas"][0], res["distances"][0], strict=True)
                if flt.matches(m)
            ][:want]
            if len(kept) >= want or fetch >= everything:
                return [r[0] for r in kept], [r[1] for r in kept], [r[2] for r in kept]
    res = chroma("query", query_embeddings=[qvec], n_results=want, where=flt.where(), include=include)
    return res["ids"][0], res["metadatas"][0], res["distances"][0]
