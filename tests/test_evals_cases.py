"""Case schema, the fixture generator's records and the case-blind sufficiency rule, on plain data."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from evals.case_schema import CATEGORIES, CaseError, load_cases
from evals.fixture_data import build_records
from evals.sufficiency import Candidate, analyse_question, decide

GOOD = """\
id: t-1
version: 1
category: exact_ticket_path
question: "Which file holds the root cause of BH-142?"
expected_mode: memory_answer
support_layer: user_authored_decision
evidence: [DEC-142]
must_not_reuse: [DEC-143]
"""


def test_shipped_cases_cover_every_category():
    cases = load_cases()
    assert 16 <= len(cases) <= 20
    assert {c.category for c in cases} == set(CATEGORIES)
    assert all(sum(c.category == cat for c in cases) >= 2 for cat in CATEGORIES)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (("support_layer: user_authored_decision", "support_layer: user_decision"), "support_layer"),
        (("version: 1", "version: 0"), "version"),
        (("category: exact_ticket_path", "category: trivia"), "category"),
        (("evidence: [DEC-142]", "evidence: [DEC-142]\ngold_answer: app/search/paginate.py"), "gold_answer"),
        (("must_not_reuse: [DEC-143]", "must_not_reuse: [DEC-142]"), "both evidence and must_not_reuse"),
        (("expected_mode: memory_answer", "expected_mode: no_match"), "fresh_inspection_required"),
    ],
)
def test_a_bad_case_names_file_case_and_field(tmp_path, change, field):
    f = tmp_path / "bad.yaml"
    f.write_text(GOOD.replace(*change))
    with pytest.raises(CaseError) as e:
        load_cases(tmp_path)
    msg = str(e.value)
    assert str(f) in msg and "case t-1" in msg and field in msg


def test_duplicate_ids_and_empty_dirs_are_errors(tmp_path):
    (tmp_path / "a.yaml").write_text(GOOD)
    (tmp_path / "b.yaml").write_text(GOOD)
    with pytest.raises(CaseError, match="duplicate"):
        load_cases(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CaseError, match="no cases"):
        load_cases(empty)


def test_fixture_records_are_deterministic_and_their_provenance_resolves():
    a, b = build_records(), build_records()
    assert [x.model_dump() for x in a] == [x.model_dump() for x in b]
    by_id = {x.id: x for x in a}

    def leaves(i: str) -> set[str]:
        item = by_id[i]
        if item.store == "recall":
            return {i}
        assert item.provenance, f"{i} has no provenance"
        return set().union(*(leaves(p) for p in item.provenance))

    for x in a:
        assert leaves(x.id), x.id
        if x.superseded_by:
            assert by_id[x.superseded_by].supersedes == x.id
    # Two interleaved workflows with neighbouring tickets and similar paths, and a 1.2 -> 1.3 history.
    assert {"search-pagination", "feed-pagination"} <= {x.workflow for x in a}
    assert {"app/search/paginate.py", "app/feed/paginate.py", "app/search/query.py"} <= {
        p for x in a for p in x.paths
    }
    assert by_id["FIX-142"].supersedes == "BR-142" and by_id["FIX-142"].app_version == "1.3"
    assert by_id["DEC-142"].support_layer == "user_authored_decision" and by_id["DEC-142"].author == "maria"
    assert by_id["OBS-142"].claim == "symptom" and by_id["DEC-142"].claim == "root_cause"


def test_question_analysis_reads_identifiers_exactly():
    qa = analyse_question(
        "Why does Search page 2 fail (BH-142) in app/search/paginate.py on app 1.4, 2026-03-10?"
    )
    a = qa.anchors
    assert qa.intent == "root_cause"
    assert a.tickets == {"BH-142"} and a.paths == {"app/search/paginate.py"}
    assert a.routes == {"/search/2"} and a.versions == {"1.4"} and a.dates == {"2026-03-10"}
    assert a.deciding == "ticket"
    assert analyse_question("What did the latest hand-over note say?").intent == "handover"
    assert analyse_question("What is recorded about it?").intent == "any"


def _cand(eid: str, rank: int, **kw) -> Candidate:
    base = dict(
        evidence_id=eid, store_id=eid, rank=rank, score=1.0, cosine=0.5, content="", status="current",
        superseded_by=None, support_layer="agent_inferred_summary", claim="root_cause", kind="x",
        date=datetime(2026, 3, 5, tzinfo=UTC), source="s", author="a", app_version="1.2", tickets=("BH-142",),
    )  # fmt: skip
    return Candidate(**{**base, **kw})


def test_rule_prefers_current_on_topic_user_decisions_and_says_why_it_rejects():
    qa = analyse_question("What is the root cause of BH-142?")
    cands = [
        _cand("guess", 0, status="superseded", superseded_by="dec"),
        _cand("neighbour", 1, tickets=("BH-143",), support_layer="user_authored_decision"),
        _cand("symptom", 2, claim="symptom"),
        _cand("agent", 3),
        _cand("dec", 4, support_layer="user_authored_decision"),
    ]
    d = decide(qa, cands)
    assert d.mode == "memory_answer" and d.support_layer == "user_authored_decision"
    assert [c.evidence_id for c in d.support] == ["dec"]
    why = {r.evidence_id: r.reason for r in d.rejected}
    assert why["guess"].startswith("superseded") and why["neighbour"].startswith("off topic")
    assert "symptom" in why["symptom"] and why["agent"].startswith("outranked")


def test_rule_answers_no_match_for_retest_due_and_unknown_versions():
    retest = _cand("nr", 0, claim="status", bug_status="needs_retest", app_version="1.3")
    d = decide(analyse_question("Is BH-142 still open?"), [retest])
    assert d.mode == "no_match" and d.support_layer == "fresh_inspection_required"
    fixed = _cand("fix", 0, claim="status", bug_status="fixed", app_version="1.3")
    assert decide(analyse_question("Is BH-142 still open?"), [fixed]).mode == "memory_answer"
    assert decide(analyse_question("Is BH-142 still open on app 1.4?"), [fixed]).mode == "no_match"
    assert decide(analyse_question("Is BH-142 still open on app 1.2?"), [fixed]).mode == "no_match"


def test_without_identifiers_relevance_decides_topic():
    qa = analyse_question("How should duplicates be recognised?")
    d = decide(qa, [_cand("a", 0, claim="guidance", cosine=0.2), _cand("b", 1, claim="guidance", cosine=0.7)])
    assert [c.evidence_id for c in d.support] == ["b"]
