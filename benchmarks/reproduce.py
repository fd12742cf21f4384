"""Time `bughunt ablate --reproduce` against the seed's own script, in the same session.

    python -m benchmarks.reproduce [--repeats 5] [--seed-file PATH] [--json]

Three programs are timed, alternately, each as a fresh process (wall time including start-up):

1. **seed script** — the condensed script of the seed (`--seed-file`, default `../shared/seeds/001_*.txt`
   beside the clone; section 代码), extracted at run time and run as is. The seed text carries no
   license, so it is not shipped: in a clone without it, programs 1 and 2 are skipped (said in one
   line) and only ours are timed. It computes the two paired
   coverage intervals only (600 runs).
2. **seed functions, same work** — the seed script's own `run`/`batch`/`mean_ci`, imported from the
   extracted file and driven to compute every figure `--reproduce` prints (4,200 runs, three 10,000-
   resample bootstraps in pure Python as the standard library allows), serially. This stands in for the
   seed's full script, which the seed describes ("about 3 seconds") but does not reproduce.
3. **ours** — `bughunt ablate --reproduce --json FILE` (local processes), the same with `--workers 1`,
   and the same with only the `ablate` command module loaded (the `bughunt` dispatcher imports every
   command module to build its parser, so other commands' imports count in the first two).

The benchmark also checks that the seed script's printed intervals equal ours.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SEED_GLOB = str(REPO.parent / "shared" / "seeds" / "001_*.txt")

SAME_WORK_DRIVER = r"""
import math, random, statistics, sys
ns = {"__name__": "seed_script"}
exec(compile(open(sys.argv[1], encoding="utf-8").read(), sys.argv[1], "exec"), ns)
run, batch, mean_ci = ns["run"], ns["batch"], ns["mean_ci"]
res = {s: batch(s) for s in ("random", "visited", "frontier")}
def boot(d, rng, b=10000):
    n = len(d)
    means = sorted(statistics.fmean(rng.choices(d, k=n)) for _ in range(b))
    return means[250], means[b - 251]
rng = random.Random(0)
out = {}
for s in ("visited", "frontier"):
    d = [a["coverage"] - b["coverage"] for a, b in zip(res[s], res["random"])]
    out[s] = (mean_ci(d), sum(x > 0 for x in d), boot(d, rng))
until = {s: [run(s, 1000 + i, until_all_bugs=True) for i in range(200)] for s in res}
cap = {(c, p): batch("frontier", c, p) for c in (4, 8, 12, 16, 20) for p in ("fifo", "lru", "random")}
d = [a["coverage"] - b["coverage"] for a, b in zip(cap[12, "random"], cap[12, "fifo"])]
out["cap12"] = (mean_ci(d), boot(d, rng))
for s in res:
    print(s, statistics.fmean(r["coverage"] for r in res[s]), statistics.fmean(r["tokens"] for r in res[s]),
          statistics.fmean(r["steps"] for r in until[s]), statistics.fmean(r["tokens"] for r in until[s]))
