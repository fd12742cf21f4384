"""Start-up cost of `bughunt explore`: the CPU a `--budget 0` run spends (imports, the store, the free
landing on the start page) beside the interpreter's own start and the imports every run pays.

    python -m benchmarks.startup [--repeats 5] [--policy planner] [--code DIR] [--against DIR] [--json]

Each case is a fresh process whose user + system CPU comes from `os.wait4` (its own, not the
benchmark's nor a site server's); the cases run interleaved, `--repeats` rounds, and each figure is the
median of its rounds, so a burst of load on the shared machine moves one sample, not one case. The
children get a bytecode cache (`scale_run.child_env`), warmed by one uncounted round. `--code DIR` runs
them from another source tree (an unmodified checkout), as `benchmarks.scale` does; `--against DIR` runs
the two explore cases from DIR as well, in the same rounds (rows marked `[DIR]`), so a before and an after
share the machine's load.

Cases: `python -c pass` (the interpreter), `import httpx` (what any HTTP client pays), `import bughunt`,
`bughunt --help`, `explore --builtin-site --budget 0` (the site runs in the same process: its imports
count) and `explore --url URL --budget 0` against `serve-site` in a process of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.processes import serving, stop
from benchmarks.scale_run import REPO, child_env

Record = dict[str, Any]


@contextmanager
def served_site() -> Iterator[str]:
    """`bughunt serve-site --port 0` in a process of its own until the block ends: its URL."""
    cmd = [sys.executable, "-m", "bughunt", "serve-site", "--port", "0", "--json"]
    with serving(cmd, REPO, "serve-site") as answer:
        yield str(answer["url"])


def cases(url: str, store: Path, policy: str) -> dict[str, list[str]]:
    py = sys.executable
    explore = [py, "-m", "bughunt", "explore", "--store", str(store), "--budget", "0", "--policy", policy]
    return {
        "python -c pass": [py, "-c", "pass"],
        "import httpx": [py, "-c", "import httpx"],
        "import bughunt": [py, "-c", "import bughunt"],
        "bughunt --help": [py, "-m", "bughunt", "--help"],
        "explore --builtin-site --budget 0": [*explore, "--builtin-site", "--json"],
        "explore --url URL --budget 0": [*explore, "--url", url, "--json"],
    }


def cpu_ms(cmd: list[str], *, env: dict[str, str], cwd: Path, store: Path) -> float:
    """The child's own user + system CPU in ms; a fresh store each run (removed afterwards)."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(
            cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL
        )
        try:
            _, status, usage = os.wait4(p.pid, 0)  # wait4, not Popen.wait: the child's own rusage
        except BaseException:
            stop(p)
            raise
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            err.seek(0)
            raise SystemExit(f"error: {' '.join(cmd[1:])} exited {p.returncode}:\n{err.read()[-2000:]!r}")
    _remove_tree(store)
    return 1000 * (usage.ru_utime + usage.ru_stime)


def _remove_tree(path: Path) -> None:
    if path.exists():
        for child in sorted(path.rglob("*"), reverse=True):
            child.rmdir() if child.is_dir() else child.unlink()
        path.rmdir()


def run_benchmark(*, repeats: int, policy: str, code: Path | None, against: Path | None = None) -> Record:
    load_before = os.getloadavg()[0]
    samples: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp, served_site() as url:
        store = Path(tmp) / "store"
        todo = [(name, cmd, code) for name, cmd in cases(url, store, policy).items()]
        if against is not None:
            todo += [(f"{name} [{against}]", cmd, against) for name, cmd, _ in todo if "explore" in name]
        for round_ in range(repeats + 1):  # round 0 warms the bytecode cache and is not counted
            for name, cmd, tree in todo:
                env = child_env(tree, Path(tmp) / "pycache")
                ms = cpu_ms(cmd, env=env, cwd=tree or REPO, store=store)
                if round_:
                    samples.setdefault(name, []).append(ms)
    return {
        "policy": policy,
        "repeats": repeats,
        "code": str(code) if code else None,
        "against": str(against) if against else None,
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "cpu_ms": {name: round(statistics.median(v), 1) for name, v in samples.items()},
        "samples_ms": {name: [round(x, 1) for x in v] for name, v in samples.items()},
    }


def render(result: Record) -> str:
    lines = [
        f"policy {result['policy']}, median of {result['repeats']} interleaved rounds, "
        f"load {result['load_before']} -> {result['load_after']}"
        + (f", code {result['code']}" if result["code"] else ""),
        f"{'case':<56} {'cpu ms':>8}  samples",
    ]
    for name, ms in result["cpu_ms"].items():
        samples = " ".join(f"{x:.0f}" for x in result["samples_ms"][name])
        lines.append(f"{name:<56} {ms:>8.0f}  {samples}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.startup", description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="counted rounds (default 5; median reported)")
    parser.add_argument("--policy", default="planner", help="the explore runs' policy (default planner)")
    parser.add_argument("--code", type=Path, help="run the children from this source tree (PYTHONPATH)")
    parser.add_argument("--against", type=Path, help="also run the explore cases from this tree, interleaved")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    for option, tree in (("--code", args.code), ("--against", args.against)):
        if tree is not None and not (tree / "bughunt" / "__init__.py").is_file():
            parser.error(f"{option} {tree}: no bughunt package there")
    result = run_benchmark(repeats=args.repeats, policy=args.policy, code=args.code, against=args.against)
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
