"""Chroma plumbing for archival storage: opening a client, and our filters as a Chroma `where`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from memgpt_lite.errors import ConfigError, StoreError, UsageError
from memgpt_lite.storage.passages import tag_key
from memgpt_lite.storage.times import TimeLike, check_range, to_epoch


def connect(path: str | Path | None, url: str | None) -> Any:
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


def where_filter(
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
