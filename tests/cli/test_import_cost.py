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
    # recall search, its ablation and the report: archival storage only with --archival
    "python -m evals.locomo without --archival": "import evals.locomo.__main__",
    # archival storage (Chroma) loads when it is first used: opening, writing and closing a memory that
    # never reaches it (the demo's recall-only turns, a state check) does not import it
    "agent memory opened and closed without archival": "import tempfile\n"
    "from memgpt_lite.memory import AgentMemory\n"
    "from memgpt_lite.storage.embeddings import HashingEmbedder\n"
    "AgentMemory.open(tempfile.mkdtemp() + '/s', embedder=HashingEmbedder()).close()",
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


@pytest.mark.parametrize("command", ["run", "chat", "layer2"])
def test_a_missing_key_is_reported_before_chroma_is_imported(command, tmp_path, monkeypatch):
    # `run` is registered by the chat module: naming it loads that module alone (not `demo`'s memory
    # imports), and the key is checked before the agent and its memory are imported (~1 s of CPU);
    # `python -m evals layer2 --agent anthropic` checks it before the run's modules load (~0.8 s)
    if command == "layer2":
        entry = "from evals.__main__ import main"
        argv = ["layer2", "--agent", "anthropic", "--log", str(tmp_path / "s")]
    else:
        entry = "from memgpt_lite.cli import main"
        argv = [command, "--store", str(tmp_path / "s"), *(["--message", "hi"] if command == "run" else [])]
    probe = (
        f"import sys\n{entry}\n"
        f"code = main({argv!r})\n"
        f"print('heavy:', [m for m in {HEAVY!r} if m in sys.modules], code, file=sys.stderr)\n"
    )
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    err = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stderr
    assert ("needs a model" in err or "--agent anthropic" in err) and "ANTHROPIC_API_KEY" in err, err
    assert err.splitlines()[-1] == "heavy: [] 2", err
    assert not (tmp_path / "s").exists()
