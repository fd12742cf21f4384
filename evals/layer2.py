"""Layer 2: an agent in the loop answers each question from memory; the evaluator checks support, not wording.

Each run gets a fresh copy of the store, an agent that receives only the question, and ends with the
agent's structured answer. The verdict is computed from ids and stored labels only:

- mode matches the case (`no_match` flag), and the declared support layer matches;
- every cited id exists in memory, lies in the case's `evidence`, and none is in `must_not_reuse`;
- no cited item is superseded, and every id flagged as superseded really is;
- when the allowed evidence is a root cause, the answer cites root-cause evidence and no symptom note;
- once fresh inspection is required, nothing is cited and fresh inspection is requested.

Every run appends one JSONL record with the fields the issue names.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from evals.agents import (
    SYSTEM_PROMPT,
    AnswerBox,
    ModelFactory,
    StructuredAnswer,
    answering_agent,
    baseline_model,
)
from evals.case_schema import Case
from evals.fixture import make_embedder, read_manifest
from evals.trivial_agents import TRIVIAL_AGENTS
from memgpt_lite.errors import MemgptLiteError, UsageError
from memgpt_lite.llm.base import Model
from memgpt_lite.llm.factory import make_model
from memgpt_lite.log import logger
from memgpt_lite.memory import AgentMemory
from memgpt_lite.storage.durability import scratch_writes

AGENTS = ("anthropic", "baseline")


def _record(memory: AgentMemory, eid: str) -> dict[str, Any] | None:
    """The stored fields of an id, read from archival storage or, for a raw session-log line (the
    primary source a record rests on), from recall storage."""
    p = memory.archival.get(eid)
    if p is not None:
        m, status, day, tags = p.meta, p.status, p.created_at, p.tags
    elif eid in memory.recall:
        msg = memory.recall.get([eid])[0]
        m, status, day, tags = msg.meta, "current", msg.created_at, []
    else:
        return None

    def many(key: str) -> set[str]:
        v = m.get(key)
        return {str(x) for x in v} if isinstance(v, list | tuple) else ({str(v)} if v else set())

    return {
        "status": status,
        "claim": m.get("claim"),
        "layer": m.get("support_layer"),
        "trusted": m.get("trust", "trusted") == "trusted" and "quarantined" not in tags,
        "ticket": many("tickets"),
        "path": many("paths"),
        "status_value": {_norm(str(m["bug_status"]))} if m.get("bug_status") else set(),
        "version": many("app_version"),
        "date": {day.date().isoformat(), str(m.get("date", ""))[:10]} - {""},
        "decision_by": {str(m.get("author"))}
        if m.get("support_layer") == "user_authored_decision" and m.get("author")
        else set(),
    }


def _norm(value: str) -> str:
    # Case, spaces, hyphens and apostrophes only: "Won't fix" is wont_fix; no similarity beyond that.
    return "".join(
        ch for ch in value.lower().replace(" ", "_").replace("-", "_") if ch.isalnum() or ch == "_"
    )


def entailed(key: str, value: str, rec: dict[str, Any]) -> bool:
    """Is the claim `key = value` a field of the record? Field comparison only."""
    if key == "status":
        return _norm(value) in rec["status_value"]
    if key == "date":
        return value.strip()[:10] in rec["date"]
    return value.strip() in rec.get(key, set())


def verdict(case: Case, ans: StructuredAnswer | None, memory: AgentMemory) -> dict[str, Any]:
    """Judge one structured answer against the case, reading fields from the (unmodified) store."""
    v: list[str] = []
    if ans is None:
        return {"passed": False, "violations": ["no structured answer: the agent never called submit_answer"]}
    recs = {i: _record(memory, i) for i in {*ans.evidence_ids, *ans.superseded_ids, *case.evidence}}
    if case.expected_mode == "no_match":
        if not ans.no_match:
            v.append("mode: answered from memory where the case requires no_match")
        if ans.evidence_ids:
            v.append(f"memory inference after fresh inspection is required: cites {ans.evidence_ids}")
        if not ans.fresh_inspection_requested:
            v.append("fresh inspection is required but was not requested")
    else:
        if ans.no_match:
            v.append("mode: said no_match where memory holds sufficient evidence")
        elif not ans.evidence_ids:
            v.append("answered from memory without citing any evidence")
        else:
            for g in case.required_groups():
                cited = [i for i in g.ids if i in ans.evidence_ids]
                if (g.mode == "all_of" and len(cited) < len(g.ids)) or not cited:
                    v.append(f"evidence group {g.mode} {list(g.ids)} not cited (cites {ans.evidence_ids})")
    if ans.support_layer != case.support_layer:
        v.append(f"support layer: declared {ans.support_layer}, the case expects {case.support_layer}")
    for eid in ans.evidence_ids:
        rec = recs[eid]
        if rec is None:
            v.append(f"cites {eid}, which memory does not hold")
            continue
        if eid in case.must_not_reuse:
            v.append(f"mis-reuse: cites {eid}, which is in must_not_reuse")
        elif case.expected_mode == "memory_answer" and eid not in case.evidence:
            v.append(f"cites {eid}, outside the allowed evidence")
        if not rec["trusted"]:
            v.append(f"mis-reuse: cites {eid}, which has an untrusted (quarantined) origin")
        if rec["status"] == "superseded" and eid not in ans.superseded_ids:
            v.append(f"cites superseded {eid} without flagging it as superseded")
    for eid in ans.superseded_ids:
        rec = recs[eid]
        if rec is None or rec["status"] != "superseded":
            v.append(
                f"flags {eid} as superseded, but memory holds it as {'nothing' if rec is None else rec['status']}"
            )
    cited_recs = [r for e in ans.evidence_ids if (r := recs[e])]
    for key, value in ans.claims.items():
        if not any(entailed(key, value, r) for r in cited_recs):
            v.append(f"claim {key}={value!r} is not a field of any cited item")
    root_cause_case = any((recs[e] or {}).get("claim") == "root_cause" for e in case.evidence)
    if root_cause_case and not ans.no_match:
        if not any(c["claim"] == "root_cause" for c in cited_recs):
            v.append("root-cause question answered without root-cause evidence")
        sym = [e for e in ans.evidence_ids if (recs[e] or {}).get("claim") == "symptom"]
        if sym:
            v.append(f"symptom-only evidence {sym} cited for a root cause")
    return {"passed": not v, "violations": v}


def _returning(model: Model) -> ModelFactory:
    """A factory of this one model (one per case: a trivial agent is made for its case)."""
    return lambda: model


def _model_for(agent: str, model: str | None, base_url: str | None, factory: ModelFactory | None) -> Model:
    if factory is not None:
        return factory()
    if agent == "baseline":
        return baseline_model()
    if agent == "anthropic":
        return make_model(model, base_url=base_url, needed_by="--agent anthropic")
    raise UsageError(f"unknown agent {agent!r}; choose one of {', '.join(AGENTS)}")


def run_once(
    case: Case,
    store: Path,
    agent: str,
    model_factory: Callable[[], Any],
    embedder: Any,
    run: int,
    config: dict[str, Any],
) -> dict[str, Any]:
    started = datetime.now(UTC)
    box = AnswerBox()
    model = model_factory()
    error: str | None = None
    tool_calls: list[dict[str, Any]] = []
    # The case runs on a copy that is deleted after it: its writes need not wait for the disk.
    with tempfile.TemporaryDirectory(prefix="evals-layer2-") as tmp, scratch_writes():
        copy = Path(tmp) / "store"
        shutil.copytree(store, copy)
        memory = AgentMemory.open(copy, embedder=embedder, system_prompt=SYSTEM_PROMPT, create=False)
        try:
            result = answering_agent(model, memory, box).step(case.question)
            tool_calls = [
                {"name": c.name, "arguments": c.arguments, "is_error": c.is_error} for c in result.tool_calls
            ]
        except MemgptLiteError as e:  # a failed provider call is a failed run, recorded, never a lost one
            error = f"{type(e).__name__}: {e}"
            logger.warning("layer2 {} run {}: {}", case.id, run, error)
        finally:
            memory.close()
    ans = box.answer
    return {
        "case_id": case.id,
        "case_version": case.version,
        "category": case.category,
        "run": run,
        "evidence_ids": ans.evidence_ids if ans else [],
        "answer": ans.answer if ans else None,
        "support_layer": ans.support_layer if ans else None,
        "no_match": ans.no_match if ans else None,
        "fresh_inspection_requested": ans.fresh_inspection_requested if ans else None,
        "superseded_ids": ans.superseded_ids if ans else [],
        "claims": ans.claims if ans else {},
        "model": getattr(model, "name", agent),
        "config": config,
        "started_at": started.isoformat(),
        "finished_at": datetime.now(UTC).isoformat(),
        "tool_calls": tool_calls,
        "error": error,
        "_answer": ans,
    }


def run_layer2(
    cases: list[Case],
    store: str | Path,
    agent: str,
    runs: int = 1,
    log: str | Path | None = None,
    model: str | None = None,
    base_url: str | None = None,
    progress: Callable[[Case], None] | None = None,
    model_factory: ModelFactory | None = None,
) -> list[dict[str, Any]]:
    """Run every case `runs` times; append each record to `log` (JSONL) as soon as it is judged."""
    if runs < 1:
        raise UsageError("runs must be at least 1")
    store = Path(store)
    manifest = read_manifest(store)
    embedder = make_embedder(manifest.embedder)
    # Fail on configuration (no key, bad agent) before any case runs.
    first = _model_for(agent, model, base_url, model_factory)
    made = [first]

    def factory() -> Any:
        return made.pop() if made else _model_for(agent, model, base_url, model_factory)

    config = {"agent": agent, "base_url": base_url, "embedder": manifest.embedder, "runs": runs,
              "fixture_version": manifest.fixture_version, "store": str(store)}  # fmt: skip
    log_path = Path(log) if log else None
    if log_path:
        if log_path.is_dir():
            # checked before the first run: a record that cannot be appended is a run wasted
            raise UsageError(f"--log {log_path} is a directory; give a JSONL file to append to")
        log_path.parent.mkdir(parents=True, exist_ok=True)
    records = []
    judge_mem = AgentMemory.open(store, embedder=embedder, create=False, read_only=True)
    try:
        for case in cases:
            for n in range(runs):
                rec = run_once(case, store, agent, factory, embedder, n, config)
                rec["verdict"] = verdict(case, rec.pop("_answer"), judge_mem)
                records.append(rec)
                if log_path:
                    with log_path.open("a", encoding="utf-8") as f:
                        f.write(json.dumps(rec, ensure_ascii=False) + "\n")
                if progress:
                    progress(case)
    finally:
        judge_mem.close()
    return records


def run_trivial(cases: list[Case], store: str | Path) -> dict[str, list[dict[str, Any]]]:
    """One run per case of each trivial agent (`evals.trivial_agents`), judged like any agent."""
    store = Path(store)
    manifest = read_manifest(store)
    embedder = make_embedder(manifest.embedder)
    config = {"agent": "trivial", "embedder": manifest.embedder, "fixture_version": manifest.fixture_version}
    out: dict[str, list[dict[str, Any]]] = {}
    judge_mem = AgentMemory.open(store, embedder=embedder, create=False, read_only=True)
    try:
        for name, make in TRIVIAL_AGENTS.items():
            out[name] = []
            for case in cases:
                model = make(case, judge_mem.archival)
                rec = run_once(case, store, name, _returning(model), embedder, 0, config)
                rec["verdict"] = verdict(case, rec.pop("_answer"), judge_mem)
                out[name].append(rec)
    finally:
        judge_mem.close()
    return out


def trivial_summary(cases: list[Case], trivial: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Per trivial agent: passed runs in all and per category, and the cases it passed."""
    out = {}
    for name, records in trivial.items():
        s = summarise(cases, records)
        out[name] = {
            "runs": len(records),
            "passed": sum(r["verdict"]["passed"] for r in records),
            "per_category": s["per_category"],
            "passed_cases": [c["id"] for c in s["per_case"] if c["passed"]],
        }
    return out


