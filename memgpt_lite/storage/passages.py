"""Archival passage models and their encoding as Chroma metadata (scalars only)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from memgpt_lite.errors import StoreError
from memgpt_lite.retrieval import check_importance
from memgpt_lite.storage.times import TimeLike, from_epoch, to_datetime

MAX_TAG_LEN = 64


class Passage(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    content: str
    importance: int = Field(ge=1, le=10)
    tags: list[str] = Field(default_factory=list)
    provenance: list[str] = Field(default_factory=list)
    """Ids of the messages or pages this passage came from."""
    created_at: datetime
    last_accessed_at: datetime
    status: Literal["current", "superseded"] = "current"
    superseded_by: str | None = None
    superseded_at: datetime | None = None
    supersedes: str | None = None
    meta: dict[str, Any] = Field(default_factory=dict)


class ScoredPassage(BaseModel):
    passage: Passage
    score: float
    """Weighted sum of the three normalised components below."""
    recency: float
    importance: float
    relevance: float
    cosine: float = 0.0
    """The raw cosine similarity to the query (before normalisation)."""
    bm25: float = 0.0
    """The raw bm25 of the query's words (higher is better; 0 when none matches or without the
    passage index, i.e. with a Chroma server)."""


class NewPassage(BaseModel):
    """What `insert_many` takes per passage (a dict with these keys works too)."""

    model_config = ConfigDict(extra="forbid")

    content: str
    importance: int | None = None
    tags: list[str] | None = None
    provenance: list[str] | None = None
    meta: dict[str, Any] | None = None
    created_at: datetime | None = None
    supersedes: str | None = None
    id: str | None = None

    @field_validator("content")
    @classmethod
    def _content(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("content is empty")
        return v

    @field_validator("importance", mode="before")
    @classmethod
    def _importance(cls, v: object) -> int | None:
        return None if v is None else check_importance(v)

    @field_validator("tags", mode="before")
    @classmethod
    def _tags(cls, v: object) -> list[str] | None:
        if v is None:
            return None
        items = [v] if isinstance(v, str) else list(v)  # type: ignore[call-overload]
        out: list[str] = []
        for t in items:
            if not isinstance(t, str) or not t.strip() or len(t.strip()) > MAX_TAG_LEN:
                raise ValueError(
                    f"each tag must be a non-empty string of at most {MAX_TAG_LEN} characters, got {t!r}"
                )
            if t.strip() not in out:
                out.append(t.strip())
        return out

    @field_validator("provenance", mode="before")
    @classmethod
    def _provenance(cls, v: object) -> list[str] | None:
        if v is None:
            return None
        items = [v] if isinstance(v, str) else list(v)  # type: ignore[call-overload]
        if not all(isinstance(p, str) and p for p in items):
            raise ValueError("provenance must be a list of non-empty ids")
        return items

    @field_validator("meta")
    @classmethod
    def _meta(cls, v: dict[str, Any] | None) -> dict[str, Any] | None:
        if v is not None:
            try:
                json.dumps(v)
            except (TypeError, ValueError) as e:
                raise ValueError(f"meta must be JSON-serialisable: {e}") from e
        return v

    @field_validator("created_at", mode="before")
    @classmethod
    def _created(cls, v: TimeLike | None) -> datetime | None:
        return None if v is None else to_datetime(v, name="created_at")


def tag_key(tag: str) -> str:
    return "tag:" + tag.strip()


def encode(p: Passage) -> dict[str, Any]:
    """Chroma metadata for a passage. Chroma stores one row per metadata key and reading them is the
    main cost of a search, so only what filters or scoring need gets its own key; the rest travels
    as one JSON `record`."""
    record = {
        "tags": p.tags,
        "provenance": p.provenance,
        "meta": p.meta,
        "superseded_by": p.superseded_by,
        "superseded_at": p.superseded_at.timestamp() if p.superseded_at else None,
        "supersedes": p.supersedes,
    }
    meta: dict[str, Any] = {
        "importance": p.importance,
        "created_at": p.created_at.timestamp(),
        "last_accessed_at": p.last_accessed_at.timestamp(),
        "status": p.status,
        "record": json.dumps(record, ensure_ascii=False),
    }
    for t in p.tags:
        meta[tag_key(t)] = True
    return meta


def decode(pid: str, document: str | None, m: dict[str, Any] | None) -> Passage:
    if not m or document is None:
        raise StoreError(f"archival passage {pid} has no content or metadata; the collection is corrupt")
    try:
        record = json.loads(m["record"])
        return Passage(
            id=pid,
            content=document,
            importance=int(m["importance"]),
            tags=record["tags"],
            provenance=record["provenance"],
            created_at=from_epoch(float(m["created_at"])),
            last_accessed_at=from_epoch(float(m["last_accessed_at"])),
            status=m["status"],
            superseded_by=record["superseded_by"],
            superseded_at=from_epoch(record["superseded_at"])
            if record["superseded_at"] is not None
            else None,
            supersedes=record["supersedes"],
            meta=record["meta"],
        )
    except (KeyError, ValueError, TypeError) as e:
        raise StoreError(f"archival passage {pid} has corrupt metadata: {e}") from e
