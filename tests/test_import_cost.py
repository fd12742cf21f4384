"""Start-up cost of the command lines: the modules a command needs, not Chroma/onnxruntime/Playwright (a
second or more of imports) when it has no agent memory to open or browser to drive."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("chromadb", "onnxruntime", "playwright")
# each step imports more; the heavy modules loaded after each step are reported (one fresh interpreter)
STEPS = {
    "storage's light modules": "import memgpt_lite.storage.lock, memgpt_lite.storage.directory",
    "explore, resume, serve-site": "import bughunt.commands.explore, bughunt.commands.resume, "
    "bughunt.commands.serve_site",
    "every bughunt command's parser (--help)": "from bughunt.cli import build_parser; build_parser(['--help'])",
}
PROBE = f"""
import json, sys
out = {{}}
for step, code in {STEPS!r}.items():
    exec(code)
    out[step] = [m for m in {HEAVY!r} if m in sys.modules]
print(json.dumps(out))
"""


def test_no_heavy_import_where_none_is_needed():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == {step: [] for step in STEPS}


def test_the_storage_package_still_offers_its_names():
    import memgpt_lite.storage as storage

    assert sorted(storage.__all__) == sorted(storage._SUBMODULE)
    for name in storage.__all__:
        assert getattr(storage, name).__name__ == name
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        storage.Nope  # noqa: B018