def summarise(cases: list[Case], records: list[dict[str, Any]]) -> dict[str, Any]:
    """Passed runs per category and per case (with several runs, a per-case pass count)."""
    cat: dict[str, dict[str, int]] = defaultdict(lambda: {"runs": 0, "passed": 0})
    per_case = []
    for case in cases:
        mine = [r for r in records if r["case_id"] == case.id]
        passed = sum(r["verdict"]["passed"] for r in mine)
        cat[case.category]["runs"] += len(mine)
        cat[case.category]["passed"] += passed
        failing = next((r for r in mine if not r["verdict"]["passed"]), None)
        per_case.append({"id": case.id, "category": case.category, "runs": len(mine), "passed": passed,
                         "violations": failing["verdict"]["violations"] if failing else []})  # fmt: skip
    return {
        "runs_total": len(records),
        "passed_total": sum(r["verdict"]["passed"] for r in records),
        "per_category": dict(sorted(cat.items())),
        "per_case": per_case,
    }


def _search_text(call: dict[str, Any]) -> str:
    args = {k: v for k, v in call["arguments"].items() if k != "request_heartbeat"}
    query = args.pop("query", "")
    extra = ", ".join(f"{k}={v}" for k, v in args.items())
    return f"{call['name']}({query!r}{', ' + extra if extra else ''}){' ERROR' if call['is_error'] else ''}"


