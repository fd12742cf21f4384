"""Layer 1: deterministic evidence retention.

For each case, memory is asked (through `evals.evidence`, the agent's retrieval interface) what it
holds; the case-blind sufficiency rule (`evals.sufficiency`) picks what would support an answer; only
then are the case's lists consulted, to judge. Checks, all on ids, labels, dates and relations — no
prose is judged and no gold answer exists:

- mode and support layer match the case (`no_match` when nothing sufficient is held);
- every supporting item is in `evidence`, none is in `must_not_reuse`;
- retrieved items come back with the status and `superseded_by` the fixture gave them;
- dates, sources, tickets, paths, claim labels (root cause vs symptom) and layers survive storage;
- each supporting item's provenance chain resolves down to the raw session log;
- the case names only ids that exist in the fixture.

Each case runs on a fresh copy of the store: retrieval updates `last_accessed_at`, and one case must not
change the ranking another case sees. The store given by the user is never written to.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evals.case_schema import Case
from evals.evidence import MemoryEvidence, ProvenanceTrace, Query, StoredRecord
from evals.fixture import FixtureManifest, make_embedder, read_manifest
from evals.fixture_data import FixtureItem
from evals.sufficiency import Candidate, Decision, decide
from memgpt_lite.errors import StoreError
from memgpt_lite.storage.embeddings import Embedder

_FIELDS = (
    "kind",
    "claim",
    "support_layer",
    "source",
    "author",
    "app_version",
    "workflow",
    "bug_status",
    "fingerprint",
)
_LIST_FIELDS = ("tickets", "paths", "routes")


@dataclass
class CaseResult:
    case: Case
    decision: Decision
    candidates: list[Candidate]
    queries: list[Query]
    traces: list[ProvenanceTrace]
    violations: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.violations

    @property
    def evidence_found(self) -> list[str]:
        return [c.evidence_id for c in self.decision.support]

    @property
    def rejected_must_not_reuse(self) -> list[str]:
        """Plausible-but-wrong items memory returned and the rule refused to use."""
        bad = set(self.case.must_not_reuse)
        return [r.evidence_id for r in self.decision.rejected if r.evidence_id in bad]

    def summary(self) -> dict[str, Any]:
        c = self.case
        return {
            "id": c.id,
            "category": c.category,
            "passed": self.passed,
            "expected_mode": c.expected_mode,
            "support_layer": c.support_layer,
            "evidence_found": self.evidence_found,
            "violations": self.violations,
        }

    def detail(self) -> dict[str, Any]:
        reasons = {r.evidence_id: r.reason for r in self.decision.rejected}
        support = {c.evidence_id for c in self.decision.support}
        return {
            **self.summary(),
            "version": self.case.version,
            "question": self.case.question,
            "allowed_evidence": list(self.case.evidence),
            "must_not_reuse": list(self.case.must_not_reuse),
            "found_mode": self.decision.mode,
            "found_support_layer": self.decision.support_layer,
            "intent": self.decision_intent,
            "queries": [q.describe() for q in self.queries],
            "rejected_must_not_reuse": self.rejected_must_not_reuse,
            "candidates": [
                {
                    "id": x.evidence_id,
                    "rank": x.rank,
                    "score": round(x.score, 4),
                    "status": x.status,
                    "superseded_by": x.superseded_by,
                    "support_layer": x.support_layer,
                    "claim": x.claim,
                    "date": x.date.isoformat(),
                    "source": x.source,
                    "tickets": list(x.tickets),
                    "paths": list(x.paths),
                    "app_version": x.app_version,
                    "use": "support" if x.evidence_id in support else "rejected",
                    "reason": reasons.get(x.evidence_id, ""),
                    "case_list": "evidence"
                    if x.evidence_id in self.case.evidence
                    else "must_not_reuse"
                    if x.evidence_id in self.case.must_not_reuse
                    else "",
                }
                for x in self.candidates
            ],
            "provenance": [
                {
                    "id": t.root,
                    "resolves": t.resolves,
                    "chain": t.nodes,
                    "log": t.log_leaves,
                    "missing": t.missing,
                    "dead_ends": t.dead_ends,
                }  # fmt: skip
                for t in self.traces
            ],
        }

    decision_intent: str = ""


def _fidelity(rec: StoredRecord, item: FixtureItem) -> list[str]:
    """What changed between the generator's record and what storage gave back."""
    out: list[str] = []
    m = rec.meta
    if rec.content != item.content:
        out.append(f"{item.id}: content changed in storage")
    if rec.date != item.date:
        out.append(
            f"{item.id}: date {rec.date.isoformat()} in storage, {item.date.isoformat()} in the fixture"
        )
    for f in _FIELDS:
        if m.get(f) != getattr(item, f):
            out.append(f"{item.id}: {f} {m.get(f)!r} in storage, {getattr(item, f)!r} in the fixture")
    for f in _LIST_FIELDS:
        if tuple(m.get(f) or ()) != getattr(item, f):
            out.append(f"{item.id}: {f} {m.get(f)!r} in storage, {list(getattr(item, f))!r} in the fixture")
    if rec.store == "archival":
        if rec.provenance != item.provenance:
            out.append(
                f"{item.id}: provenance {list(rec.provenance)} in storage, {list(item.provenance)} in the fixture"
            )
        if rec.status != item.status or rec.superseded_by != item.superseded_by:
            out.append(
                f"{item.id}: came back {rec.status} (superseded_by {rec.superseded_by}); the fixture has it "
                f"{item.status} (superseded_by {item.superseded_by})"
            )
    return out


