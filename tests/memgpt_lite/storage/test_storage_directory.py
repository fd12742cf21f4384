import json
import os

import pytest

from memgpt_lite.errors import StoreError
from memgpt_lite.storage.directory import (
    FORMAT_VERSION,
    MARKER_NAME,
    StoreDirectory,
    atomic_write_json,
    read_json,
)


def test_creates_and_reopens(store_dir):
    d = StoreDirectory.open(store_dir)
    assert (store_dir / MARKER_NAME).is_file()
    assert (
        d.recall_path.name == "recall.sqlite"
        and d.chroma_path.name == "archival"
        and d.state_path.name == "state.json"
    )
    again = StoreDirectory.open(store_dir, create=False)
    assert again.path == d.path and again.format_version == FORMAT_VERSION


def test_missing_without_create(store_dir):
    with pytest.raises(StoreError, match="does not exist"):
        StoreDirectory.open(store_dir, create=False)


def test_empty_folder_is_adopted(tmp_path):
    (tmp_path / "empty").mkdir()
    StoreDirectory.open(tmp_path / "empty")
    assert (tmp_path / "empty" / MARKER_NAME).exists()


def test_foreign_folder_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(StoreError, match="not a memgpt_lite store"):
        StoreDirectory.open(tmp_path)
    assert not (tmp_path / MARKER_NAME).exists()


def test_file_is_refused(tmp_path):
    f = tmp_path / "f"
    f.write_text("x")
    with pytest.raises(StoreError, match="is a file"):
        StoreDirectory.open(f)


@pytest.mark.parametrize(
    "marker, message",
    [
        ("{not json", "corrupt"),
        (json.dumps({"format": "something-else", "format_version": 1}), "not a memgpt_lite store marker"),
        (json.dumps({"format": "memgpt_lite-store", "format_version": "one"}), "format_version"),
        (
            json.dumps({"format": "memgpt_lite-store", "format_version": FORMAT_VERSION + 1}),
            "newer memgpt_lite",
        ),
    ],
)
def test_bad_markers(store_dir, marker, message):
    store_dir.mkdir()
    (store_dir / MARKER_NAME).write_text(marker)
    with pytest.raises(StoreError, match=message):
        StoreDirectory.open(store_dir)


def test_atomic_write_replaces_and_leaves_no_temp(tmp_path):
    p = tmp_path / "state.json"
    atomic_write_json(p, {"a": 1})
    atomic_write_json(p, {"a": 2, "list": [1, 2]})
    assert read_json(p) == {"a": 2, "list": [1, 2]}
    assert os.listdir(tmp_path) == ["state.json"]


def test_atomic_write_failure_keeps_old_file(tmp_path):
    p = tmp_path / "state.json"
    atomic_write_json(p, {"a": 1})
    with pytest.raises(TypeError):
        atomic_write_json(p, {"a": object()})
    assert read_json(p) == {"a": 1}
    assert os.listdir(tmp_path) == ["state.json"]


def test_read_json_missing_and_corrupt(tmp_path):
    assert read_json(tmp_path / "nope.json", default=None) is None
    with pytest.raises(StoreError, match="missing"):
        read_json(tmp_path / "nope.json")
    (tmp_path / "bad.json").write_text('{"a": ')
    with pytest.raises(StoreError, match="corrupt"):
        read_json(tmp_path / "bad.json")
