"""The case sets as datasets: where they live, the old paths scripts still name, and the manifest."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from evals.case_schema import DEFAULT_CASES_DIR, CaseError, load_cases
from evals.catalog import DatasetEntry, check_catalog, load_catalog
from evals.dataset_paths import DATASETS_DIR, resolve_old_layout
from evals.fixture_records import RecordsError, records_files_for

ROOT = Path(__file__).resolve().parents[2]


def test_the_default_set_is_the_own_dataset():
    assert DEFAULT_CASES_DIR == DATASETS_DIR / "own" and DEFAULT_CASES_DIR.is_dir()
    assert not (ROOT / "evals" / "cases").exists() and not (ROOT / "evals" / "heldout2").exists()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("evals/cases", "evals/datasets/own"),
        ("evals/cases/traps.yaml", "evals/datasets/own/traps.yaml"),
        ("evals/heldout", "evals/datasets/heldout"),
        ("evals/heldout/outsider.yaml", "evals/datasets/heldout/outsider.yaml"),
        ("evals/heldout2", "evals/datasets/heldout2"),
        ("evals/heldout12/records.yaml", "evals/datasets/heldout12/records.yaml"),
    ],
)
def test_a_path_of_the_old_layout_reads_the_same_set(old, new, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert resolve_old_layout(Path(old)) == Path(new)
    assert resolve_old_layout(ROOT / old) == ROOT / new  # absolute too
    if not old.endswith("records.yaml"):
        assert [c.id for c in load_cases(old)] == [c.id for c in load_cases(new)]


def test_what_was_never_a_set_stays_missing(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    for path in ("evals/heldout99", "evals/nothing.yaml", "cases", "datasets/heldout2"):
        assert resolve_old_layout(Path(path)) == Path(path)
    with pytest.raises(CaseError, match="evals/heldout99: no such case file or directory"):
        load_cases("evals/heldout99")
    existing = tmp_path / "evals" / "heldout2"  # a folder of that name that exists is read as it is
    existing.mkdir(parents=True)
    assert resolve_old_layout(existing) == existing


def test_a_case_set_brings_its_records_under_its_old_path_too(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert records_files_for(Path("evals/heldout2")) == [Path("evals/datasets/heldout2/records.yaml")]
    assert records_files_for(Path("evals/heldout3/outsider3.yaml")) == [
        Path("evals/datasets/heldout3/records.yaml")
    ]


def test_the_cli_takes_an_old_path(tmp_path):
    # a script written before the move: the set and the records it brings are read from the dataset
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "evals", "layer1", "--embedder", "hashing", "--json",
         "--cases", "evals/heldout2/outsider2.yaml"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["cases_dir"] == "evals/datasets/heldout2/outsider2.yaml" and len(out["cases"]) == 24
    assert [e["file"] for e in out["extra_records"]] == ["evals/datasets/heldout2/records.yaml"]


# -- the manifest ---------------------------------------------------------------------------------
def test_the_manifest_lists_every_set_and_every_set_validates():
    # loading each set validates every case (evals.case_schema.Case) and record
    # (evals.records_schema.FixtureItem, references resolved against the fixture)
    catalog = load_catalog()
    assert check_catalog(catalog) == []
    names = [s.name for s in catalog.sets]
    assert names[:2] == ["fixture", "own"] and {f"heldout{n}" for n in ("", *range(2, 13))} <= set(names)
    assert sorted(names) == sorted(p.name for p in DATASETS_DIR.iterdir() if p.is_dir())


def test_every_held_out_set_has_a_first_blind_score_and_its_tuning_history():
    for entry in load_catalog().sets:
        if entry.name.startswith("heldout"):
            assert entry.first_blind and entry.not_blind is None, entry.name
            assert all(s.baseline.endswith(("/24", "/8")) for s in entry.first_blind), entry.name
    by_name = load_catalog().by_name()
    # rules were written on the misses of most sets after their blind score; the last set has none yet
    assert {c.commit for c in by_name["heldout5"].tuned_since} >= {"1aa96d9", "3f3e174"}
    assert by_name["heldout12"].tuned_since == []
    assert by_name["own"].first_blind == [] and by_name["own"].not_blind


@pytest.fixture
def datasets_copy(tmp_path) -> Path:
    root = tmp_path / "datasets"
    shutil.copytree(DATASETS_DIR, root)
    return root


def test_the_manifest_check_sees_an_unlisted_set_a_missing_one_and_a_changed_file(datasets_copy):
    catalog = load_catalog(datasets_copy / "manifest.yaml")
    shutil.copytree(datasets_copy / "heldout2", datasets_copy / "heldout13")
    shutil.rmtree(datasets_copy / "heldout12")
    cases = datasets_copy / "heldout3" / "outsider3.yaml"
    cases.write_text(cases.read_text().replace("o3-01", "o3-99", 1))
    cases = datasets_copy / "heldout6" / "outsider6.yaml"
    cases.write_text(cases.read_text().replace("must_not_reuse: [", "must_not_reuse: [NOPE-1, ", 1))
    problems = "\n".join(check_catalog(catalog, datasets_copy))
    assert "heldout6: its cases name records neither the fixture nor the set holds: ['NOPE-1']" in problems
    assert "heldout13: a set folder the manifest does not list" in problems
    assert "heldout12: listed, but there is no folder" in problems
    assert "heldout3: its files are not the ones listed" in problems and "outsider3.yaml" in problems


def test_the_manifest_check_validates_cases_and_records(datasets_copy):
    catalog = load_catalog(datasets_copy / "manifest.yaml")
    records = datasets_copy / "heldout4" / "records.yaml"
    records.write_text(records.read_text() + "- id: X-1\n  store: archival\n  gold: yes\n")
    with pytest.raises(RecordsError, match="record X-1: .*field 'gold'"):
        check_catalog(catalog, datasets_copy)
    records.write_text(records.read_text().rsplit("- id: X-1", 1)[0])
    cases = datasets_copy / "heldout5" / "outsider5.yaml"
    cases.write_text(cases.read_text().replace("expected_mode: no_match", "expected_mode: maybe", 1))
    with pytest.raises(CaseError, match="outsider5.yaml: case o5-01: expected_mode"):
        check_catalog(catalog, datasets_copy)


def test_a_case_set_without_a_blind_score_must_say_why():
    entry = load_catalog().by_name()["own"].model_dump()
    with pytest.raises(ValidationError, match="first_blind or not_blind"):
        DatasetEntry.model_validate({**entry, "not_blind": None})
