"""The browser engine's cost per page beside a bare Playwright loop over the same pages, in one run.

    python -m benchmarks.browser_overhead [--site builtin,conduit-htmx] [--budget 30] [--repeats 3]
                                          [--seed 1000] [--against DIR] [--json]

For each built-in site (`bughunt serve-site --variant ...` in a process of its own, shared by every run
on it; `builtin` is the 24-page site, conduit-htmx is explored logged in as its demo account), each
repeat runs, interleaved so a change of the shared machine's load hits every side alike:

1. **explorer** — `bughunt explore --engine browser --budget N` (a fresh process and store), and the same
   with `--budget 0`: its start-up (imports, the store, Chromium's launch, the login, the free landing
   on the start page), subtracted from the first. Pages = the `fetches` of its JSON (steps, oracle
   fetches and retries), less those of the `--budget 0` run.
2. **bare** — a Python process that drives the same Chromium (Debian's, `executable_path`, headless,
   the engine's `CHROMIUM_ARGS` without its proxy) through one Playwright page: `page.goto(url,
   wait_until="load")` + `page.content()` over exactly the URLs of the explorer's steps in that run, in
   order (its store's steps, read-only). A step that is a click state (no URL of its own) is done as the
   explorer does it: `goto` of the page it was made on, `page.click(selector)`, `content()` — one page,
   as the explorer counts it (the bare side waits for nothing after the click). The bare side logs in
   through the same form first when the explorer did; its loop is timed inside its process, so its
   start-up (Chromium's launch, the login) is left out.

Per side: **wall s/page** and **CPU s/page** — the CPU of the whole process tree (Python, Playwright's
Node driver, every Chromium process): for the explorer each process's utime + stime sampled from /proc
(a process's last sample kept after it ends; or `wait4`'s rusage of the reaped tree when that is
larger), less its start-up run; for the bare side its own tree sampled at the loop's start and end. The
ratio explorer/bare of each. **Loop wall s/page**: the explorer's session as its store records it (from
its loop's start — after Chromium's launch and the login — to its end), less that of the `--budget 0`
run, per page, beside the bare loop's wall: the process's start-up varies by seconds under load (2.9 to
8.9 s between repeats at load ~12), which the process wall's subtraction carries into the figure.
Medians over the repeats; `os.getloadavg()` before and after. `--against
DIR` also runs the explorer side from another source tree (a before) in each repeat, beside the same bare
loop (rows marked `[DIR]`), so a before and an after share the machine's load. Progress goes to stderr;
`--json` prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from benchmarks.engines import (
    PASSWORD_ENV,
    REPO,
    Site,
    TreeMemory,
    explore_command,
    serving,
    store_facts,
    tree_pids,
)
from benchmarks.figures import load_text
from benchmarks.processes import stop
from bughunt.explorer.store import ExplorerStore

SITES = {"builtin": "24-page", "24-page": "24-page", "conduit-htmx": "conduit-htmx"}
"""`--site` names → `serve-site --variant` (`builtin` is the 24-page site, its default)."""
TICK = os.sysconf("SC_CLK_TCK")
Record = dict[str, Any]


# ---------------------------------------------------------------- the process tree's CPU


def _cpu_s(pid: int) -> float | None:
    """utime + stime of `pid` itself (its reaped children not included), None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rindex(b")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICK


@dataclass
class TreeCpu(TreeMemory):
    """`TreeMemory`'s sampling, plus each process's CPU as last seen: their sum is the tree's CPU (a
    process that ends between two samples loses at most one interval)."""

    last_cpu: dict[int, float] = field(default_factory=dict)

    def sample(self) -> None:
        for pid in tree_pids(self.root):
            cpu = _cpu_s(pid)
            if cpu is not None:
                self.last_cpu[pid] = max(cpu, self.last_cpu.get(pid, 0.0))
        self.samples += 1

    @property
    def cpu_s(self) -> float:
        return sum(self.last_cpu.values())


@dataclass(frozen=True)
class Ran:
    returncode: int
    wall_s: float
    cpu_s: float
    stdout: str
    stderr: str


def run_tree(cmd: list[str], env: dict[str, str], interval: float, cwd: Path = REPO) -> Ran:
    """Run `cmd` (in `cwd`) to completion; its wall time and its whole process tree's CPU."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        tree = TreeCpu(p.pid, interval)
        tree.start()
        try:
            _, status, usage = os.wait4(p.pid, 0)  # the reaped tree's own rusage
        except BaseException:
            stop(p)
            raise
        finally:
            tree.stop()
        wall = time.perf_counter() - t
        out.seek(0)
        err.seek(0)
        return Ran(
            os.waitstatus_to_exitcode(status),
            wall,
            max(tree.cpu_s, usage.ru_utime + usage.ru_stime),
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
        )


# ---------------------------------------------------------------- the two sides


def steps_loaded(store: Path, base_url: str) -> list[dict[str, str]]:
    """The explorer's steps as bare work items, in order: `{"url"}` or, for a click state, `{"url",
    "selector"}` (the page it was made on and the element clicked)."""
    explorer = ExplorerStore(store, create=False, lock=False)  # a reader: writes nothing
    try:
        items: list[dict[str, str]] = []
        for step in explorer.history.steps():
            click = explorer.link_table.click_of(step.route)
            if click is None:
                items.append({"url": base_url + step.route})
            else:
                items.append({"url": base_url + click[0], "selector": click[1]})
        return items
    finally:
        explorer.close()


def explore(
    site: Site, budget: int, seed: int, interval: float, code: Path | None = None
) -> tuple[Ran, Record, list[dict[str, str]]]:
    """One exploration in a fresh process and store, from `code` (a source tree; default this one:
    `python -m` puts its working directory first on the path)."""
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = str(code)
    if site.password is not None:
        env[PASSWORD_ENV] = site.password  # never on a command line
    with tempfile.TemporaryDirectory(prefix="bench-browser-") as tmp:
        store = Path(tmp) / "store"
        cmd = [*explore_command(site, "browser", budget, store), "--seed", str(seed)]
        ran = run_tree(cmd, env, interval, code or REPO)
        if ran.returncode != 0:
            raise SystemExit(
                f"error: explore --engine browser exited {ran.returncode}:\n{ran.stderr[-2000:]}"
            )
        items = steps_loaded(store, site.url)
        session_s = store_facts(store)[0]
    return ran, json.loads(ran.stdout) | {"session_s": session_s}, items


def bare(site: Site, items: list[dict[str, str]], interval: float) -> Record:
    """The bare loop in a process of its own; what it measured of its loop (its start-up excluded)."""
    env = dict(os.environ)
    if site.password is not None:
        env[PASSWORD_ENV] = site.password
    with tempfile.NamedTemporaryFile("w", suffix=".json") as work:
        json.dump(
            {"site": site.url, "login_url": site.login_url, "username": site.username, "items": items}, work
        )
        work.flush()
        ran = run_tree(
            [sys.executable, "-m", "benchmarks.browser_overhead", "--bare", work.name], env, interval
        )
    if ran.returncode != 0:
        raise SystemExit(f"error: the bare Playwright loop exited {ran.returncode}:\n{ran.stderr[-2000:]}")
    measured: Record = json.loads(ran.stdout)
    return measured | {"process_wall_s": ran.wall_s, "process_cpu_s": ran.cpu_s}


def _own_tree_cpu() -> float:
    return sum(cpu for pid in tree_pids(os.getpid()) if (cpu := _cpu_s(pid)) is not None)


def bare_loop(work_file: Path) -> int:
    """The bare side (run in a process of its own): log in when asked, then load every item; prints the
    loop's wall time and its process tree's CPU (sampled from /proc at its start and end) as JSON."""
    from playwright.sync_api import sync_playwright

    from bughunt.explorer.chromium import CHROMIUM_ARGS, chromium_path

    work = json.loads(work_file.read_text())
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            if work["username"]:
                page.goto(urljoin(work["site"] + "/", work["login_url"] or "/login"), wait_until="load")
                page.locator("input[type=password]").first.fill(os.environ[PASSWORD_ENV])
                page.locator("input:not([type]), input[type=text], input[type=email]").first.fill(
                    work["username"]
                )
                with page.expect_navigation(wait_until="load"):
                    page.locator("input[type=password]").first.press("Enter")
            cpu, wall = _own_tree_cpu(), time.perf_counter()
            for item in work["items"]:
                page.goto(item["url"], wait_until="load")
                if "selector" in item:
                    page.click(item["selector"], timeout=5000)
                page.content()
            wall, cpu = time.perf_counter() - wall, _own_tree_cpu() - cpu
        finally:
            browser.close()
    print(json.dumps({"pages": len(work["items"]), "wall_s": wall, "cpu_s": cpu}))
    return 0


# ---------------------------------------------------------------- one repeat, the benchmark


def _explorer_side(
    site: Site, budget: int, seed: int, interval: float, code: Path | None
) -> tuple[Record, list[dict[str, str]]]:
    start, start_json, _ = explore(site, 0, seed, interval, code)
    run, run_json, items = explore(site, budget, seed, interval, code)
    pages = int(run_json["fetches"]) - int(start_json["fetches"])
    if pages <= 0 or not items:
        raise SystemExit(f"error: the explorer loaded no page past its start on {site.variant}")
    side = _side(run, start, pages) | {
        "session_s": run_json["session_s"],
        "start_session_s": start_json["session_s"],
        "loop_s_per_page": max(run_json["session_s"] - start_json["session_s"], 0.0) / pages,
        "steps": len(items),
        "bugs": sorted(b["kind"] for b in run_json.get("bugs", [])),
    }
    return side, items


def one_repeat(site: Site, budget: int, seed: int, interval: float, against: Path | None = None) -> Record:
    load_before = os.getloadavg()
    before = _explorer_side(site, budget, seed, interval, against)[0] if against is not None else None
    explorer, items = _explorer_side(site, budget, seed, interval, None)
    measured = bare(site, items, interval)
    baseline = measured | {
        "wall_s_per_page": measured["wall_s"] / len(items),
        "cpu_s_per_page": measured["cpu_s"] / len(items),
        "start_wall_s": measured["process_wall_s"] - measured["wall_s"],
        "start_cpu_s": measured["process_cpu_s"] - measured["cpu_s"],
        "loop_s_per_page": measured["wall_s"] / len(items),
    }
    out: Record = {
        "explorer": explorer,
        "bare": baseline,
        "wall_ratio": explorer["wall_s_per_page"] / baseline["wall_s_per_page"],
        "cpu_ratio": explorer["cpu_s_per_page"] / baseline["cpu_s_per_page"],
        "loop_ratio": explorer["loop_s_per_page"] / baseline["loop_s_per_page"],
        "load_before": list(load_before),
        "load_after": list(os.getloadavg()),
    }
    if before is not None:
        out |= {
            "against": before,
            "against_wall_ratio": before["wall_s_per_page"] / baseline["wall_s_per_page"],
            "against_cpu_ratio": before["cpu_s_per_page"] / baseline["cpu_s_per_page"],
            "against_loop_ratio": before["loop_s_per_page"] / baseline["loop_s_per_page"],
        }
    return out


def _side(run: Ran, start: Ran, pages: int) -> Record:
    return {
        "pages": pages,
        "wall_s": run.wall_s,
        "start_wall_s": start.wall_s,
        "cpu_s": run.cpu_s,
        "start_cpu_s": start.cpu_s,
        "wall_s_per_page": max(run.wall_s - start.wall_s, 0.0) / pages,
        "cpu_s_per_page": max(run.cpu_s - start.cpu_s, 0.0) / pages,
    }


FIGURES = ("wall_s_per_page", "cpu_s_per_page", "loop_s_per_page", "pages", "start_wall_s", "start_cpu_s")


def run_benchmark(
    sites: list[str], budget: int, repeats: int, seed: int, interval: float, against: Path | None = None
) -> Record:
    load_start = os.getloadavg()
    out: Record = {}
    for name in sites:
        with serving(SITES[name]) as site:
            reps: list[Record] = []
            for i in range(repeats):
                print(f"[{name}] repeat {i + 1}/{repeats} ...", end=" ", file=sys.stderr, flush=True)
                r = one_repeat(site, budget, seed, interval, against)
                reps.append(r)
                e, b = r["explorer"], r["bare"]
                was = (
                    f" (against: {r['against_wall_ratio']:.2f}x wall, {r['against_loop_ratio']:.2f}x loop)"
                    if against is not None
                    else ""
                )
                print(
                    f"explorer {e['wall_s_per_page'] * 1000:.0f} ms/page wall, {e['cpu_s_per_page'] * 1000:.0f} "
                    f"ms CPU; bare {b['wall_s_per_page'] * 1000:.0f} / {b['cpu_s_per_page'] * 1000:.0f}; "
                    f"ratio {r['wall_ratio']:.2f}x wall, {r['cpu_ratio']:.2f}x CPU, {r['loop_ratio']:.2f}x loop{was}; "
                    f"load {os.getloadavg()[0]:.2f}",
                    file=sys.stderr,
                    flush=True,
                )
        sides = ("explorer", "bare") + (("against",) if against is not None else ())
        ratios = ("wall_ratio", "cpu_ratio", "loop_ratio") + (
            ("against_wall_ratio", "against_cpu_ratio", "against_loop_ratio") if against is not None else ()
        )
        out[name] = {
            "variant": SITES[name],
            "repeats": reps,
            "median": {
                side: {k: statistics.median(r[side][k] for r in reps) for k in FIGURES} for side in sides
            }
            | {k: statistics.median(r[k] for r in reps) for k in ratios},
        }
    return {
        "budget": budget,
        "repeats": repeats,
        "seed": seed,
        "against": str(against) if against is not None else None,
        "cpus": os.cpu_count(),
        "load_start": list(load_start),
        "load_end": list(os.getloadavg()),
        "sites": out,
    }


def render(result: Record) -> str:
    lines = [
        f"browser engine vs bare Playwright — budget {result['budget']}, seed {result['seed']}, "
        f"{result['repeats']} interleaved repeat(s), {result['cpus']} CPUs; medians; start-up subtracted",
        f"load (1/5/15 min) at start {load_text(result['load_start'])}, at end {load_text(result['load_end'])}",
        "",
        f"{'site':13} {'side':9} {'pages':>5} {'wall ms/page':>12} {'CPU ms/page':>11} "
        f"{'loop ms/page':>12} {'start wall s':>12} {'start CPU s':>11}",
    ]
    against = result.get("against")
    for name, s in result["sites"].items():
        m = s["median"]
        for side in ("explorer", "bare") + (("against",) if against else ()):
            f = m[side]
            lines.append(
                f"{name:13} {side:9} {f['pages']:5.0f} {f['wall_s_per_page'] * 1000:12.0f} "
                f"{f['cpu_s_per_page'] * 1000:11.0f} {f['loop_s_per_page'] * 1000:12.0f} "
                f"{f['start_wall_s']:12.2f} {f['start_cpu_s']:11.2f}"
            )
        lines.append(
            f"{name:13} {'ratio':9} {'':5} {m['wall_ratio']:11.2f}x {m['cpu_ratio']:10.2f}x "
            f"{m['loop_ratio']:11.2f}x   (explorer / bare)"
        )
        if against:
            lines.append(
                f"{name:13} {'ratio':9} {'':5} {m['against_wall_ratio']:11.2f}x {m['against_cpu_ratio']:10.2f}x "
                f"{m['against_loop_ratio']:11.2f}x   (against / bare; against = {against})"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m benchmarks.browser_overhead", description=__doc__.splitlines()[0]
    )
    ap.add_argument("--site", default="builtin,conduit-htmx", help="comma-separated: builtin, conduit-htmx")
    ap.add_argument("--budget", type=int, default=30, help="clicks per exploration (default 30)")
    ap.add_argument("--repeats", type=int, default=3, help="interleaved repeats per site (default 3)")
    ap.add_argument("--seed", type=int, default=1000, help="the explorer's policy seed (default 1000)")
    ap.add_argument(
        "--interval", type=float, default=0.05, help="seconds between /proc samples (default 0.05)"
    )
    ap.add_argument(
        "--against", type=Path, help="also run the explorer side from this source tree, in the same repeats"
    )
    ap.add_argument("--json", action="store_true", help="print the result as one JSON object")
    ap.add_argument("--bare", type=Path, help=argparse.SUPPRESS)  # the bare side's own process
    args = ap.parse_args(argv)
    if args.bare is not None:
        return bare_loop(args.bare)
    sites = list(dict.fromkeys(s.strip() for s in args.site.split(",") if s.strip()))
    unknown = [s for s in sites if s not in SITES]
    if unknown or not sites:
        ap.error(f"--site {args.site}: choose from builtin, conduit-htmx")
    if args.budget < 1 or args.repeats < 1:
        ap.error("--budget and --repeats must be at least 1")
    if not args.interval > 0:
        ap.error("--interval must be positive")
    if args.against is not None and not (args.against / "bughunt").is_dir():
        ap.error(f"--against {args.against}: not a source tree (no bughunt/ in it)")
    result = run_benchmark(sites, args.budget, args.repeats, args.seed, args.interval, args.against)
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
