"""`python -m benchmarks.startup`: start-up CPU of `explore --budget 0` beside its baselines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.startup import main, render

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--repeats", "0"], "--repeats must be at least 1"),
        (["--code", "/nonexistent"], "--code /nonexistent: no bughunt package"),
        (["--against", "/nonexistent"], "--against /nonexistent: no bughunt package"),
    ],
)
def test_bad_arguments_are_refused_before_anything_runs(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_one_round_measures_every_case_in_its_own_process():
    p = subprocess.run(
        [sys.executable, "-m", "benchmarks.startup", "--repeats", "1", "--policy", "frontier", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr[-2000:]
    result = json.loads(p.stdout)
    cases = result["cpu_ms"]
    assert list(cases) == [
        "python -c pass",
        "import httpx",
        "import bughunt",
        "bughunt --help",
        "explore --builtin-site --budget 0",
        "explore --url URL --budget 0",
    ]
    assert all(len(v) == 1 for v in result["samples_ms"].values())
    # each case is a real process: the interpreter's start is the floor, and an exploration that
    # opens a store and fetches a page costs more than importing the package
    bare = cases["python -c pass"]
    assert 0 < bare < cases["import httpx"]
    assert cases["import bughunt"] < cases["explore --url URL --budget 0"]
    assert cases["import bughunt"] < cases["explore --builtin-site --budget 0"]
    assert "explore --url URL --budget 0" in render(result)
