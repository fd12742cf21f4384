"""CPU per click of the explorer on a site of ≥ 10,000 pages, beside a bare crawl of the same URLs.

    python -m benchmarks.scale [--clicks 100,1000,5000] [--policy planner,frontier] [--json]
                               [--seed 1000] [--code DIR] [--walks DIR] [--quick]

The synthetic site (`benchmarks.scale_site`: ~14,700 pages, six planted bugs) runs in a process of
its own. For each policy the explorer runs once with `--budget 0` (start-up: imports, the store, the
free landing on the start page) and then once per `--clicks` value, each run a fresh
`python -m bughunt explore --url ... --budget N --policy P --json` process with a fresh store
(`benchmarks.scale_run`). Per run:

- **cpu s** — the explorer process's user + system CPU (wait4), start-up included;
- **ms/click** — (cpu − the budget-0 run's cpu) / clicks: what one click costs once started, on average;
- **last ms/click** — the CPU of the last fifth of the clicks (e.g. clicks 4,001–5,000 of 5,000) ÷ their
  number, from the child's own CPU (/proc/<pid>/stat) read at the progress looks: what a click costs
  at that size of memory (`last_ms_per_click`, from click `last_from_click`);
- **crawl ms/page** — a bare crawl (`benchmarks.scale_crawl`: httpx GET + selectolax parse + links
  resolved, nothing remembered) of the very routes the explorer's steps requested, in the same run;
- **× crawl** — ms/click ÷ crawl ms/page: the explorer's overhead over crawling, the figure to judge
  (both sides run on the same machine in the same minute, so load and CPU speed largely cancel);
- **peak MB** — the explorer's peak resident size; **store KB/page** — the store directory's bytes
  per page visited;
- **found / false** — planted bugs found (of 6) and findings that match no planted bug;
- **walk** — a digest of the steps (route, final route, outcome, status, tokens): two runs with
  equal digests made the same decisions. `--walks DIR` writes each walk as JSON for a diff.

`--code DIR` runs the explorer from another source tree (PYTHONPATH=DIR), e.g. an unmodified checkout,
so a before/after comparison serves the same site. Progress goes to stderr; `--json` prints one
object. Wall time is recorded (`wall_s`) but not judged.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)

from benchmarks.figures import num
from benchmarks.processes import serving
from benchmarks.scale_crawl import crawl
from benchmarks.scale_data import FULL, QUICK, Catalog
from benchmarks.scale_run import REPO, Run, child_env, explore
from benchmarks.scale_site import PLANTED, planted_for

POLICIES: tuple[str, ...] = ("planner", "frontier")
Record = dict[str, Any]


@contextmanager
def site_process(quick: bool) -> Iterator[Record]:
    """`python -m benchmarks.scale_site` in a process of its own until the block ends: {url, pages}."""
    cmd = [sys.executable, "-m", "benchmarks.scale_site", "--port", "0", *(["--quick"] if quick else [])]
    with serving(cmd, REPO, "the scale site") as answer:
        yield answer


def score(catalog: Catalog, run: Run) -> Record:
    """Planted bugs found (kind and description) and findings that match none (false positives)."""
    found: set[str] = set()
    false: list[str] = []
    for bug in run.bugs:
        planted = planted_for(catalog, bug.kind, bug.route)
        if planted is None:
            false.append(f"{bug.kind} {bug.route}")
        else:
            found.add(planted.kind)
    return {"found": sorted(found), "planted": len(PLANTED), "false_positives": false}


def row(run: Run, start_cpu_s: float, catalog: Catalog, url: str) -> Record:
    """One run's figures, its bare crawl made now."""
    baseline = crawl(url, run.routes)
    click_ms = 1000 * (run.cpu_s - start_cpu_s) / run.clicks if run.clicks else None
    page_ms = baseline.cpu_ms_per_page
    marginal = run.marginal()
    return {
        **{k: v for k, v in run.to_dict().items() if k not in ("walk", "bugs", "cpu_by_step")},
        "bugs": [asdict(b) for b in run.bugs],
        "start_cpu_s": start_cpu_s,
        "cpu_ms_per_click": click_ms,
        "crawl_pages": baseline.pages,
        "crawl_links": baseline.links,
        "crawl_cpu_s": baseline.cpu_s,
        "crawl_ms_per_page": page_ms,
        "over_crawl": click_ms / page_ms if click_ms is not None and page_ms else None,
        "last_from_click": marginal[0] if marginal else None,
        "last_ms_per_click": marginal[1] if marginal else None,
        "store_kb_per_page": run.store_bytes / 1024 / max(1, run.pages_visited),
        "score": score(catalog, run),
    }


def _bar_task(bar: Progress, description: str, clicks: int) -> Callable[[int], None]:
    """A progress callback moving one bar (the landing is a step too: clicks + 1 in all)."""
    task = bar.add_task(description, total=clicks + 1)

    def advance(steps: int) -> None:
        bar.update(task, completed=steps)

    return advance


