"""The import rules of docs/architecture.md are import-linter contracts in pyproject.toml.

`scripts/test.sh` runs `lint-imports`; these tests run it too, and check that every contract really
fails when its rule is broken (on a copy of the tree with one import added).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("memgpt_lite", "bughunt", "evals")
LINT = [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"]


def _lint(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*LINT, "--no-cache"], cwd=cwd, env={"PYTHONPATH": str(cwd), "PATH": ""}, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip


def test_the_tree_keeps_every_contract():
    done = _lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


# (file, import added to it, words of the contract name that must be reported BROKEN)
VIOLATIONS = [
    ("bughunt/site.py", "import evals.layer1", "never imports evals"),
    ("memgpt_lite/agent.py", "import bughunt.site", "never imports evals"),
    ("memgpt_lite/context/blocks.py", "import memgpt_lite.tools.registry", "memgpt_lite layers"),
    ("memgpt_lite/memory.py", "import memgpt_lite.agent", "memgpt_lite layers"),
    ("memgpt_lite/llm/base.py", "import memgpt_lite.llm.anthropic", "only llm/anthropic.py"),
    ("bughunt/sim/engine.py", "import bughunt.explorer.store", "bughunt layers"),
    ("bughunt/webapp/app.py", "import bughunt.sim.engine", "site data alone"),
    ("bughunt/sim/rng.py", "import bughunt.sim.memory", "simulator internals"),
    ("memgpt_lite/tools/registry.py", "import memgpt_lite.tools.memory_functions", "no import cycles"),
    ("bughunt/explorer/session.py", "import sqlite3", "SQL only in the storage modules"),
    ("evals/bench_storage.py", "import sqlite3", "SQL only in the storage modules"),
]


@pytest.fixture(scope="module")
def tree_copy(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tree")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, root / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


@pytest.mark.parametrize(("path", "line", "contract"), VIOLATIONS, ids=[v[0] for v in VIOLATIONS])
def test_each_contract_fails_when_violated(tree_copy, path, line, contract):
    target = tree_copy / path
    original = target.read_text(encoding="utf-8")
    target.write_text(original + f"\n{line}  # noqa\n", encoding="utf-8")
    try:
        done = _lint(tree_copy)
    finally:
        target.write_text(original, encoding="utf-8")
    assert done.returncode == 1, done.stdout
    broken = [ln for ln in done.stdout.replace("\n", " ").split("KEPT") if "BROKEN" in ln]
    assert any(contract in chunk for chunk in broken), done.stdout
    assert line.split()[-1].rsplit(".", 1)[-1] in done.stdout  # the report names the offending import
