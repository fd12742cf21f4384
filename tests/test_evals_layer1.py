"""Layer 1 on the real fixture store: it passes its own cases, fails every case whose lists are swapped,
rejects a plausible-but-wrong memory in every category, and flags storage that lost facts."""

from __future__ import annotations

import json
import shutil
from collections import defaultdict

import pytest

from evals.__main__ import main
from evals.case_schema import CATEGORIES, DEFAULT_CASES_DIR, load_cases
from evals.evidence import MemoryEvidence
from evals.fixture import MANIFEST_NAME, make_embedder, read_manifest
from evals.layer1 import run_layer1


@pytest.fixture(scope="module")
def store(evals_store):
    return evals_store


@pytest.fixture(scope="module")
def cases():
    return load_cases()


@pytest.fixture(scope="module")
def run(store, cases):
    return run_layer1(cases, store, "cases")


def test_layer1_passes_its_own_cases(run, cases):
    assert len(cases) >= 16
    failed = {r.case.id: r.violations for r in run.results if not r.passed}
    assert failed == {}
    for r in run.results:
        if r.case.expected_mode == "memory_answer":
            assert r.evidence_found and set(r.evidence_found) <= set(r.case.evidence)
            assert all(t.resolves for t in r.traces)
        else:
            assert r.evidence_found == []


def test_swapping_evidence_and_must_not_reuse_fails_every_such_case(store, cases):
    both = [c for c in cases if c.evidence and c.must_not_reuse]
    assert len(both) >= 10
    swapped = [
        c.model_copy(update={"evidence": c.must_not_reuse, "must_not_reuse": c.evidence}) for c in both
    ]
    run = run_layer1(swapped, store, "swapped")
    for r in run.results:
        assert not r.passed, r.case.id
        assert any(v.startswith("mis-reuse") for v in r.violations), (r.case.id, r.violations)


def test_every_category_rejects_a_plausible_but_wrong_memory(run):
    rejected = defaultdict(list)
    for r in run.results:
        if r.rejected_must_not_reuse:
            rejected[r.case.category].append((r.case.id, r.rejected_must_not_reuse))
    assert set(rejected) == set(CATEGORIES), rejected
    # The three kinds the spec names: the neighbouring ticket, the superseded status, the symptom note.
    by_id = {r.case.id: r for r in run.results}
    assert "DEC-143" in by_id["etp-01"].rejected_must_not_reuse
    assert "BR-142" in by_id["cvs-01"].rejected_must_not_reuse
    assert "NR-147" in by_id["rcs-03"].rejected_must_not_reuse


def test_superseded_items_come_back_marked(run):
    seen = {c.evidence_id: c for r in run.results for c in r.candidates}
    assert seen["BR-142"].status == "superseded" and seen["BR-142"].superseded_by == "FIX-142"
    assert seen["SUM-142"].superseded_by == "DEC-142"
    assert seen["HO-S1"].status == "superseded"
    assert seen["FIX-142"].status == "current"


def test_layer1_flags_storage_that_disagrees_with_the_generator(store, tmp_path, cases):
    # Give the judge a manifest that says BR-142 was never superseded and moved a decision's date:
    # the store's answers no longer match, and the affected cases must fail.
    copy = tmp_path / "store"
    shutil.copytree(store, copy)
    data = json.loads((copy / MANIFEST_NAME).read_text())
    for item in data["items"]:
        if item["id"] == "BR-142":
            item["superseded_by"] = None
        if item["id"] == "DEC-143":
            item["date"] = "2026-03-06T14:21:00Z"
    (copy / MANIFEST_NAME).write_text(json.dumps(data))
    picked = [c for c in cases if c.id in ("cvs-01", "etp-03")]
    run = run_layer1(picked, copy, "cases")
    v = {r.case.id: " ".join(r.violations) for r in run.results}
    assert "BR-142: came back superseded" in v["cvs-01"]
    assert "DEC-143: date" in v["etp-03"]


def test_provenance_that_does_not_resolve_is_reported(store, tmp_path):
    copy = tmp_path / "store"
    shutil.copytree(store, copy)
    manifest = read_manifest(copy)
    with MemoryEvidence(copy, make_embedder(manifest.embedder), now=manifest.as_of) as ev:
        cand = next(
            c
            for c in ev.ask("Which file holds the root cause of BH-142?").candidates
            if c.evidence_id == "DEC-142"
        )
        assert ev.trace(cand).resolves
        broken = cand.__class__(**{**cand.__dict__, "provenance": ("log-t-01", "no-such-item")})
        t = ev.trace(broken)
        assert not t.resolves and t.missing == ["no-such-item"]
        assert not ev.trace(cand.__class__(**{**cand.__dict__, "provenance": ()})).resolves


def test_cli_accepts_cases_and_store_outside_the_repo(store, tmp_path, capsys):
    cases_dir = tmp_path / "my-cases"
    shutil.copytree(DEFAULT_CASES_DIR, cases_dir)
    outside_store = tmp_path / "my-store"
    shutil.copytree(store, outside_store)
    report = tmp_path / "out" / "report.html"
    code = main(
        [
            "layer1",
            "--cases",
            str(cases_dir),
            "--store",
            str(outside_store),
            "--json",
            "--report",
            str(report),
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["cases_dir"] == str(cases_dir)
    keys = {"id", "category", "passed", "expected_mode", "support_layer", "evidence_found", "violations"}
    assert all(set(c) == keys for c in out["cases"]) and len(out["cases"]) == len(load_cases(cases_dir))
    assert "<table>" in report.read_text() and json.loads(report.with_suffix(".json").read_text())["cases"]


def test_cli_fails_a_bad_case_dir_with_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "id: x-1\nversion: 1\ncategory: nope\nquestion: q\nexpected_mode: no_match\nsupport_layer: fresh_inspection_required\n"
    )
    assert main(["layer1", "--cases", str(bad), "--store", str(tmp_path)]) == 2
    assert "case x-1" in capsys.readouterr().err


def test_layer1_is_deterministic(store, cases, run):
    picked = [c for c in cases if c.id in ("rg-02", "cvs-02", "mw-01")]
    again = run_layer1(picked, store, "cases").report_json()["cases"]
    first = {c["id"]: c for c in run.report_json()["cases"]}
    assert again == [first[c["id"]] for c in again]