def run_benchmark(
    clicks: list[int], policies: list[str], seed: int, quick: bool, code: Path | None, walks: Path | None
) -> Record:
    catalog = Catalog(QUICK if quick else FULL)
    console = Console(stderr=True)
    load_start = os.getloadavg()
    rows: list[Record] = []
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with (
        tempfile.TemporaryDirectory(prefix="bench-scale-pyc-") as pycache,
        site_process(quick) as site,
        Progress(*columns, console=console) as bar,
    ):
        env = child_env(code, Path(pycache))
        url = str(site["url"])
        console.print(
            f"scale site: {site['pages']:,} pages at {url}; explorer from {code or REPO}", highlight=False
        )
        console.print(HEADER, highlight=False, soft_wrap=True)
        warm = bar.add_task("warm-up (bytecode cache)", total=1)
        # compiles the bytecode cache; not counted
        explore(url, policies[0], 0, seed=seed, env=env, code=code)
        bar.update(warm, completed=1)
        for policy in policies:
            task = bar.add_task(f"{policy} start-up (budget 0)", total=1)
            start = explore(url, policy, 0, seed=seed, env=env, code=code)
            bar.update(task, completed=1)
            for n in clicks:
                advance = _bar_task(bar, f"{policy} {n} clicks", n)
                run = explore(url, policy, n, seed=seed, env=env, code=code, progress=advance)
                rows.append(row(run, start.cpu_s, catalog, url))
                if walks is not None:
                    walks.mkdir(parents=True, exist_ok=True)
                    (walks / f"{policy}-{n}.json").write_text(json.dumps(run.walk, indent=0))
                console.print(render_row(rows[-1]), highlight=False, soft_wrap=True)
    return {
        "site": {"pages": site["pages"], "quick": quick, "shape": asdict(catalog.shape)},
        "code": str(code) if code else None,
        "seed": seed,
        "load_start": list(load_start),
        "load_end": list(os.getloadavg()),
        "cpus": os.cpu_count(),
        "runs": rows,
    }


HEADER = (
    f"{'policy':<9}{'clicks':>7}{'fetches':>8}{'visited':>8}{'cpu s':>8}{'start s':>8}{'ms/click':>9}{'last ms/click':>14}"
    f"{'crawl ms/page':>14}{'× crawl':>8}{'peak MB':>8}{'store KB/page':>14}{'found':>6}{'false':>6}  walk"
)


def render_row(r: Record) -> str:
    s = r["score"]
    return (
        f"{r['policy']:<9}{r['clicks']:>7}{r['fetches']:>8}{r['pages_visited']:>8}{r['cpu_s']:>8.1f}"
        f"{r['start_cpu_s']:>8.2f}{num(r['cpu_ms_per_click'], '.1f'):>9}{num(r['last_ms_per_click'], '.1f'):>14}"
        f"{r['crawl_ms_per_page']:>14.2f}"
        f"{num(r['over_crawl'], '.0f'):>8}{r['peak_rss_mb']:>8.0f}{r['store_kb_per_page']:>14.1f}"
        f"{len(s['found']):>4}/{s['planted']}{len(s['false_positives']):>6}  {r['walk_digest']}"
    )


def render(result: Record) -> str:
    load = (
        " ".join(f"{x:.2f}" for x in result["load_start"]),
        " ".join(f"{x:.2f}" for x in result["load_end"]),
    )
    lines = [
        f"scale site: {result['site']['pages']:,} pages; {result['cpus']} CPUs; load {load[0]} at the start, {load[1]} at the end",
        HEADER,
        *(render_row(r) for r in result["runs"]),
    ]
    return "\n".join(lines)


def _int_list(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of numbers: {text!r}") from None
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"click counts must be at least 1: {text!r}")
    return values


def _policies(text: str) -> list[str]:
    names = [x.strip() for x in text.split(",") if x.strip()]
    wrong = [n for n in names if n not in POLICIES]
    if not names or wrong:
        raise argparse.ArgumentTypeError(f"policies are {', '.join(POLICIES)}; got {text!r}")
    return names


def main(argv: list[str] | None = None) -> int:
    # SIGTERM unwinds like Ctrl-C, so the site process, the running exploration and the temporary
    # stores are cleaned up (a killed benchmark left them behind)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.scale", description=__doc__.splitlines()[0] if __doc__ else None
    )
    parser.add_argument("--clicks", type=_int_list, help="click budgets (default 100,1000; --quick: 15,40)")
    parser.add_argument(
        "--policy", type=_policies, default=list(POLICIES), help="planner,frontier (default both)"
    )
    parser.add_argument("--seed", type=int, default=1000, help="the explorer's --seed (default 1000)")
    parser.add_argument("--code", type=Path, help="run the explorer from this source tree (PYTHONPATH)")
    parser.add_argument("--walks", type=Path, help="write each run's walk to DIR/<policy>-<clicks>.json")
    parser.add_argument("--quick", action="store_true", help="a site of ~500 pages and small budgets (tests)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    args = parser.parse_args(argv)
    if args.code is not None and not (args.code / "bughunt" / "__init__.py").is_file():
        parser.error(f"--code {args.code}: no bughunt package there")
    clicks = args.clicks or ([15, 40] if args.quick else [100, 1000])
    result = run_benchmark(clicks, args.policy, args.seed, args.quick, args.code, args.walks)
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