print(out)
"""


# `bughunt` builds its parser from every command module; this runs `ablate --reproduce` with only its
# own module loaded, to show how much of the wall time is other commands' import cost.
ONLY_ABLATE = (
    "import argparse, sys; from bughunt.commands import ablate; p = argparse.ArgumentParser(); "
    "ablate.register(p.add_subparsers()); a = p.parse_args(['ablate', '--reproduce']); sys.exit(a.func(a))"
)


def extract_seed_script(seed_file: Path) -> str:
    """The condensed script: from `import math` up to the prose that follows it."""
    text = seed_file.read_text(encoding="utf-8")
    m = re.search(r"^import math\n.*?(?=^上面是精简版)", text, flags=re.S | re.M)
    if not m:
        raise SystemExit(f"no script found in {seed_file} (expected a block starting with 'import math')")
    return m.group(0)


def _time(cmd: list[str], cwd: Path) -> tuple[float, str]:
    t = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    return wall, p.stdout


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.reproduce", description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5, help="timed runs of each program (default 5)")
    ap.add_argument("--seed-file", default=None, help=f"seed text (default {DEFAULT_SEED_GLOB})")
    ap.add_argument("--json", action="store_true", help="print the timings as JSON")
    args = ap.parse_args(argv)

    if args.repeats < 1:
        print(f"error: --repeats must be at least 1, got {args.repeats}", file=sys.stderr)
        return 2
    found = args.seed_file or next(iter(sorted(glob.glob(DEFAULT_SEED_GLOB))), None)
    seed_file = Path(found) if found else None
    if args.seed_file and not Path(args.seed_file).is_file():
        print(f"error: --seed-file {args.seed_file}: no such file", file=sys.stderr)
        return 2
    if seed_file is None:  # a fresh clone: the unlicensed seed text is not part of the project
        print(
            f"note: seed script not timed (no {DEFAULT_SEED_GLOB}; the seed text is not shipped — pass "
            "--seed-file PATH to compare against it)",
            file=sys.stderr,
        )
    bughunt = [sys.executable, "-m", "bughunt"]
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        ours_json = d / "ours.json"
        programs: dict[str, list[str]] = {}
        if seed_file is not None:
            script = d / "agent_memory_sim.py"
            script.write_text(extract_seed_script(seed_file), encoding="utf-8")
            driver = d / "same_work.py"
            driver.write_text(SAME_WORK_DRIVER, encoding="utf-8")
            programs["seed script (condensed, 600 runs)"] = [sys.executable, str(script)]
            programs["seed functions, same work (4,200 runs)"] = [sys.executable, str(driver), str(script)]
        programs |= {
            "bughunt ablate --reproduce": [*bughunt, "ablate", "--reproduce", "--json-file", str(ours_json)],
            "bughunt ablate --reproduce --workers 1": [*bughunt, "ablate", "--reproduce", "--workers", "1"],
            "same, this command's imports only": [sys.executable, "-c", ONLY_ABLATE],
        }
        times: dict[str, list[float]] = {k: [] for k in programs}
        outputs: dict[str, str] = {}
        for _ in range(args.repeats):
            for name, cmd in programs.items():  # alternate, so load changes hit every program alike
                wall, out = _time(cmd, REPO)
                times[name].append(wall)
                outputs[name] = out
        seed_out = outputs.get("seed script (condensed, 600 runs)", "")
        seed_lines = [ln for ln in seed_out.splitlines() if "random" in ln]
        ours = json.loads(ours_json.read_text(encoding="utf-8"))
    agree = _seed_agrees(seed_lines, ours) if seed_file is not None else None
    result = {
        "cpus": os.cpu_count(),
        "repeats": args.repeats,
        "seconds": {k: {"min": min(v), "median": statistics.median(v)} for k, v in times.items()},
        "seed_script_output": seed_lines,
        "seed_file": str(seed_file) if seed_file is not None else None,
        "seed_script_agrees_with_ours": agree,  # null when the seed was not available
    }
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(
            f"wall time, {args.repeats} alternating runs each, {os.cpu_count()} CPUs (fresh process each run)"
        )
        for k, v in result["seconds"].items():
            print(f"  {k:40} median {v['median']:.3f} s   min {v['min']:.3f} s")
        if seed_file is not None:
            print("seed script prints:", *seed_lines, sep="\n  ")
            print(f"same intervals as ours: {'yes' if agree else 'NO'}")
    return 1 if agree is False else 0


def _seed_agrees(seed_lines: list[str], ours: dict[str, Any]) -> bool:
    sys.path.insert(0, str(REPO))
    from bughunt.sim.stats import pct

    for s, line in zip(("visited", "frontier"), seed_lines, strict=False):
        p = ours["paired"][f"{s}_vs_random"]
        want = f"{pct(p['mean'], True)} 个百分点 [{pct(p['lo'], True)}, {pct(p['hi'], True)}]"
        if want not in line:
            return False
    return len(seed_lines) == 2


if __name__ == "__main__":
    sys.exit(main())
