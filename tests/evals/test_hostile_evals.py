"""Damaged evaluation stores: the error names the user's store and file in one line, not a scratch
copy or pydantic's multi-line report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evals.__main__ import main as evals_main
from evals.fixture import MANIFEST_NAME


@pytest.fixture(scope="module")
def fixture_store(evals_hashing_store) -> Path:
    return evals_hashing_store


def _damaged(fixture_store: Path, tmp_path: Path) -> Path:
    store = tmp_path / "store"
    shutil.copytree(fixture_store, store)
    return store


def _layer1(store: Path, capsys) -> tuple[int, str]:
    rc = evals_main(["layer1", "--store", str(store), "--json"])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return rc, err


def test_manifest_with_wrong_fields_is_one_line_naming_the_field(fixture_store, tmp_path, capsys):
    store = _damaged(fixture_store, tmp_path)
    (store / MANIFEST_NAME).write_text(json.dumps({"x": 1}))
    rc, err = _layer1(store, capsys)
    assert rc == 2 and f"{store / MANIFEST_NAME} is not a valid fixture manifest: fixture_version" in err
    assert err.strip().count("\n") == 0 and "pydantic" not in err


def test_corrupt_recall_names_the_users_store_not_the_scratch_copy(fixture_store, tmp_path, capsys):
    store = _damaged(fixture_store, tmp_path)
    recall = store / "recall.sqlite"
    for extra in ("-wal", "-shm"):
        Path(f"{recall}{extra}").unlink(missing_ok=True)
    with recall.open("r+b") as f:
        f.truncate(3000)
    rc, err = _layer1(store, capsys)
    assert rc == 2 and str(recall) in err and "evals-layer1-" not in err
