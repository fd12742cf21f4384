"""Layer 1: deterministic evidence retention — an audit of what memory keeps, keyed on each case's ids.

Layer 1 decides no answer: it reads no intent from the question and uses no word list. For each case it
asks memory (through `evals.evidence`) about the ids the case declares and checks, on stored ids,
fields, times and relations only:

- every `evidence` id resolves in memory, and its stored fields (content, date, source, author, kind,
  claim, support layer, app version, workflow, tickets, paths, routes, bug status, fingerprint, trust,
  provenance, supersession) equal the fixture generator's record (`evals_fixture.json`);
- in a `memory_answer` case the evidence is current support: not superseded, of trusted origin, some of
  it at the declared support layer, and it carries what the question names (`about`, else the
  identifiers written in the question: at least one of them, or it shares a ticket with a record the
  case rejects on its own stored grounds that carries one);
- every `must_not_reuse` id memory holds carries what makes it non-reusable: a superseded marker whose
  successor resolves, a symptom / hypothesis / retest-due label, an untrusted origin, or — against the
  evidence — another workflow, ticket, path, app version or a lower support layer;
- each evidence item's provenance chain resolves, through the stores' `get`, to the raw session log;
- in a `no_match` case with `about`, no current trusted record carries every `about` identifier;
- the case names only ids the fixture holds.

Retrieval is measured, not judged: is each evidence id on the first page the agent's own
`archival_memory_search` shows for the question? A miss is a finding in the report, not a violation.

Each case runs on a fresh copy of the store (a search updates `last_accessed_at`); the given store is
never written to.
"""

from __future__ import annotations

import shutil
import tempfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evals.case_schema import Case
from evals.evidence import MemoryEvidence, ProvenanceTrace, StoredRecord
from evals.fixture import FixtureManifest, make_embedder, read_manifest
from evals.identifiers import ISO_DATE, VERSION, named_identifiers
from evals.records_schema import FixtureItem
from memgpt_lite.errors import StoreError
from memgpt_lite.storage.durability import scratch_writes
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
_OPTIONAL_FIELDS = ("trust", "renamed_from")
"""Fields fixture version 1 did not store: compared only when the store has them."""
_LIST_FIELDS = ("tickets", "paths", "routes")
_PERSON = "user_authored_decision"


def _point_in_time(identifier: str) -> bool:
    """An app version or an ISO day (what dates or versions the subject, not the subject itself)."""
    return bool(VERSION.fullmatch(identifier) or ISO_DATE.fullmatch(identifier))


