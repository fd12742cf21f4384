"""Layer 2 offline: the baseline agent on every case, the Claude agent over a mock Messages-API server,
and the support-not-wording verdict."""

from __future__ import annotations

import json
import shutil
from typing import Any

import httpx2
import pytest

from evals.__main__ import main
from evals.agents import StructuredAnswer
from evals.case_schema import DEFAULT_CASES_DIR, load_cases
from evals.fixture import make_embedder
from evals.identifiers import named_identifiers
from evals.layer2 import run_layer2, run_trivial, summarise, trivial_summary, verdict
from memgpt_lite.llm.anthropic import AnthropicModel
from memgpt_lite.memory import AgentMemory

RECORD_KEYS = {
    "case_id", "case_version", "evidence_ids", "answer", "support_layer", "no_match",
    "fresh_inspection_requested", "model", "config", "started_at", "finished_at", "verdict",
}  # fmt: skip


@pytest.fixture(scope="module")
def store(evals_store):
    return evals_store


@pytest.fixture(scope="module")
def cases():
    return {c.id: c for c in load_cases()}


@pytest.fixture(scope="module")
def judge(store):
    mem = AgentMemory.open(store, embedder=make_embedder("default"), create=False, read_only=True)
    yield mem
    mem.close()


@pytest.mark.slow
def test_baseline_runs_every_case_offline_with_complete_records(store, tmp_path, cases):
    log = tmp_path / "runs.jsonl"
    records = run_layer2(list(cases.values()), store, agent="baseline", log=log)
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert len(records) == len(lines) == len(cases)
    for rec in lines:
        assert RECORD_KEYS <= set(rec)
        assert rec["error"] is None and rec["answer"] and rec["support_layer"]
        assert isinstance(rec["no_match"], bool) and isinstance(rec["verdict"]["passed"], bool)
        names = [c["name"] for c in rec["tool_calls"]]
        # an identifier the question names is looked up exactly before any ranked search
        n = named_identifiers(cases[rec["case_id"]].question)
        named = (*n.tickets, *n.paths, *n.routes, *n.versions)
        assert names[0] == ("archival_memory_lookup" if named else "archival_memory_search")
        assert "archival_memory_search" in names
    by_case = {r["case_id"]: r for r in lines}
    assert (
        by_case["etp-01"]["evidence_ids"] == ["DEC-142"] and "SUM-142" in by_case["etp-01"]["superseded_ids"]
    )
    assert (
        by_case["cvs-01"]["claims"]["status"] == "fixed" and by_case["cvs-01"]["claims"]["ticket"] == "BH-142"
    )
    assert (
        by_case["tr-07"]["evidence_ids"] == ["REN-132", "DEC-142"] and by_case["tr-07"]["verdict"]["passed"]
    )
    # only quarantined page text names the file: no answer, and the page text is never cited
    assert by_case["tr-09"]["no_match"] and by_case["tr-09"]["verdict"]["passed"]
    assert all("PAGE-Q1" not in r["evidence_ids"] for r in lines)
    summary = summarise(list(cases.values()), records)
    assert sum(s["runs"] for s in summary["per_category"].values()) == len(cases)


def _answer(**kw: Any) -> StructuredAnswer:
    base = dict(answer="text is never judged", evidence_ids=[], support_layer="user_authored_decision",
                no_match=False, fresh_inspection_requested=False)  # fmt: skip
    return StructuredAnswer(**{**base, **kw})


def test_verdict_checks_support_not_wording(cases, judge):
    etp = cases["etp-01"]
    assert verdict(etp, _answer(evidence_ids=["DEC-142"]), judge)["passed"]
    assert verdict(etp, _answer(answer="", evidence_ids=["DEC-142"]), judge)["passed"]

    def why(case, **kw):
        return " | ".join(verdict(case, _answer(**kw), judge)["violations"])

    assert "mis-reuse: cites DEC-143" in why(etp, evidence_ids=["DEC-142", "DEC-143"])
    assert "cites superseded SUM-142 without flagging it" in why(etp, evidence_ids=["SUM-142"])
    assert "which memory does not hold" in why(etp, evidence_ids=["BH-142"])
    assert "flags DEC-142 as superseded" in why(etp, evidence_ids=["DEC-142"], superseded_ids=["DEC-142"])
    assert verdict(etp, _answer(evidence_ids=["DEC-142"], superseded_ids=["SUM-142"]), judge)["passed"]
    assert "support layer" in why(etp, evidence_ids=["DEC-142"], support_layer="agent_inferred_summary")
    rcs = cases["rcs-01"]
    assert "symptom-only evidence ['OBS-142']" in why(
        rcs, evidence_ids=["OBS-142"], support_layer="agent_inferred_summary"
    )
    assert "without root-cause evidence" in why(
        rcs, evidence_ids=["FIX-142"], support_layer="agent_inferred_summary"
    )
    nm = cases["nm-02"]
    ok = dict(no_match=True, fresh_inspection_requested=True, support_layer="fresh_inspection_required")
    assert verdict(nm, _answer(**ok), judge)["passed"]
    assert "memory inference after fresh inspection" in why(nm, **{**ok, "evidence_ids": ["FIX-142"]})
    assert "was not requested" in why(nm, **{**ok, "fresh_inspection_requested": False})
    assert "mode: said no_match" in why(etp, **ok)
    # The no_match flag itself is checked: an answer that cites nothing and asks for a fresh look, but does
    # not say no_match, still fails a no_match case (with only this one violation).
    assert (
        why(nm, **{**ok, "no_match": False}) == "mode: answered from memory where the case requires no_match"
    )
    assert not verdict(etp, None, judge)["passed"]


