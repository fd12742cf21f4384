"""The evaluations only read the fixture store they are given: every case runs on a copy, and the
judge reads the original read-only (no state written back on close, no Chroma client started)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from evals.case_schema import load_cases
from evals.layer1 import run_layer1
from evals.layer2 import run_layer2, run_trivial


def _snapshot(root: Path) -> dict[str, tuple[int, str]]:
    return {
        str(p.relative_to(root)): (p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_layer1_layer2_and_the_trivial_agents_leave_the_fixture_store_as_it_was(
    evals_hashing_store, tmp_path
):
    store = tmp_path / "store"
    shutil.copytree(evals_hashing_store, store)
    before = _snapshot(store)
    cases = load_cases()[:3]
    run_layer2(cases, store, agent="baseline")
    run_trivial(cases, store)
    run_layer1(cases, store, "cases")
    assert _snapshot(store) == before