@dataclass
class CaseResult:
    case: Case
    held: dict[str, StoredRecord]
    """Every case id memory holds, by evidence id."""
    traces: list[ProvenanceTrace]
    markers: dict[str, list[str]]
    """Per held must_not_reuse id: what sets it apart (empty when nothing does)."""
    about: list[str]
    about_source: str
    first_page: list[str]
    violations: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.violations

    @property
    def evidence_found(self) -> list[str]:
        return [e for e in self.case.evidence if e in self.held]

    @property
    def retrieval(self) -> dict[str, Any]:
        wanted = [e for e in self.case.evidence if e in self.held and self.held[e].store == "archival"]
        found = [e for e in wanted if e in self.first_page]
        return {
            "first_page": self.first_page,
            "evidence": wanted,
            "found": found,
            "missed": [e for e in wanted if e not in found],
            "recall": round(len(found) / len(wanted), 3) if wanted else None,
        }

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
        return {
            **self.summary(),
            "version": self.case.version,
            "question": self.case.question,
            "allowed_evidence": list(self.case.evidence),
            "evidence_groups": [{g.mode: list(g.ids)} for g in self.case.required_groups()],
            "must_not_reuse": list(self.case.must_not_reuse),
            "about": self.about,
            "about_source": self.about_source,
            "findings": self.findings,
            "retrieval": self.retrieval,
            "records": [
                {
                    "id": eid,
                    "case_list": "evidence" if eid in self.case.evidence else "must_not_reuse",
                    "store": r.store,
                    "status": r.status,
                    "superseded_by": r.superseded_by,
                    "support_layer": r.meta.get("support_layer"),
                    "claim": r.meta.get("claim"),
                    "trust": r.meta.get("trust", "trusted"),
                    "date": r.date.isoformat(),
                    "source": r.meta.get("source"),
                    "tickets": list(r.values("tickets")),
                    "paths": list(r.values("paths")),
                    "app_version": r.meta.get("app_version"),
                    "markers": self.markers.get(eid, []),
                }
                for eid, r in self.held.items()
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


def fidelity(rec: StoredRecord, item: FixtureItem) -> list[str]:
    """What changed between the generator's record and what storage gave back."""
    out: list[str] = []
    m = rec.meta
    if rec.content != item.content:
        out.append(f"{item.id}: content changed in storage")
    if rec.date != item.date:
        out.append(
            f"{item.id}: date {rec.date.isoformat()} in storage, {item.date.isoformat()} in the fixture"
        )
    for f in (*_FIELDS, *(f for f in _OPTIONAL_FIELDS if f in m)):
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


def own_markers(rec: StoredRecord) -> list[str]:
    """What makes a record unfit as current support on its own: stored labels and relations."""
    out = []
    if rec.status == "superseded":
        out.append(f"superseded by {rec.superseded_by}")
    claim = rec.meta.get("claim")
    if claim in ("symptom", "hypothesis"):
        out.append(f"claim {claim}")
    if rec.meta.get("bug_status") == "needs_retest":
        out.append("retest due")
    if not rec.trusted:
        out.append("untrusted origin")
    return out


def relative_markers(rec: StoredRecord, evidence: list[StoredRecord]) -> list[str]:
    """What sets a record apart from the case's evidence, field by field."""
    if not evidence:
        return []
    out = []
    for key, label in (("workflow", "another workflow"), ("app_version", "another app version")):
        mine = set(rec.values(key))
        if mine and not mine & {v for e in evidence for v in e.values(key)}:
            out.append(f"{label} ({', '.join(sorted(mine))})")
    for key, label in (("tickets", "other tickets"), ("paths", "other paths")):
        mine = set(rec.values(key))
        if mine and not mine & {v for e in evidence for v in e.values(key)}:
            out.append(f"{label} ({', '.join(sorted(mine))})")
    if rec.meta.get("support_layer") != _PERSON and any(
        e.meta.get("support_layer") == _PERSON for e in evidence
    ):
        out.append("an agent's inference where the evidence is a person's")
    return out


def audit(case: Case, ev: MemoryEvidence, manifest: FixtureManifest) -> CaseResult:
    known = manifest.by_id()
    held = {eid: rec for eid in (*case.evidence, *case.must_not_reuse) if (rec := ev.lookup(eid))}
    if case.about:
        about, about_source = list(case.about), "case"
    else:
        named = named_identifiers(case.question)
        about, about_source = [*named.tickets, *named.paths, *named.routes, *named.dates], "question"
    res = CaseResult(case, held, [], {}, about, about_source, ev.first_page(case.question))
    v = res.violations

    for eid in (*case.evidence, *case.must_not_reuse):
        if eid not in known:
            v.append(f"case names {eid}, which the fixture does not contain")
    checked: set[str] = set()
    for eid, rec in held.items():
        if eid in known:
            v.extend(fidelity(rec, known[eid]))
            checked.add(eid)

    evidence = [held[e] for e in case.evidence if e in held]
    for eid in case.evidence:
        if eid not in held:
            v.append(f"evidence {eid} is not in memory")
    if case.expected_mode == "memory_answer":
        for rec in evidence:
            if rec.status == "superseded":
                v.append(
                    f"evidence {rec.evidence_id} is superseded by {rec.superseded_by}: not current support"
                )
            if not rec.trusted:
                v.append(f"evidence {rec.evidence_id} has an untrusted origin ({rec.meta.get('source')})")
        layers = {str(r.meta.get("support_layer")) for r in evidence}
        if evidence and case.support_layer not in layers:
            v.append(
                f"support layer: the case declares {case.support_layer}; its evidence is {sorted(layers)}"
            )
        carried = {x for r in evidence for x in r.identifiers()}
        # The question may name what only a record the case rejects on its own stored grounds carries (a
        # guess about app/x.py, page text blaming it, for ticket T): memory links the evidence to it
        # through the ticket both carry. That stored relation counts; anything looser would let a
        # swapped case pass.
        evidence_tickets = {t for e in evidence for t in e.values("tickets")}
        rejected = [
            rec
            for eid in case.must_not_reuse
            if (rec := held.get(eid)) is not None
            and own_markers(rec)
            and set(rec.values("tickets")) & evidence_tickets
        ]
        linked_ids = {x for rec in rejected for x in rec.identifiers()}
        if about_source == "case":
            # A version or a day the question names may be what the answer refutes ("fixed in 1.6, or
            # later?" — 1.6.1's release note): what it asks about (ticket, path, route) must be carried,
            # a point in time only when nothing else is named.
            subjects = [x for x in about if not _point_in_time(x)]
            for x in subjects:
                if x not in carried and x not in linked_ids:
                    v.append(f"about: no evidence record carries {x}")
            if not subjects and about and not set(about) & (carried | linked_ids):
                v.append(f"about: no evidence record carries any of {', '.join(about)}")
        elif about and evidence and not carried & set(about):
            linked = [rec for rec in rejected if set(about) & rec.identifiers()]
            if not linked:
                v.append(
                    f"the evidence carries none of the identifiers the question names ({', '.join(about)}), "
                    "and no rejected record carrying them shares a ticket with it"
                )

    for eid in case.must_not_reuse:
        rec = held.get(eid)
        if rec is None:
            continue
        marks = own_markers(rec)
        if rec.superseded_by and ev.lookup(rec.superseded_by) is None:
            v.append(f"{eid}: its successor {rec.superseded_by} does not resolve in memory")
        if case.expected_mode == "memory_answer":
            marks += relative_markers(rec, evidence)
            if not marks:
                v.append(
                    f"{eid} is in must_not_reuse, but memory keeps nothing that sets it apart from the evidence"
                )
        res.markers[eid] = marks

    for rec in evidence:
        t = ev.trace(rec)
        res.traces.append(t)
        if not t.resolves:
            why = (
                f"missing {t.missing}"
                if t.missing
                else f"stops at {t.dead_ends}"
                if t.dead_ends
                else "no log entry"
            )
            v.append(f"provenance of {t.root} does not resolve to the session log ({why})")
        for node in t.nodes:
            if node not in checked and node in known and (rec_n := ev.lookup(node)) is not None:
                v.extend(fidelity(rec_n, known[node]))
                checked.add(node)

    if case.expected_mode == "no_match" and case.about:
        for rec in ev.archival_records():
            if rec.status == "current" and rec.trusted and set(case.about) <= rec.identifiers():
                v.append(f"no_match, but current record {rec.evidence_id} carries {', '.join(case.about)}")

    for eid in res.retrieval["missed"]:
        res.findings.append(
            f"retrieval: {eid} is not on the first page the agent's search shows for the question"
        )
    return res


@dataclass
class Layer1Run:
    cases_dir: str
    store: str
    fixture_version: int
    embedder: str
    results: list[CaseResult]

    def retrieval_summary(self) -> dict[str, Any]:
        per_cat: dict[str, dict[str, int]] = defaultdict(lambda: {"evidence": 0, "found": 0})
        for r in self.results:
            got = r.retrieval
            per_cat[r.case.category]["evidence"] += len(got["evidence"])
            per_cat[r.case.category]["found"] += len(got["found"])
        total = sum(c["evidence"] for c in per_cat.values())
        found = sum(c["found"] for c in per_cat.values())
        return {
            "first_page_size": len(self.results[0].first_page) if self.results else 0,
            "recall": round(found / total, 3) if total else None,
            "per_category": {
                k: {**c, "recall": round(c["found"] / c["evidence"], 3) if c["evidence"] else None}
                for k, c in sorted(per_cat.items())
            },  # fmt: skip
        }

    def as_json(self) -> dict[str, Any]:
        return {
            "cases_dir": self.cases_dir,
            "cases": [r.summary() for r in self.results],
            "retrieval": self.retrieval_summary(),
        }

    def report_json(self) -> dict[str, Any]:
        return {
            "cases_dir": self.cases_dir,
            "store": self.store,
            "fixture_version": self.fixture_version,
            "embedder": self.embedder,
            "retrieval": self.retrieval_summary(),
            "cases": [r.detail() for r in self.results],
        }


def run_layer1(
    cases: list[Case],
    store: str | Path,
    cases_dir: str,
    embedder: Embedder | None = None,
    progress: Callable[[Case], None] | None = None,
) -> Layer1Run:
    """Audit every case against `store` (a store written by `evals.fixture`; it is only read)."""
    manifest = read_manifest(store)
    emb = embedder or make_embedder(manifest.embedder)
    results = []
    # Each case runs on a copy that is deleted after it: its writes need not wait for the disk.
    with tempfile.TemporaryDirectory(prefix="evals-layer1-") as tmp, scratch_writes():
        for n, case in enumerate(cases):
            copy = Path(tmp) / f"case-{n}"
            shutil.copytree(store, copy)
            try:
                with MemoryEvidence(copy, emb, now=manifest.as_of) as ev:
                    results.append(audit(case, ev, manifest))
            except StoreError as e:  # name the user's store, not the scratch copy it was found in
                raise StoreError(str(e).replace(str(copy), str(store))) from e
            shutil.rmtree(copy, ignore_errors=True)
            if progress:
                progress(case)
    return Layer1Run(str(cases_dir), str(store), manifest.fixture_version, manifest.embedder, results)
