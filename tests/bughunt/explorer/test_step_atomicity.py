"""One transaction per step: a process killed (SIGKILL) at any write of a step leaves the store with
either the whole step or none of it — never half a step.

A child process explores the built-in site with the planner; a trace callback on the store's connection
counts the write statements of one chosen step and kills the child at the k-th. The test first counts
the step's writes (no kill) and keeps two snapshots of the step tables: just before the step's write
and just after it. Then it kills a child at every write of the step, COMMIT included, and compares what
the store holds afterwards with the snapshots."""

from __future__ import annotations

import json
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bughunt.webapp import running_site

pytestmark = pytest.mark.slow

CHILD = r"""
import json, os, signal, sqlite3, sys
from pathlib import Path

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.graph import ExplorationGraph
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore

url, store_dir, target, kill_at, budget = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
writes = 0
write_step = ExplorationGraph.write_step


def backup(db, name):
    dest = sqlite3.connect(store_dir.parent / name)
    db.backup(dest)
    dest.close()


def counted(self, w):
    global writes
    n = self.step_count() + 1
    if n != target:
        return write_step(self, w)

    def trace(sql):
        global writes
        if re.match(r"\s*(INSERT|UPDATE|DELETE|REPLACE|COMMIT)", sql, re.I):
            writes += 1
            if writes == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)

    if not kill_at:
        backup(self.store.db, "before.sqlite")
    self.store.db.set_trace_callback(trace)
    try:
        out = write_step(self, w)
    finally:
        self.store.db.set_trace_callback(None)
    if not kill_at:
        backup(self.store.db, "after.sqlite")
    return out


import re
ExplorationGraph.write_step = counted
store = ExplorerStore(store_dir)
with make_policy("planner", store=store) as policy:
    result = Explorer(store, HttpEngine(url, respect_robots=False), policy, SessionConfig(budget=budget, builtin=True)).run()
bug_steps = [o.n for o in result.outcomes if o.new_bugs]
print(json.dumps({"writes": writes, "bug_steps": bug_steps}))
"""

# The step tables, without times and the volatile parts of what a response said.
TABLES = {
    "steps": "n, session_id, route, final_route, outcome, status, detail, app_version, tokens, repeat, retest",
    "pages": "route, outcome, status, visits, tested_version, needs_retest, structure_hash",
    "links": "src, pos, dst",
    "bugs": "id, fingerprint, route, kind, message, evidence, status, version, step, superseded_by",
    "reports": "id, step, session_id, fingerprint, route, kind, duplicate, source",
    "occurrences": "fingerprint, route, first_step, last_step, count",
    "click_actions": "route, page, selector",
    "observations": "id, text, provenance, quarantined, step",
    "meta": "key, value",
}
_VOLATILE = re.compile(r"(date: [^\n]*|elapsed_ms\W{0,4}[0-9.]+)")


def snapshot(path: Path) -> dict[str, list[tuple[object, ...]]]:
    db = sqlite3.connect(path)
    try:
        return {
            table: [
                tuple(_VOLATILE.sub("~", v) if isinstance(v, str) else v for v in row)
                for row in db.execute(f"SELECT {cols} FROM {table} ORDER BY 1, 2")
            ]
            for table, cols in TABLES.items()
        }
    finally:
        db.close()


def child(url: str, store: Path, target: int, kill_at: int, budget: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CHILD, url, str(store), str(target), str(kill_at), str(budget)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_kill_at_any_write_of_a_step_leaves_the_whole_step_or_none_of_it(tmp_path):
    with running_site() as url:
        # Find a step that records a bug (the richest step: visit, links, bug, report, occurrence,
        # quarantined evidence and page text), then count its writes and keep the snapshots.
        probe = child(url, tmp_path / "probe" / "store", 0, 0, 12)
        assert probe.returncode == 0, probe.stderr[-2000:]
        target = json.loads(probe.stdout.strip().splitlines()[-1])["bug_steps"][0]
        ref_dir = tmp_path / "ref"
        ref = child(url, ref_dir / "store", target, 0, target)
        assert ref.returncode == 0, ref.stderr[-2000:]
        writes = json.loads(ref.stdout.strip().splitlines()[-1])["writes"]
        before, after = snapshot(ref_dir / "before.sqlite"), snapshot(ref_dir / "after.sqlite")
        assert before != after and writes >= 10  # the step writes a lot, or this test checks nothing
        assert [r[0] for r in after["steps"]][-1] == target
        for k in range(1, writes + 1):
            run_dir = tmp_path / f"kill{k}"
            killed = child(url, run_dir / "store", target, k, target)
            assert killed.returncode == -signal.SIGKILL, (k, killed.returncode, killed.stderr[-1000:])
            left = snapshot(run_dir / "store" / "bughunt.sqlite")
            # Killed before COMMIT returned: the step is not there at all, and nothing of it is.
            assert left == before, (k, {t for t in TABLES if left[t] != before[t]})
