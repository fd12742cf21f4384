"""Start-up cost of the command lines: the modules a command needs, not Chroma/onnxruntime (about a second
of imports) when it has no agent memory to open. Each check runs in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("chromadb", "onnxruntime", "playwright")


def _heavy_after(code: str) -> list[str]:
    probe = f"{code}\nimport sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return out.split()


@pytest.mark.parametrize(
    "code",
    [
        "from bughunt.cli import build_parser; build_parser(['--help'])",  # every bughunt command's parser
        "import bughunt.commands.explore, bughunt.commands.resume, bughunt.commands.serve_site",
        "import memgpt_lite.storage.lock, memgpt_lite.storage.directory, memgpt_lite.storage.sqlite",
    ],
    ids=["bughunt-help", "explore-resume-serve", "storage-light-modules"],
)
def test_no_heavy_import_where_none_is_needed(code):
    assert _heavy_after(code) == []


def test_the_storage_package_still_offers_its_names():
    import memgpt_lite.storage as storage

    assert sorted(storage.__all__) == sorted(storage._SUBMODULE)
    for name in storage.__all__:
        assert getattr(storage, name).__name__ == name
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        storage.Nope  # noqa: B018
    assert _heavy_after("from memgpt_lite.storage import ArchivalStore") == ["chromadb"]
