"""The import rules of docs/architecture.md are import-linter contracts in pyproject.toml.

`scripts/test.sh` runs `lint-imports`; these tests run it too, and check that every contract really
fails when its rule is broken (on a copy of the tree with the violating imports added: one run, each
contract's section of the report must name the import that breaks it).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("memgpt_lite", "bughunt", "evals", "benchmarks")
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
    # the ablation package is called by the command layer, never the reverse (not even for its output)
    ("bughunt/ablation/run.py", "import bughunt.commands.ablate", "bughunt layers"),
    ("bughunt/ablation/outcome.py", "import bughunt.report", "bughunt layers"),
    ("bughunt/ablation/config.py", "import bughunt.ablation.explorer", "ablations:"),
    ("bughunt/webapp/app.py", "import bughunt.sim.engine", "site data alone"),
    ("bughunt/sim/rng.py", "import bughunt.sim.memory", "simulator internals"),
    ("memgpt_lite/tools/registry.py", "import memgpt_lite.tools.memory_functions", "no import cycles"),
    # the engines import the login, never the other way round (type-checking imports count too)
    ("bughunt/explorer/login.py", "import bughunt.explorer.http_engine", "no import cycles"),
    ("bughunt/page.py", "import bughunt.actions", "bughunt layers"),
    ("bughunt/explorer/loop.py", "import sqlite3", "SQL only in the storage modules"),
    ("benchmarks/storage.py", "import sqlite3", "SQL only in the storage modules"),
    ("memgpt_lite/tools/bench_redaction.py", "import benchmarks.redaction", "nothing imports benchmarks"),
    ("evals/bench.py", "import benchmarks.memory", "nothing imports benchmarks"),
    ("benchmarks/storage.py", "import benchmarks.memory", "no import cycles"),
]


@pytest.fixture(scope="module")
def violated_report(tmp_path_factory) -> dict[str, str]:
    """One `lint-imports` run on a copy of the tree with every import of VIOLATIONS added (one process
    instead of one per violation): each broken contract's section of the report, by contract name."""
    root = tmp_path_factory.mktemp("tree")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, root / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    for path, line, _ in VIOLATIONS:
        with open(root / path, "a", encoding="utf-8") as f:
            f.write(f"\n{line}  # noqa\n")
    done = _lint(root)
    assert done.returncode == 1, done.stdout + done.stderr
    names = [
        c["name"]
        for c in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    ]
    # the report wraps at 80 columns: compare with whitespace collapsed
    flat = " ".join(done.stdout.split()).split("Broken contracts", 1)[1]
    starts = sorted((flat.index(f"{name} -"), name) for name in names if f"{name} -" in flat)
    ends = [start for start, _ in starts[1:]] + [len(flat)]
    return {name: flat[start:end] for (start, name), end in zip(starts, ends, strict=True)}


@pytest.mark.parametrize(("path", "line", "contract"), VIOLATIONS, ids=[v[0] for v in VIOLATIONS])
def test_each_contract_fails_when_violated(violated_report, path, line, contract):
    # the contract is reported broken, and its own section names the import added (module and target)
    (name,) = [n for n in violated_report if contract in n]
    section = violated_report[name]
    module = path.removesuffix(".py").replace("/", ".")
    imported = line.split()[-1]
    if "cycles" in name:  # a cycle is reported as the dependency to remove, relative to the package
        package = module.rsplit(".", 1)[0]
        assert f".{module.rsplit('.', 1)[1]} -> {imported.removeprefix(package)}" in section, section
    else:
        assert f"{module} -> {imported}" in section, section
