"""`tests.support.hang_bound`: a test that never ends is cut off, named, and the run goes on."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_a_test_that_never_ends_is_cut_off_with_its_stack_and_the_run_goes_on(
    tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    assert pytestconfig.pluginmanager.hasplugin("tests.support.hang_bound")  # on for this suite
    (tmp_path / "test_stuck.py").write_text(
        textwrap.dedent(
            """
            import time

            def test_a_stuck_one():
                time.sleep(120)

            def test_b_next_one():
                assert True
            """
        )
    )
    env = {**os.environ, "MEMGPT_LITE_TEST_HANG_S": "3", "PYTHONPATH": str(ROOT)}
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-p", "no:cacheprovider",
         "-p", "tests.support.hang_bound", "-n", "1", "-p", "xdist", "--rootdir", str(tmp_path),
         str(tmp_path / "test_stuck.py")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=100,
    )  # fmt: skip
    took = time.monotonic() - started
    out = run.stdout + run.stderr
    assert run.returncode != 0, out
    assert "crashed while running" in out and "test_a_stuck_one" in out, out
    assert "Timeout (0:00:03)" in out and "test_stuck.py" in out, out  # every thread's stack
    assert "1 passed" in out, out  # the next test ran on a new worker
    assert took < 60, took