def judge(case: Case, ev: MemoryEvidence, manifest: FixtureManifest) -> CaseResult:
    retrieved = ev.ask(case.question)
    decision = decide(retrieved.analysis, retrieved.candidates)
    traces = [ev.trace(c) for c in decision.support]
    res = CaseResult(case, decision, retrieved.candidates, retrieved.queries, traces)
    res.decision_intent = retrieved.analysis.intent
    v = res.violations
    known = manifest.by_id()

    for eid in (*case.evidence, *case.must_not_reuse):
        if eid not in known:
            v.append(f"case names {eid}, which the fixture does not contain")
    if decision.mode != case.expected_mode:
        if decision.mode == "no_match":
            v.append(f"mode: memory holds nothing sufficient, the case expects {case.expected_mode}")
        else:
            v.append(f"mode: memory would answer from {res.evidence_found}, the case expects no_match")
    if decision.support_layer != case.support_layer:
        v.append(
            f"support layer: memory supports at {decision.support_layer}, the case expects {case.support_layer}"
        )
    for c in decision.support:
        if c.evidence_id in case.must_not_reuse:
            v.append(
                f"mis-reuse: {c.evidence_id} is in must_not_reuse but would support the answer as current"
            )
        elif c.evidence_id not in case.evidence:
            v.append(f"support outside the allowed evidence: {c.evidence_id}")
    for t in traces:
        if not t.resolves:
            why = (
                f"missing {t.missing}"
                if t.missing
                else f"stops at {t.dead_ends}"
                if t.dead_ends
                else "no log entry"
            )
            v.append(f"provenance of {t.root} does not resolve to the session log ({why})")
    checked: set[str] = set()
    for c in retrieved.candidates:
        item = known.get(c.evidence_id)
        if item is None:
            v.append(f"memory returned {c.evidence_id}, which the fixture does not contain")
            continue
        rec = ev.lookup(c.store_id)
        if rec is not None:
            v.extend(_fidelity(rec, item))
        if c.status != item.status or c.superseded_by != item.superseded_by:
            v.append(
                f"{c.evidence_id}: search reports {c.status}/{c.superseded_by}, fixture {item.status}/{item.superseded_by}"
            )
        checked.add(c.evidence_id)
    for t in traces:
        for node in t.nodes:
            item = known.get(node)
            if node in checked or item is None:
                continue
            rec = ev.lookup(node)
            if rec is not None:
                v.extend(_fidelity(rec, item))
            checked.add(node)
    return res


@dataclass
class Layer1Run:
    cases_dir: str
    store: str
    fixture_version: int
    embedder: str
    results: list[CaseResult]

    def as_json(self) -> dict[str, Any]:
        return {"cases_dir": self.cases_dir, "cases": [r.summary() for r in self.results]}

    def report_json(self) -> dict[str, Any]:
        return {
            "cases_dir": self.cases_dir,
            "store": self.store,
            "fixture_version": self.fixture_version,
            "embedder": self.embedder,
            "cases": [r.detail() for r in self.results],
        }


def run_layer1(
    cases: list[Case],
    store: str | Path,
    cases_dir: str,
    embedder: Embedder | None = None,
    progress: Callable[[Case], None] | None = None,
) -> Layer1Run:
    """Judge every case against `store` (a store written by `evals.fixture`; it is only read)."""
    manifest = read_manifest(store)
    emb = embedder or make_embedder(manifest.embedder)
    results = []
    with tempfile.TemporaryDirectory(prefix="evals-layer1-") as tmp:
        for n, case in enumerate(cases):
            copy = Path(tmp) / f"case-{n}"
            shutil.copytree(store, copy)
            try:
                with MemoryEvidence(copy, emb, now=manifest.as_of) as ev:
                    results.append(judge(case, ev, manifest))
            except StoreError as e:  # name the user's store, not the scratch copy it was found in
                raise StoreError(str(e).replace(str(copy), str(store))) from e
            shutil.rmtree(copy, ignore_errors=True)
            if progress:
                progress(case)
    return Layer1Run(str(cases_dir), str(store), manifest.fixture_version, manifest.embedder, results)
