"""Each oracle's instructions per inspected page, beside the bare loop's parse of the same pages
(`python -m benchmarks.oracle_cost replay REC.json --measure instructions`).

A replay's parts (`benchmarks.oracle_cost.run_part`) each run in a process of their own under
callgrind (`benchmarks.instructions`): `empty` (the recording loaded, its pages built), `read` (also
each inspected page read as the step reads it: its tree, base and actions), `all` (also every
oracle), `oracle:NAME` (the reading and that oracle alone) and `bare` (the bare loop's parse and
links of every page parsed, instead of the reading). Per inspected page:

- an oracle = (`oracle:NAME` − `read`) ÷ calls: the oracle **alone**, readings it shares with others
  (the page's pager, its lists, the count labels) included, so the sum over the oracles exceeds
  `all`; what a new oracle costs a page is its row;
- all oracles = (`all` − `read`) ÷ calls; the step's reading = (`read` − `empty`) ÷ calls;
- the bare loop = (`bare` − `empty`) ÷ calls: its parse and links of the inspected pages and those
  the oracles fetched (every page it would request), without the request itself (a replay has none:
  the bare loop's whole cost a fetch, request included, is `benchmarks.overhead --measure
  instructions`).

A count does not move with the machine's load (`benchmarks.instructions`), so a change of a few per
cent in one oracle shows here where CPU seconds cannot tell it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from benchmarks.instructions import counted, counted_env, counting
from bughunt.oracles import ORACLES

HERE = Path(__file__).resolve()


def parts() -> list[str]:
    return ["empty", "read", "all", "bare", *(f"oracle:{name}" for name in ORACLES)]


def _count(part: str, recording: Path, tree: Path, out: Path) -> int:
    env = counted_env({**os.environ, "PYTHONPATH": str(tree)})
    # this tree's replay (as `oracle_cost` replays), the oracles of `tree`
    cmd = [sys.executable, str(HERE.parent / "oracle_cost.py"), "part", part, str(recording)]
    for counted_run in (False, True):  # a first run, not counted, writes the bytecode cache
        p = subprocess.run(
            [*(counting(out) if counted_run else []), *cmd], cwd=tree, env=env,
            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=3600,
        )  # fmt: skip
        if p.returncode != 0:
            raise SystemExit(f"error: part {part} of {recording} exited {p.returncode}:\n{p.stderr[-2000:]}")
    n = counted(out)
    out.unlink()
    return n


def count_recording(recording: Path, tree: Path) -> dict[str, Any]:
    """Instructions per inspected page of each part of a replay of `recording` by the code of `tree`."""
    calls = len(json.loads(recording.read_text())["calls"])
    with TemporaryDirectory(prefix="oracle-instructions-") as tmp:
        raw = {}
        for part in parts():
            raw[part] = _count(part, recording, tree, Path(tmp) / "out.callgrind")
            print(f"counted {recording.name} {part} ({tree})", file=sys.stderr)
    per_page = {
        **{name: (raw[f"oracle:{name}"] - raw["read"]) / calls for name in ORACLES},
        "all oracles": (raw["all"] - raw["read"]) / calls,
        "the step reading the page": (raw["read"] - raw["empty"]) / calls,
        "bare loop: parse + links": (raw["bare"] - raw["empty"]) / calls,
    }
    return {"recording": recording.name, "code": str(tree), "calls": calls, "raw": raw, "per_page": per_page}


def count_recordings(recordings: list[Path], against: Path | None) -> list[dict[str, Any]]:
    trees = [HERE.parents[1]] + ([against.resolve()] if against is not None else [])
    return [count_recording(rec.resolve(), tree) for rec in recordings for tree in trees]


def render(counts: list[dict[str, Any]]) -> str:
    """The per-oracle table in M instructions a page, one column per recording and tree."""
    heads = [f"{c['recording'][:14]}/{Path(c['code']).name[-10:]}" for c in counts]
    lines = [f"{'M instructions / inspected page':32} " + " ".join(f"{h:>25}" for h in heads)]
    for row in counts[0]["per_page"] if counts else []:
        lines.append(f"{row:32} " + " ".join(f"{c['per_page'][row] / 1e6:>25.3f}" for c in counts))
    return "\n".join(lines)