def test_verdict_checks_claims_groups_and_trust(cases, judge):
    def why(case, **kw):
        return " | ".join(verdict(case, _answer(**kw), judge)["violations"])

    cvs = cases["cvs-01"]
    right = dict(evidence_ids=["FIX-142"], support_layer="agent_inferred_summary")
    good = {"ticket": "BH-142", "status": "fixed", "version": "1.3", "date": "2026-03-10",
            "path": "app/search/paginate.py"}  # fmt: skip
    assert why(cvs, **right, claims=good) == ""
    assert why(cvs, **right, claims={"status": "Fixed"}) == ""  # case and punctuation only
    assert "claim status='open'" in why(cvs, **right, claims={"status": "open"})
    assert "claim version='1.3.2'" in why(cvs, **right, claims={"version": "1.3.2"})
    assert "claim ticket='BH-124'" in why(cvs, **right, claims={"ticket": "BH-124"})
    assert "claim decision_by='maria'" in why(cvs, **right, claims={"decision_by": "maria"})
    etp = cases["etp-01"]
    assert (
        why(etp, evidence_ids=["DEC-142"], claims={"decision_by": "maria", "path": "app/search/paginate.py"})
        == ""
    )
    assert "claim path='app/feed/paginate.py'" in why(
        etp, evidence_ids=["DEC-142"], claims={"path": "app/feed/paginate.py"}
    )
    tr7 = cases["tr-07"]
    assert "evidence group all_of ['REN-132', 'DEC-142'] not cited" in why(tr7, evidence_ids=["DEC-142"])
    assert why(tr7, evidence_ids=["REN-132", "DEC-142"], claims={"path": "app/search/pager.py"}) == ""
    tr3 = cases["tr-03"]
    assert "untrusted (quarantined) origin" in why(tr3, evidence_ids=["DEC-150", "PAGE-Q1"])
    nm = cases["tr-09"]
    ok = dict(no_match=True, fresh_inspection_requested=True, support_layer="fresh_inspection_required")
    assert why(nm, **ok) == ""
    assert "is not a field of any cited item" in why(nm, **ok, claims={"status": "fixed"})


def test_verdict_reads_a_cited_session_log_line_from_recall(cases, judge):
    # a raw log line (recall storage) is memory too: citing one is judged on its stored fields, not
    # rejected as unknown; a case may name one as its evidence
    log_case = cases["etp-01"].model_copy(update={"evidence": ("log-s1-02",), "evidence_groups": (),
                                                  "support_layer": "agent_inferred_summary"})  # fmt: skip
    answer = dict(evidence_ids=["log-s1-02"], support_layer="agent_inferred_summary")
    assert verdict(log_case, _answer(**answer), judge)["violations"] == []
    wrong = verdict(log_case, _answer(**answer, claims={"ticket": "BH-143"}), judge)["violations"]
    assert wrong == ["claim ticket='BH-143' is not a field of any cited item"]
    assert verdict(log_case, _answer(**answer, claims={"date": "2026-03-02"}), judge)["passed"]
    assert "mis-reuse: cites log-s1-02" in " ".join(
        verdict(
            cases["etp-01"].model_copy(update={"must_not_reuse": ("log-s1-02",)}),
            _answer(evidence_ids=["log-s1-02"]),
            judge,
        )["violations"]  # fmt: skip
    )


def _wire(content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test", "content": content,
            "stop_reason": stop, "stop_sequence": None, "usage": {"input_tokens": 30, "output_tokens": 9}}  # fmt: skip


