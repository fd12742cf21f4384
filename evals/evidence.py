"""Ask memory what evidence it holds — through the retrieval interface an agent uses.

`MemoryEvidence` opens a store with `AgentMemory` and asks archival storage with the same
`ArchivalStore.search` call that `archival_memory_search` makes for an agent (the question itself, then
one search per identifier the question names, as an agent would look a ticket up). Everything reported
(status, superseded_by, support layer, claim, dates, tickets, paths) is read back from what storage
returns; nothing comes from the fixture's records or from a case. Provenance is followed with the
stores' public `get` calls.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from evals.sufficiency import INTENT_CLAIMS, Candidate, QuestionAnalysis, analyse_question
from memgpt_lite.memory import AgentMemory
from memgpt_lite.storage.embeddings import Embedder
from memgpt_lite.storage.passages import Passage

SEARCH_PAGE_SIZE = 10


@dataclass(frozen=True)
class Query:
    """One archival search, as an agent would issue it with `archival_memory_search`."""

    query: str
    tags: list[str] | None = None
    since: str | None = None
    until: str | None = None

    def describe(self) -> str:
        extra = [f"tags={self.tags}"] if self.tags else []
        extra += [f"date={self.since}"] if self.since else []
        return f"{self.query!r}" + (f" ({', '.join(extra)})" if extra else "")


def plan_queries(qa: QuestionAnalysis) -> list[Query]:
    """The question as asked; narrowed to the claim labels its intent admits and to each date it names;
    then each identifier it names on its own (looking a ticket up by its id)."""
    a = qa.anchors
    out = [Query(qa.question)]
    if qa.intent != "any":
        out.append(Query(qa.question, tags=sorted(INTENT_CLAIMS[qa.intent])))
    out += [Query(qa.question, since=d, until=d) for d in sorted(a.dates)]
    out += [Query(x) for x in (*sorted(a.tickets), *sorted(a.paths), *sorted(a.routes))]
    return out


@dataclass
class Retrieved:
    analysis: QuestionAnalysis
    queries: list[Query]
    candidates: list[Candidate]


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
    """An item as storage returns it (archival passage or recall message), for fidelity checks."""

    evidence_id: str
    store: str
    content: str
    date: datetime
    meta: dict[str, Any]
    provenance: tuple[str, ...]
    status: str
    superseded_by: str | None


def _tuple(v: Any) -> tuple[str, ...]:
    return tuple(str(x) for x in v) if isinstance(v, list | tuple) else ()


def candidate_from(p: Passage, score: float, cosine: float, *, rank: int, eid: dict[str, str]) -> Candidate:
    m = p.meta
    return Candidate(
        evidence_id=eid.get(p.id, p.id),
        store_id=p.id,
        rank=rank,
        score=score,
        cosine=cosine,
        content=p.content,
        status=p.status,
        superseded_by=eid.get(p.superseded_by, p.superseded_by) if p.superseded_by else None,
        support_layer=str(m.get("support_layer", "")),
        claim=str(m.get("claim", "")),
        kind=str(m.get("kind", "")),
        date=p.created_at,
        source=str(m.get("source", "")),
        author=str(m.get("author", "")),
        app_version=str(m.get("app_version", "")),
        tickets=_tuple(m.get("tickets")),
        paths=_tuple(m.get("paths")),
        routes=_tuple(m.get("routes")),
        bug_status=m.get("bug_status"),
        fingerprint=m.get("fingerprint"),
        provenance=tuple(p.provenance),
    )


class MemoryEvidence:
    """One store, asked question by question. Close it (or use `with`) when done."""

    def __init__(self, store: str | Path, embedder: Embedder, now: datetime | None = None) -> None:
        self.memory = AgentMemory.open(store, embedder=embedder, create=False)
        self.now = now
        self._eid: dict[str, str] = {}

    def close(self) -> None:
        self.memory.close()

    def __enter__(self) -> MemoryEvidence:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _evidence_id(self, p: Passage) -> str:
        eid = str(p.meta.get("evidence_id") or p.id)
        self._eid[p.id] = eid
        return eid

    def ask(self, question: str, page_size: int = SEARCH_PAGE_SIZE) -> Retrieved:
        """Search archival memory for the question, then for each identifier it names."""
        qa = analyse_question(question)
        seen: dict[str, tuple[Passage, float, float]] = {}
        order: list[str] = []
        queries = plan_queries(qa)
        for q in queries:
            page = self.memory.archival.search(
                q.query, page_size=page_size, now=self.now, tags=q.tags, since=q.since, until=q.until
            )
            for hit in page.items:
                if hit.passage.id not in seen:
                    seen[hit.passage.id] = (hit.passage, hit.score, hit.cosine)
                    order.append(hit.passage.id)
        for pid in order:
            self._evidence_id(seen[pid][0])
        # superseded_by names a passage that may not have been retrieved: ask storage for its evidence id.
        for pid in order:
            sup = seen[pid][0].superseded_by
            if sup and sup not in self._eid:
                got = self.memory.archival.get(sup)
                self._eid[sup] = self._evidence_id(got) if got else sup
        cands = [candidate_from(*seen[pid], rank=n, eid=self._eid) for n, pid in enumerate(order)]
        return Retrieved(analysis=qa, queries=queries, candidates=cands)

    def lookup(self, store_id: str) -> StoredRecord | None:
        """An item by store id: archival passage first, else a recall message."""
        p = self.memory.archival.get(store_id)
        if p is not None:
            return StoredRecord(
                evidence_id=self._evidence_id(p), store="archival", content=p.content, date=p.created_at,
                meta=dict(p.meta), provenance=tuple(p.provenance), status=p.status,
                superseded_by=p.superseded_by,
            )  # fmt: skip
        if store_id not in self.memory.recall:
            return None
        m = self.memory.recall.get([store_id])[0]
        return StoredRecord(
            evidence_id=str(m.meta.get("evidence_id") or m.id), store="recall", content=m.text,
            date=m.created_at, meta=dict(m.meta), provenance=(), status="current", superseded_by=None,
        )  # fmt: skip

    def trace(self, c: Candidate) -> ProvenanceTrace:
        """Follow provenance breadth-first until every branch reaches the raw session log (recall)."""
        t = ProvenanceTrace(root=c.evidence_id)
        queue: deque[str] = deque(c.provenance)
        if not c.provenance:
            t.dead_ends.append(c.evidence_id)
        visited: set[str] = set()
        while queue:
            sid = queue.popleft()
            if sid in visited:
                continue
            visited.add(sid)
            rec = self.lookup(sid)
            if rec is None:
                t.missing.append(sid)
                continue
            t.nodes.append(rec.evidence_id)
            if rec.store == "recall":
                t.log_leaves.append(rec.evidence_id)
            elif not rec.provenance:
                t.dead_ends.append(rec.evidence_id)
            else:
                queue.extend(rec.provenance)
        return t
