"""The fixture store's content is pinned by a digest.

The digest was taken from the store the Python record builders wrote (`evals/fixture_data.py` at
5ca7955) before its records moved to a records file (`evals/datasets/fixture/records.yaml`): the test
passing on both sides of that move is the proof that the generated store holds the same records,
fields, relations and order. It fails on any change to a record, its stored fields, the supersession
the store derives, or the write order; change the digest only with `fixture_version`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from evals.fixture import read_manifest, write_fixture
from memgpt_lite.memory import AgentMemory

STORE_DIGEST = "bf7f7c39699ea779fc2023e6007e8696411d06587c73931d7e43ad0e69ac897f"
"""sha256 of `store_content` for a store written by `write_fixture(out, embedder="hashing")`."""


def store_content(store: Path) -> dict[str, Any]:
    """What a fixture store holds, without what the clock or the embedder decide: the manifest's
    records (in write order) and fixed "now", every recall message (in stored order), every archival
    passage (by id) with its status and supersession."""
    manifest = read_manifest(store)
    memory = AgentMemory.open(store)
    try:
        recall = [m.model_dump(mode="json") for m in memory.recall.iter_messages()]
        archival = sorted(
            (p.model_dump(mode="json") for p in memory.archival.iter_passages()), key=lambda p: p["id"]
        )
    finally:
        memory.close()
    return {
        "fixture_version": manifest.fixture_version,
        "as_of": manifest.as_of.isoformat(),
        "items": [i.model_dump(mode="json") for i in manifest.items],
        "recall": recall,
        "archival": archival,
    }


def digest(content: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(content, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def test_the_generated_store_holds_exactly_the_pinned_content(tmp_path):
    write_fixture(tmp_path / "store", embedder="hashing")
    content = store_content(tmp_path / "store")
    assert (len(content["items"]), len(content["recall"]), len(content["archival"])) == (99, 60, 39)
    assert digest(content) == STORE_DIGEST


def test_the_digest_sees_a_changed_field(tmp_path):
    # the check has teeth: one stored field of one record changed changes the digest
    write_fixture(tmp_path / "store", embedder="hashing")
    content = store_content(tmp_path / "store")
    content["archival"][0]["meta"]["author"] += "x"
    assert digest(content) != STORE_DIGEST
