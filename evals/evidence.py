"""What memory holds, read back through memgpt_lite's public storage calls and the agent's own tools.

`MemoryEvidence` opens a store with `AgentMemory` and answers layer 1's questions about it: the stored
record behind an id (archival passage or recall message), every archival record (for exact scans of
structured fields), the provenance chain under a record, and what the agent's `archival_memory_search`
tool shows on its first page for a question. Nothing here reads a case or decides an answer.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from memgpt_lite.agent import AgentConfig
from memgpt_lite.memory import AgentMemory
from memgpt_lite.storage.embeddings import Embedder
from memgpt_lite.storage.passages import Passage
from memgpt_lite.tools.memory_functions import archival_memory_search
from memgpt_lite.tools.registry import ToolContext

FIRST_PAGE = AgentConfig().page_size
"""The page an agent sees first: the agent loop's own page size."""
_HIT_ID = re.compile(r"^\[\S+ \S+ id=(\S+) ", re.MULTILINE)


@dataclass
class ProvenanceTrace:
    """Everything reachable from one item's provenance, and whether the chain ends in the session log."""

    root: str
    nodes: list[str] = field(default_factory=list)
    log_leaves: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    dead_ends: list[str] = field(default_factory=list)
    """Archival items with no provenance: the chain stops before reaching the log."""

    @property
    def resolves(self) -> bool:
        return not self.missing and not self.dead_ends and bool(self.log_leaves)


@dataclass(frozen=True)
class StoredRecord:
    """An item as storage returns it (archival passage or recall message)."""

    evidence_id: str
    store_id: str
    store: str
    content: str
    date: datetime
    meta: dict[str, Any]
    provenance: tuple[str, ...]
    status: str
    superseded_by: str | None
    tags: tuple[str, ...] = ()

    def values(self, key: str) -> tuple[str, ...]:
        v = self.meta.get(key)
        if isinstance(v, list | tuple):
            return tuple(str(x) for x in v)
        return (str(v),) if v not in (None, "") else ()

    @property
    def trusted(self) -> bool:
        return self.meta.get("trust", "trusted") == "trusted" and "quarantined" not in self.tags

    def identifiers(self) -> set[str]:
        """What the record is about, as stored fields: tickets, paths, routes, app version, day."""
        out = {*self.values("tickets"), *self.values("paths"), *self.values("routes")}
        out.update(self.values("app_version"))
        out.add(self.date.date().isoformat())
        return out


def _record_of_passage(p: Passage) -> StoredRecord:
    return StoredRecord(
        evidence_id=str(p.meta.get("evidence_id") or p.id), store_id=p.id, store="archival",
        content=p.content, date=p.created_at, meta=dict(p.meta), provenance=tuple(p.provenance),
        status=p.status, superseded_by=p.superseded_by, tags=tuple(p.tags),
    )  # fmt: skip


class MemoryEvidence:
    """One store, read record by record. Close it (or use `with`) when done."""

    def __init__(self, store: str | Path, embedder: Embedder, now: datetime | None = None) -> None:
        self.memory = AgentMemory.open(store, embedder=embedder, create=False)
        self.now = now

    def close(self) -> None:
        self.memory.close()

    def __enter__(self) -> MemoryEvidence:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def lookup(self, store_id: str) -> StoredRecord | None:
        """An item by store id: archival passage first, else a recall message."""
        p = self.memory.archival.get(store_id)
        if p is not None:
            return _record_of_passage(p)
        if store_id not in self.memory.recall:
            return None
        m = self.memory.recall.get([store_id])[0]
        return StoredRecord(
            evidence_id=str(m.meta.get("evidence_id") or m.id), store_id=m.id, store="recall",
            content=m.text, date=m.created_at, meta=dict(m.meta), provenance=(), status="current",
            superseded_by=None,
        )  # fmt: skip

    def archival_records(self) -> Iterator[StoredRecord]:
        for p in self.memory.archival.iter_passages():
            yield _record_of_passage(p)

    def first_page(self, question: str) -> list[str]:
        """The ids the agent's `archival_memory_search` tool shows first for the question."""
        ctx = ToolContext(memory=self.memory, page_size=FIRST_PAGE)
        return _HIT_ID.findall(archival_memory_search(ctx, question))

    def trace(self, rec: StoredRecord) -> ProvenanceTrace:
        """Follow provenance breadth-first until every branch reaches the raw session log (recall)."""
        t = ProvenanceTrace(root=rec.evidence_id)
        if rec.store == "recall":
            t.log_leaves.append(rec.evidence_id)
            return t
        queue: deque[str] = deque(rec.provenance)
        if not rec.provenance:
            t.dead_ends.append(rec.evidence_id)
        visited: set[str] = set()
        while queue:
            sid = queue.popleft()
            if sid in visited:
                continue
            visited.add(sid)
            node = self.lookup(sid)
            if node is None:
                t.missing.append(sid)
                continue
            t.nodes.append(node.evidence_id)
            if node.store == "recall":
                t.log_leaves.append(node.evidence_id)
            elif not node.provenance:
                t.dead_ends.append(node.evidence_id)
            else:
                queue.extend(node.provenance)
        return t