class CannedClaude:
    """A Messages-API server that searches memory for the ticket, then submits an answer citing `cite`
    if the search results showed it, else no_match."""

    def __init__(self, query: str, cite: str, layer: str) -> None:
        self.query, self.cite, self.layer = query, cite, layer
        self.bodies: list[dict[str, Any]] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        if not request.url.path.endswith("/messages"):
            return httpx2.Response(
                404, json={"type": "error", "error": {"type": "not_found_error", "message": "no"}}
            )
        body = json.loads(request.content)
        self.bodies.append(body)
        last = body["messages"][-1]
        results = (
            [b for b in last["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]
            if isinstance(last["content"], list)
            else []
        )
        if not results:
            call = {"type": "tool_use", "id": "toolu_1", "name": "archival_memory_search",
                    "input": {"query": self.query, "request_heartbeat": True}}  # fmt: skip
            return httpx2.Response(200, json=_wire([call], "tool_use"))
        text = json.dumps(results)
        if "submit_answer" in json.dumps(body["messages"][-2]):
            return httpx2.Response(200, json=_wire([{"type": "text", "text": "Done."}], "end_turn"))
        found = f"id={self.cite}" in text
        args = (
            {"answer": f"Memory item {self.cite} records it.", "evidence_ids": [self.cite], "support_layer": self.layer,
             "no_match": False, "fresh_inspection_requested": False}
            if found
            else {"answer": "Nothing sufficient.", "evidence_ids": [], "support_layer": "fresh_inspection_required",
                  "no_match": True, "fresh_inspection_requested": True}
        )  # fmt: skip
        call = {"type": "tool_use", "id": "toolu_2", "name": "submit_answer", "input": args}
        return httpx2.Response(
            200, json=_wire([{"type": "text", "text": "Citing what I found."}, call], "tool_use")
        )


def _claude(server: CannedClaude):
    return lambda: AnthropicModel("claude-test", api_key="test", base_url="http://mock",
                                  http_client=httpx2.Client(transport=httpx2.MockTransport(server)))  # fmt: skip


def test_anthropic_agent_through_a_mock_messages_api(store, cases, tmp_path):
    case = cases["etp-01"]
    server = CannedClaude("BH-142 root cause", "DEC-142", "user_authored_decision")
    records = run_layer2(
        [case], store, agent="anthropic", runs=2, log=tmp_path / "r.jsonl", model_factory=_claude(server)
    )
    assert [r["verdict"]["passed"] for r in records] == [True, True]
    assert all(RECORD_KEYS <= set(r) and r["model"] == "claude-test" for r in records)
    first = server.bodies[0]
    # The agent receives the question and nothing of the case's expectations.
    user_text = json.dumps(first["messages"])
    assert case.question in user_text
    assert not any(e in user_text or e in first["system"] for e in (*case.evidence, *case.must_not_reuse))
    assert {"submit_answer", "archival_memory_search"} <= {t["name"] for t in first["tools"]}
    s = summarise([case], records)
    assert s["per_case"][0] == {
        "id": "etp-01",
        "category": "exact_ticket_path",
        "runs": 2,
        "passed": 2,
        "violations": [],
    }


def test_anthropic_agent_that_reuses_a_neighbouring_ticket_fails(store, cases):
    server = CannedClaude("BH-143 feed root cause", "DEC-143", "user_authored_decision")
    (rec,) = run_layer2([cases["etp-01"]], store, agent="anthropic", model_factory=_claude(server))
    assert not rec["verdict"]["passed"]
    assert "mis-reuse: cites DEC-143, which is in must_not_reuse" in rec["verdict"]["violations"]


def test_cli_layer2_outside_the_repo_and_without_a_key(store, tmp_path, capsys, monkeypatch):
    cases_dir = tmp_path / "cases"
    cases_dir.mkdir()
    shutil.copy(DEFAULT_CASES_DIR / "no_match.yaml", cases_dir)
    my_store = tmp_path / "store"
    shutil.copytree(store, my_store)
    log = tmp_path / "logs" / "l2.jsonl"
    args = [
        "layer2",
        "--agent",
        "baseline",
        "--cases",
        str(cases_dir),
        "--store",
        str(my_store),
        "--log",
        str(log),
        "--json",
    ]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cases_dir"] == str(cases_dir) and out["per_category"]["no_match"]["runs"] == 3
    assert out["trivial_agents"]["always-no-match"]["passed"] == 3
    assert len(log.read_text().splitlines()) == 3
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert main(["layer2", "--agent", "anthropic", "--store", str(my_store), "--cases", str(cases_dir)]) == 2
    assert "ANTHROPIC_API_KEY" in capsys.readouterr().err


def test_trivial_agents_are_caught_wherever_they_are_wrong(store, cases):
    picked = [cases[i] for i in ("cvs-01", "etp-01", "tr-07", "tr-02", "tr-09", "rcs-03", "rg-02")]
    trivial = run_trivial(picked, store)
    summary = trivial_summary(picked, trivial)
    no_match = {c.id for c in picked if c.expected_mode == "no_match"}
    assert set(summary["always-no-match"]["passed_cases"]) == no_match
    assert summary["right-ids-wrong-status"]["passed"] == 0  # right ids, a status no cited item has
    for rec in trivial["right-ids-wrong-status"]:
        assert any("claim status=" in v for v in rec["verdict"]["violations"]), rec["case_id"]
    for rec in trivial["top-hit"]:
        case = cases[rec["case_id"]]
        right = case.expected_mode == "memory_answer" and all(
            set(g.ids) <= set(rec["evidence_ids"])
            if g.mode == "all_of"
            else set(g.ids) & set(rec["evidence_ids"])
            for g in case.required_groups()
        )
        if not right:
            assert not rec["verdict"]["passed"], rec["case_id"]