def report_data(cases: list[Case], records: list[dict[str, Any]], info: dict[str, Any]) -> dict[str, Any]:
    """Everything the layer-2 report shows: per case, what the case allows and, per run, what the agent
    searched, cited, flagged and declared, and the verdict's violations."""
    out = []
    for case in cases:
        runs = [
            {
                "run": r["run"],
                "model": r["model"],
                "answer": r["answer"],
                "evidence_ids": r["evidence_ids"],
                "superseded_ids": r["superseded_ids"],
                "claims": r.get("claims", {}),
                "support_layer": r["support_layer"],
                "no_match": r["no_match"],
                "fresh_inspection_requested": r["fresh_inspection_requested"],
                "tool_calls": [_search_text(c) for c in r["tool_calls"] if c["name"] != "submit_answer"],
                "passed": r["verdict"]["passed"],
                "violations": r["verdict"]["violations"],
                "error": r["error"],
                "started_at": r["started_at"],
                "finished_at": r["finished_at"],
            }  # fmt: skip
            for r in records
            if r["case_id"] == case.id
        ]
        out.append(
            {
                "id": case.id,
                "version": case.version,
                "category": case.category,
                "question": case.question,
                "expected_mode": case.expected_mode,
                "support_layer": case.support_layer,
                "evidence": case.evidence,
                "must_not_reuse": case.must_not_reuse,
                "notes": case.notes,
                "passed": sum(x["passed"] for x in runs),
                "runs": runs,
            }  # fmt: skip
        )
    return {**info, **summarise(cases, records), "cases": out}
