"""The case sets as datasets: where they live, and the old paths scripts still name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evals.case_schema import DEFAULT_CASES_DIR, CaseError, load_cases
from evals.dataset_paths import DATASETS_DIR, resolve_old_layout
from evals.fixture_records import records_files_for

ROOT = Path(__file__).resolve().parent.parent


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
