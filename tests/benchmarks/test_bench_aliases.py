"""The benchmarks live in `benchmarks/`; the commands scripts use (`python -m evals.bench`, `python -m
memgpt_lite.tools.bench_redaction`) are aliases that run them by name, and import nothing of them."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import benchmarks.memory

ROOT = Path(__file__).resolve().parents[2]


def _run(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_importing_the_aliases_loads_no_benchmark():
    # the layers hold at run time too: memgpt_lite and evals never import benchmarks/
    code = (
        "import sys, evals.bench, memgpt_lite.tools.bench_redaction; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'benchmarks'))"
    )
    done = _run("-c", code)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stderr


def test_the_redaction_alias_runs_the_benchmark(tmp_path):
    # from another directory: the alias finds benchmarks/ beside the package
    done = _run("-m", "memgpt_lite.tools.bench_redaction", "--size", "2048", "--no-old", "--repeat", "1",
                "--limit-ms", "500", "--json", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"rows", "worst_new_ms", "limit_ms", "ok"} and len(out["rows"]) == 8
    assert all(r["size"] == 2048 and r["old_ms"] is None for r in out["rows"])


def test_the_memory_alias_is_the_memory_benchmark(tmp_path):
    done = _run("-m", "evals.bench", "--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "usage: python -m benchmarks.memory" in done.stdout and "--context-only" in done.stdout
    bad = _run("-m", "evals.bench", "--no-such-flag", cwd=tmp_path)
    assert bad.returncode == 2 and "unrecognized arguments: --no-such-flag" in bad.stderr


def test_the_memory_benchmark_reports_progress_on_stderr(monkeypatch, capsys):
    # a short context step stands in for the real one (300 steps of 100 messages)
    small = functools.partial(benchmarks.memory.bench_context_step, n_messages=30, steps=5)
    monkeypatch.setattr(benchmarks.memory, "bench_context_step", small)
    assert benchmarks.memory.main(["--context-only", "--json"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert [line.split("] ", 1)[1] for line in lines] == ["context: 5 steps at 30 messages", "done"]
    assert all(line.startswith("[") and " s] " in line for line in lines)
    out = json.loads(captured.out)
    assert out["context_step_ms"]["steps"] == 5 and set(out["targets_met"]) == {"context_step"}
