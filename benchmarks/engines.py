"""Pages per second and peak memory of the explorer's engines on the built-in sites, in one run.

    python -m benchmarks.engines [--json] [--repeats 3] [--budget 30] [--engine http --engine browser]
                                 [--site 24-page --site conduit-htmx]

For each built-in site (`bughunt serve-site --variant ...`: the 24-page site and conduit-htmx) and each
engine (`bughunt explore --engine http|browser`), `--repeats` explorations are run, the engines
alternating so a change of machine load hits both alike. Each exploration is a fresh process
(`python -m bughunt explore --url ... --budget N --json`) with a fresh store in a temporary directory,
removed afterwards. The site runs in a process of its own, started once per site and shared by every
run on it, so what is measured is the explorer alone (its server is neither timed nor counted).
conduit-htmx is explored logged in (its demo account, through the login form).

Per run:

- **wall** — seconds from process start to exit, start-up (imports, Chromium's launch) included;
- **pages/s** — page loads (`fetches` in the explorer's JSON) / wall; **clicks/s** — clicks / wall;
- **session s** and **session pages/s** — the same over the store's own span of the session (its
  `sessions.started_at` to `ended_at`): Python's start-up and imports excluded, Chromium's launch
  (at the first page load) included;
- **peak tree RSS** — the highest sum of the resident set sizes of the explorer process and all its
  descendants (Chromium's processes for the browser engine), sampled from /proc every `--interval`
  seconds; RSS counts shared pages in every process that maps them, so **peak tree PSS** (each shared
  page divided among its sharers, from /proc/PID/smaps_rollup) is given beside it;
- **max single RSS** — the kernel's own peak for the largest one process of the tree (`wait4`'s
  rusage), free of sampling; Linux carries the launcher's size at fork into it, which is small here
  (this module imports only the standard library) but not from a large parent such as pytest;
- **load** — `os.getloadavg()` before and after (the machine is shared: read the figures with it).

The HTTP engine is the baseline: each browser figure is printed beside the HTTP engine's on the same
site in the same run, with their ratio. Progress goes to stderr; `--json` prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from benchmarks.figures import load_text
from benchmarks.processes import stop
from bughunt.explorer.store import ExplorerStore

REPO = Path(__file__).resolve().parent.parent
SITES: tuple[str, ...] = ("24-page", "conduit-htmx")
ENGINES: tuple[str, ...] = ("http", "browser")
PASSWORD_ENV = "BH_BENCH_PASSWORD"
PAGE = os.sysconf("SC_PAGE_SIZE")
Record = dict[str, Any]
"""One run, summary or result, as printed by `--json`."""


# ---------------------------------------------------------------- process-tree memory, from /proc


def _children_map() -> dict[int, list[int]]:
    """ppid -> pids, for every process visible now."""
    kids: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read()
        except OSError:  # gone between the listing and the read
            continue
        # The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ')'.
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        kids.setdefault(ppid, []).append(int(entry.name))
    return kids


def tree_pids(root: int) -> list[int]:
    """`root` and all its descendants alive now."""
    kids = _children_map()
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, ()))
    return out


def _rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def _pss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, IndexError, ValueError):
        pass
    return 0


@dataclass
class TreeMemory:
    """Peaks of a process tree's memory, sampled until `stop()`."""

    root: int
    interval: float = 0.05
    peak_rss: int = 0
    peak_pss: int = 0
    peak_processes: int = 0
    samples: int = 0
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)
    _thread: threading.Thread | None = field(default=None, repr=False)

    def sample(self) -> None:
        pids = tree_pids(self.root)
        self.peak_rss = max(self.peak_rss, sum(_rss_bytes(p) for p in pids))
        self.peak_pss = max(self.peak_pss, sum(_pss_bytes(p) for p in pids))
        self.peak_processes = max(self.peak_processes, len(pids))
        self.samples += 1

    def start(self) -> TreeMemory:
        def loop() -> None:
            while not self._stop.is_set():
                self.sample()
                self._stop.wait(self.interval)

        self._thread = threading.Thread(target=loop, name="tree-memory", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


@dataclass
class Measured:
    returncode: int
    wall: float
    stdout: str
    stderr: str
    peak_rss: int
    peak_pss: int
    peak_processes: int
    samples: int
    max_single_rss: int  # bytes, from wait4's rusage (ru_maxrss is in KiB on Linux)


def measure(cmd: list[str], *, env: dict[str, str] | None = None, interval: float = 0.05) -> Measured:
    """Run `cmd` to completion, sampling its process tree's memory meanwhile."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        mem = TreeMemory(p.pid, interval).start()
        try:
            # wait4 rather than Popen.wait: its rusage is this child's (and its reaped descendants') own.
            _, status, usage = os.wait4(p.pid, 0)
        finally:
            mem.stop()
        wall = time.perf_counter() - t
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured(
            p.returncode, wall, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
            mem.peak_rss, mem.peak_pss, mem.peak_processes, mem.samples, usage.ru_maxrss * 1024,
        )  # fmt: skip


# ---------------------------------------------------------------- the sites and the explorations


@dataclass(frozen=True)
class Site:
    variant: str
    url: str
    username: str | None = None
    password: str | None = None
    login_url: str | None = None


@contextmanager
def serving(variant: str) -> Iterator[Site]:
    """`bughunt serve-site --variant VARIANT --port 0 --json` in a process of its own, until the block ends."""
    cmd = [sys.executable, "-m", "bughunt", "serve-site", "--variant", variant, "--port", "0", "--json"]
    # stderr to a file, not a pipe: a server logging every request would block on a full pipe.
    with tempfile.TemporaryFile(mode="w+") as log, _site_process(cmd, log) as p:
        line = p.stdout.readline() if p.stdout else ""
        if not line:
            p.wait(timeout=10)
            log.seek(0)
            raise SystemExit(f"error: {' '.join(cmd[2:])} did not start:\n{log.read()[-2000:]}")
        info = json.loads(line)
        yield Site(variant, info["url"], info.get("username"), info.get("password"), info.get("login_url"))


@contextmanager
def _site_process(cmd: list[str], log: IO[str]) -> Iterator[subprocess.Popen[str]]:
    p = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        yield p
    finally:
        stop(p)


def explore_command(site: Site, engine: str, budget: int, store: Path) -> list[str]:
    cmd = [
        sys.executable, "-m", "bughunt", "explore", "--url", site.url + "/", "--store", str(store),
        "--engine", engine, "--budget", str(budget), "--json",
    ]  # fmt: skip
    if site.username is not None:
        cmd += ["--login-url", site.login_url or "/login", "--username", site.username]
        cmd += ["--password-env", PASSWORD_ENV]
    return cmd


def store_facts(store: Path) -> tuple[float, str | None]:
    """From the store, read-only: its own span of the (only) session, and the kind of login it used."""
    explorer = ExplorerStore(store, create=False, lock=False)  # a reader: writes nothing
    try:
        last, login = explorer.history.last_session(), explorer.meta.get("login")
    finally:
        explorer.close()
    if last is None or last.ended_at is None:
        raise SystemExit(f"error: the store {store} records no finished session")
    return float(last.ended_at - last.started_at), login


def one_run(site: Site, engine: str, budget: int, interval: float) -> Record:
    """One exploration in a fresh process and a fresh store (removed afterwards)."""
    env = dict(os.environ)
    if site.password is not None:
        env[PASSWORD_ENV] = site.password  # never on a command line
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-engines-") as tmp:
        store = Path(tmp) / "store"
        m = measure(explore_command(site, engine, budget, store), env=env, interval=interval)
        session_s, login = store_facts(store) if m.returncode == 0 else (0.0, None)
    load_after = os.getloadavg()
    if m.returncode != 0:
        raise SystemExit(
            f"error: explore --engine {engine} on {site.variant} exited {m.returncode}:\n{m.stderr[-2000:]}"
        )
    result = json.loads(m.stdout)
    counts = result.get("counts", {})
    fetches, clicks = int(result["fetches"]), int(result["clicks"])
    return {
        "wall_s": m.wall,
        "fetches": fetches,
        "clicks": clicks,
        "pages_visited": int(counts.get("pages_visited", len(result.get("pages_visited", [])))),
        "bugs": len(result.get("bugs", [])),
        "bug_kinds": sorted(b["kind"] for b in result.get("bugs", [])),
        "stop_reason": result.get("stop_reason"),
        "login": login,  # the kind of login the explorer used (never a secret), None when none
        "pages_per_s": fetches / m.wall,
        "clicks_per_s": clicks / m.wall,
        "session_s": session_s,
        "session_pages_per_s": fetches / session_s if session_s > 0 else None,  # None: a zero-length span
        "peak_tree_rss_mb": m.peak_rss / 2**20,
        "peak_tree_pss_mb": m.peak_pss / 2**20,
        "max_single_rss_mb": m.max_single_rss / 2**20,
        "peak_processes": m.peak_processes,
        "memory_samples": m.samples,
        "load_before": list(load_before),
        "load_after": list(load_after),
        "store": str(store),
    }


MEDIANS = (
    "wall_s",
    "pages_per_s",
    "clicks_per_s",
    "session_s",
    "session_pages_per_s",
    "fetches",
    "clicks",
    "pages_visited",
    "bugs",
)
PEAKED = ("peak_tree_rss_mb", "peak_tree_pss_mb", "max_single_rss_mb", "peak_processes")


def summarise(runs: list[Record]) -> Record:
    """Medians of the rates and counts, the highest of the memory peaks."""
    out: Record = {}
    for k in MEDIANS:
        values = [r[k] for r in runs if r[k] is not None]
        out[k] = statistics.median(values) if values else None
    out |= {k: max(r[k] for r in runs) for k in PEAKED}
    out["wall_s_min"] = min(r["wall_s"] for r in runs)
    return out


RATIOS = (
    "pages_per_s",
    "clicks_per_s",
    "session_pages_per_s",
    "wall_s",
    "peak_tree_rss_mb",
    "peak_tree_pss_mb",
)


def ratios(engines: dict[str, Record]) -> dict[str, float | None] | None:
    """Browser over HTTP for each figure in RATIOS (None when either engine was not run)."""
    if "http" not in engines or "browser" not in engines:
        return None
    h, b = engines["http"]["summary"], engines["browser"]["summary"]
    return {k: (b[k] / h[k] if h[k] and b[k] is not None else None) for k in RATIOS}


def run_benchmark(sites: list[str], engines: list[str], repeats: int, budget: int, interval: float) -> Record:
    load_start = os.getloadavg()
    t0 = time.perf_counter()
    out: Record = {}
    for variant in sites:
        with serving(variant) as site:
            runs: dict[str, list[Record]] = {e: [] for e in engines}
            for i in range(repeats):
                for engine in engines:  # alternate, so load changes hit every engine alike
                    print(
                        f"[{variant}] {engine} run {i + 1}/{repeats} ...",
                        end=" ",
                        file=sys.stderr,
                        flush=True,
                    )
                    r = one_run(site, engine, budget, interval)
                    runs[engine].append(r)
                    print(
                        f"{r['wall_s']:.2f} s, {r['fetches']} pages, {r['pages_per_s']:.1f} pages/s, "
                        f"peak tree RSS {r['peak_tree_rss_mb']:.0f} MB",
                        file=sys.stderr,
                        flush=True,
                    )
        per_engine = {e: {"runs": rs, "summary": summarise(rs)} for e, rs in runs.items()}
        out[variant] = {"engines": per_engine, "browser_over_http": ratios(per_engine)}
    # What RUSAGE_CHILDREN says for all of them together: the largest single process over every run.
    children_max = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {
        "budget": budget,
        "repeats": repeats,
        "cpus": os.cpu_count(),
        "interval_s": interval,
        "load_start": list(load_start),
        "load_end": list(os.getloadavg()),
        "total_wall_s": time.perf_counter() - t0,
        "rusage_children_max_rss_mb": children_max,
        "sites": out,
    }


# ---------------------------------------------------------------- output


def _num(v: float | None, spec: str, suffix: str = "") -> str:
    """`v` formatted to `spec` (width included), or n/a in the same width."""
    width = int(spec.split(".")[0]) - len(suffix)
    return f"{'n/a':>{width + len(suffix)}}" if v is None else f"{v:{width}.{spec.split('.')[1]}}{suffix}"


def render(result: Record) -> str:
    lines = [
        f"explorer engines on the built-in sites — budget {result['budget']} clicks, {result['repeats']} "
        f"alternating run(s) per engine, {result['cpus']} CPUs, fresh process and store each run",
        f"load (1/5/15 min) at start {load_text(result['load_start'])}, at end {load_text(result['load_end'])}; "
        "medians over runs, memory = the highest peak",
        "",
        f"{'site':13} {'engine':8} {'wall s':>7} {'pages':>5} {'pages/s':>8} {'clicks/s':>8} "
        f"{'session s':>9} {'sess. p/s':>9} "
        f"{'tree RSS MB':>11} {'tree PSS MB':>11} {'procs':>5} {'bugs':>4}",
    ]
    for variant, s in result["sites"].items():
        for engine, e in s["engines"].items():
            m = e["summary"]
            lines.append(
                f"{variant:13} {engine:8} {m['wall_s']:7.2f} {m['fetches']:5.0f} {m['pages_per_s']:8.1f} "
                f"{m['clicks_per_s']:8.1f} {m['session_s']:9.2f} {_num(m['session_pages_per_s'], '9.1f')} "
                f"{m['peak_tree_rss_mb']:11.0f} {m['peak_tree_pss_mb']:11.0f} "
                f"{m['peak_processes']:5d} {m['bugs']:4.0f}"
            )
        r = s["browser_over_http"]
        if r is not None:
            lines.append(
                f"{variant:13} {'ratio':8} {r['wall_s']:6.1f}x {'':5} {r['pages_per_s']:7.2f}x "
                f"{r['clicks_per_s']:7.2f}x {'':9} {_num(r['session_pages_per_s'], '9.2f', 'x')} "
                f"{r['peak_tree_rss_mb']:10.1f}x {r['peak_tree_pss_mb']:10.1f}x"
                "   (browser / http)"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.engines", description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="runs per site and engine (default 3)")
    ap.add_argument("--budget", type=int, default=30, help="clicks per exploration (default 30)")
    ap.add_argument(
        "--engine", action="append", choices=ENGINES, help="engine to run (repeatable; default both)"
    )
    ap.add_argument("--site", action="append", choices=SITES, help="built-in site (repeatable; default both)")
    ap.add_argument(
        "--interval", type=float, default=0.05, help="seconds between memory samples (default 0.05)"
    )
    ap.add_argument("--json", action="store_true", help="print the result as one JSON object")
    args = ap.parse_args(argv)
    for flag, value, least in (("--repeats", args.repeats, 1), ("--budget", args.budget, 1)):
        if value < least:
            print(f"error: {flag} must be at least {least}, got {value}", file=sys.stderr)
            return 2
    if not args.interval > 0:
        print(f"error: --interval must be positive, got {args.interval}", file=sys.stderr)
        return 2
    if not Path("/proc/self/statm").exists():
        print("error: this benchmark reads process memory from /proc (Linux only)", file=sys.stderr)
        return 2
    engines = list(dict.fromkeys(args.engine or ENGINES))
    if "browser" in engines and not (Path("/usr/bin/chromium").exists() or shutil.which("chromium")):
        print(
            "error: --engine browser needs Chromium (/usr/bin/chromium); pass --engine http", file=sys.stderr
        )
        return 2
    sites = list(dict.fromkeys(args.site or SITES))
    result = run_benchmark(sites, engines, args.repeats, args.budget, args.interval)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
