"""`python -m corpus run`: every application, clean and buggy, at each budget; one table.

For each application: check it out at its commit (from a mirror of bare git dirs, or GitHub with
`--clone`), set it up once (cached in `--work`), then for the clean and the buggy build at each
budget: seed a fresh database, start the server on a free loopback port, run `bughunt explore` on it,
stop the server (its whole process group), and score the report against the planted bugs.
Progress goes to stderr; the table (or `--json`) to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from corpus.build import (
    SEED_TIMEOUT_S,
    BuildError,
    Checkout,
    build,
    checkout,
    exclusive,
    run_commands,
    set_up,
)
from corpus.repeats import false_positives_cell, found_cell, merge
from corpus.score import Report, reports, score
from corpus.server import free_port, serving, stop_group
from corpus.spec import App, SpecError, load_apps

DEFAULT_WORK = Path(".corpus-work")
DEFAULT_MIRROR = Path("/work/.mirror")
PASSWORD_ENV = "CORPUS_PASSWORD"
# An exploration's own bound: 10 s a click is far above what a loopback app needs, plus room to start.
EXPLORE_S_PER_CLICK = 10.0
EXPLORE_BASE_S = 120.0


def _progress(message: str) -> None:
    print(f"[corpus] {message}", file=sys.stderr, flush=True)


@dataclass
class Run:
    """One exploration of one build at one budget, scored."""

    app: str
    family: str
    commit: str
    build: str  # clean | buggy
    budget: int
    engine: str
    planted: int = 0
    found: dict[str, int | None] = field(default_factory=dict)
    missed: list[str] = field(default_factory=list)
    suspected: list[str] = field(default_factory=list)
    """Missed planted bugs a lead points at (files from before 2026-12-04: found only by a lead)."""
    false_positives: list[dict[str, Any]] = field(default_factory=list)
    leads: list[dict[str, Any]] = field(default_factory=list)
    """Suspected reports (destructive links not opened): neither found bugs nor false positives."""
    upstream: list[dict[str, Any]] = field(default_factory=list)
    """Reports an `[[upstream]]` entry of the app file explains (the app as published misbehaves
    there): neither found bugs nor false positives, each with the entry's id."""
    duplicates: int = 0
    clicks: int | None = None
    pages_visited: int | None = None
    repeat_clicks: int | str = "n/a"
    repeat_visits: int | None = None  # the explore JSON's clicks onto an already-visited page
    stop_reason: str | None = None
    wall_s: float = 0.0
    load: str = ""
    error: str | None = None
    allow_destructive: bool = False
    repeat: int = 1
    """How many times this build was explored at this budget (`--repeat`); with more than one, `found`
    holds the bugs found in every repeat and `false_positives` the reports of any (`repeats.merge`)."""
    found_union: dict[str, int | None] = field(default_factory=dict)
    """Planted bugs found in any repeat (first click: the earliest)."""
    found_intersection: dict[str, int | None] = field(default_factory=dict)
    """Planted bugs found in every repeat (first click: the latest) — `found`."""
    false_positives_union: list[dict[str, Any]] = field(default_factory=list)
    """False positives of any repeat, by kind and route — `false_positives`."""
    false_positives_intersection: list[dict[str, Any]] = field(default_factory=list)
    """False positives of every repeat: the ones that do not depend on timing."""
    repeats: list[dict[str, Any]] = field(default_factory=list)
    """Each repeat's own row (empty for a single run)."""


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f}/{five:.2f}"


OK_EXITS: frozenset[int] = frozenset({0, 3})
"""bughunt's exit codes of a run that went through (3: bugs under `--fail-on`, which the corpus never sets)."""

EARLY_STOPS: frozenset[str] = frozenset({"login_lost", "site_unreachable"})
"""Stop reasons explore exits 1 with after exploring: what it reported before the stop stands (a user
reads those findings too), so the row is scored and says where the run stopped instead of erasing it."""


def _bughunt(args: list[str], timeout_s: float, env: dict[str, str]) -> dict[str, Any]:
    """Run a bughunt command in its own process group, bounded; its `--json` output parsed."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bughunt", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        stop_group(process)
        raise BuildError(f"bughunt {args[0]} took longer than {timeout_s:.0f} s") from None
    finally:
        if process.poll() is None:
            stop_group(process)
    tail = err.decode(errors="replace").strip().splitlines()[-1:] or ["no output"]
    return answer(args[0], process.returncode, out, tail[0])


def answer(command: str, returncode: int, out: bytes, last_error_line: str) -> dict[str, Any]:
    """A bughunt command's parsed `--json` output, or the error its row shows."""
    failed = BuildError(f"bughunt {command} exited {returncode}: {last_error_line}")
    try:
        parsed = json.loads(out)
    except json.JSONDecodeError:
        raise failed from None
    if not isinstance(parsed, dict):
        raise failed
    if returncode in OK_EXITS:
        return parsed
    # A run that printed its JSON may still have failed (explore exits 1 when nothing could be
    # explored, e.g. robots.txt disallows the start page): its row must say so, not read as done.
    # One that explored and then lost its login or its site is scored on what it reported.
    explored = (parsed.get("counts") or {}).get("pages_visited")
    if returncode == 1 and parsed.get("stop_reason") in EARLY_STOPS and explored:
        return parsed
    raise failed


def explore(
    co: Checkout,
    base: str,
    store: Path,
    budget: int,
    engine: str,
    allow_destructive: bool,
    click_s: float = EXPLORE_S_PER_CLICK,
) -> tuple[dict[str, Any], list[Report]]:
    app = co.app
    args = ["explore", "--url", base + app.start_path, "--store", str(store), "--budget", str(budget)]
    args += ["--engine", engine, "--json"]
    if allow_destructive:
        args.append("--allow-destructive")
    env = dict(os.environ)
    if app.login is not None:
        args += ["--login-url", base + app.login.url, "--username", app.login.username]
        args += ["--password-env", PASSWORD_ENV]
        env[PASSWORD_ENV] = app.login.password
    timeout_s = EXPLORE_BASE_S + click_s * budget
    result = _bughunt(args, timeout_s, env)
    memory = _bughunt(["memory", "--store", str(store), "--json"], 120.0, env)
    return result, reports(result, memory)


def run_one(
    co: Checkout,
    work: Path,
    buggy: bool,
    budget: int,
    engine: str,
    keep: bool,
    allow_destructive: bool,
    attempt: int = 1,
    click_s: float = EXPLORE_S_PER_CLICK,
) -> Run:
    """One exploration, scored; `attempt` (of `--repeat`) > 1 keeps its files in `<build>-<budget>-r<n>`."""
    app = co.app
    name = "buggy" if buggy else "clean"
    run = Run(app.name, app.family, app.commit, name, budget, engine, len(app.bugs) if buggy else 0)
    run.allow_destructive = allow_destructive
    runs = work / app.name / "runs" / (f"{name}-{budget}" + (f"-r{attempt}" if attempt > 1 else ""))
    shutil.rmtree(runs, ignore_errors=True)
    started = time.monotonic()
    try:
        build(co, buggy)
        run_commands(
            co, app.seed, app.seed_timeout_s or SEED_TIMEOUT_S, runs / "seed.log", _progress, f"seed {name}"
        )
        port = free_port()
        with serving(co, port, runs / "server.log") as base:
            _progress(f"{app.name}: {name} build on {base}, exploring {budget} clicks ({engine})")
            result, found = explore(co, base, runs / "store", budget, engine, allow_destructive, click_s)
        scored = score(app.bugs if buggy else (), found, app.upstream)
        run.found, run.missed, run.duplicates = scored.found, scored.missed, len(scored.duplicates)
        run.suspected = scored.suspected
        run.false_positives = [
            {"kind": r.kind, "route": r.routes[0], "click": r.first_click, "suspected": r.suspected}
            for r in scored.false_positives
        ]
        run.leads = [
            {"kind": r.kind, "route": r.routes[0], "click": r.first_click, "planted": bug_id}
            for r, bug_id in scored.leads
        ]
        run.upstream = [
            {"kind": r.kind, "route": r.routes[0], "click": r.first_click, "upstream": entry_id}
            for r, entry_id in scored.upstream
        ]
        counts = result.get("counts") or {}
        run.clicks = result.get("clicks")
        run.pages_visited = counts.get("pages_visited", len(result.get("pages_visited") or []))
        run.repeat_clicks = result.get("repeat_clicks", "n/a")
        run.repeat_visits = result.get("repeat_visits")
        run.stop_reason = result.get("stop_reason")
    except BuildError as error:
        run.error = str(error)
        run.missed = [b.id for b in app.bugs] if buggy else []
        _progress(f"{app.name}: {name} {budget}: {error}")
    finally:
        run.wall_s = round(time.monotonic() - started, 1)
        run.load = _load()
        if not keep:
            shutil.rmtree(runs / "store", ignore_errors=True)
    # one run: what any repeat found is what every repeat found
    run.found_union, run.found_intersection = dict(run.found), dict(run.found)
    run.false_positives_union, run.false_positives_intersection = (
        list(run.false_positives),
        list(run.false_positives),
    )
    return run


def run_app(
    app: App,
    work: Path,
    mirror: Path,
    clone: bool,
    budgets: list[int],
    builds: list[str],
    engine: str | None,
    keep: bool,
    allow_destructive: bool,
    repeat: int = 1,
    click_s: float = EXPLORE_S_PER_CLICK,
) -> list[Run]:
    """Every build of `app` at every budget, each explored `repeat` times (one row each: `merge`)."""
    runs: list[Run] = []
    try:
        with exclusive(app, work):
            co = checkout(app, work, mirror, clone, _progress)
            set_up(co, work, _progress)
            for budget in budgets:
                for name in builds:
                    tries = [
                        run_one(
                            co,
                            work,
                            name == "buggy",
                            budget,
                            engine or app.engine,
                            keep,
                            allow_destructive,
                            attempt,
                            click_s,
                        )  # fmt: skip
                        for attempt in range(1, repeat + 1)
                    ]
                    runs.append(merge(tries) if repeat > 1 else tries[0])
            build(co, buggy=False)  # leave the checkout as the commit plus its patches
    except BuildError as error:
        _progress(str(error))
        runs.append(Run(app.name, app.family, app.commit, "setup", 0, "-", error=str(error)))
    return runs


def _table(runs: list[Run]) -> Table:
    table = Table(
        title="BugHunt on the corpus (found: planted bug id @ click it was first found; leads: "
        "destructive links not opened, counted neither found nor false positive; id? = the planted "
        "bug a lead points at; upstream: the app's own bugs its file lists, counted neither)"
    )
    for column in (
        "app",
        "family",
        "commit",
        "build",
        "budget",
        "found",
        "false pos.",
        "leads",
        "upstream",
        "dup.",
        "pages",
        "repeat clicks",
        "wall s",
        "load 1/5",
    ):
        table.add_column(column, overflow="fold")
    for run in runs:
        if run.error:
            found = f"error: {run.error}"
        elif run.build == "buggy" and run.repeat > 1:
            found = found_cell(run) + (f"; missed {', '.join(run.missed)}" if run.missed else "")
        elif run.build == "buggy":
            hits = ", ".join(
                f"{bug_id}@{click}" for bug_id, click in sorted(run.found.items(), key=lambda kv: kv[1] or 0)
            )
            found = f"{len(run.found)}/{run.planted}" + (f": {hits}" if hits else "")
            if run.stop_reason in EARLY_STOPS:
                found += f" (stopped: {run.stop_reason} after {run.clicks} clicks)"
            if run.missed:
                pointed = {lead.get("planted") for lead in run.leads}
                found += "; missed " + ", ".join(f"{m}{'?' if m in pointed else ''}" for m in run.missed)
        else:
            found = "-"
        fps = "; ".join(
            f"{fp['kind']}{'?' if fp.get('suspected') else ''} {fp['route']}" for fp in run.false_positives
        )
        if run.repeat > 1:
            fps = false_positives_cell(run)
        leads = "; ".join(lead["route"] for lead in run.leads)
        upstream = "; ".join(f"{u['upstream']} {u['route']}" for u in run.upstream)
        table.add_row(
            run.app,
            run.family,
            run.commit[:10],
            run.build + (" (destructive opened)" if run.allow_destructive else ""),
            str(run.budget),
            found,
            fps if run.repeat > 1 else f"{len(run.false_positives)}" + (f": {fps}" if fps else ""),
            f"{len(run.leads)}" + (f": {leads}" if leads else ""),
            f"{len(run.upstream)}" + (f": {upstream}" if upstream else ""),
            str(run.duplicates),
            str(run.pages_visited),
            str(run.repeat_clicks)
            + (f" (repeat_visits {run.repeat_visits})" if run.repeat_visits is not None else ""),
            f"{run.wall_s:.0f}",
            run.load,
        )
    return table


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m corpus", description=__doc__.splitlines()[0] if __doc__ else None
    )
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="explore every application, clean and buggy, and print the table")
    run.add_argument("--apps", help="comma-separated application names (default: every corpus/apps/*.toml)")
    run.add_argument("--budgets", default="100,30", help="comma-separated click budgets (default 100,30)")
    run.add_argument("--engine", choices=["http", "browser", "auto"], help="override each app's engine")
    run.add_argument("--builds", default="clean,buggy", help="clean, buggy or both (default clean,buggy)")
    run.add_argument(
        "--mirror", type=Path, default=DEFAULT_MIRROR, help="folder of <owner>+<name> bare git dirs"
    )
    run.add_argument("--clone", action="store_true", help="git clone from GitHub instead of the mirror")
    run.add_argument(
        "--work", type=Path, default=DEFAULT_WORK, help="checkouts, venvs, logs (default .corpus-work/)"
    )
    run.add_argument("--json", action="store_true", help="print the runs as JSON instead of the table")
    run.add_argument("--keep", action="store_true", help="keep each exploration's store in --work")
    run.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="explore each build at each budget N times (default 1): one row each, with the bugs found "
        "in every repeat and in any, the false positives of any repeat and of every one",
    )
    run.add_argument(
        "--allow-destructive",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="pass --allow-destructive to bughunt (default: every build is a fresh seeded database, "
        "disposable); --no-allow-destructive measures the default of a real site (links suspected, unopened)",
    )
    run.add_argument(
        "--click-seconds",
        type=float,
        default=EXPLORE_S_PER_CLICK,
        help=f"an exploration is stopped after {EXPLORE_BASE_S:.0f} s plus this many seconds a click "
        f"(default {EXPLORE_S_PER_CLICK:.0f}; raise it for browser runs of slow apps on a loaded machine)",
    )
    table = sub.add_parser("table", help="print the table of a `run --json` output file")
    table.add_argument("file", type=Path)
    serve = sub.add_parser(
        "serve", help="build, seed and serve one application until Ctrl-C or SIGTERM (to check bugs by hand)"
    )
    serve.add_argument("app", help="the application's name")
    serve.add_argument("--build", choices=["clean", "buggy"], default="buggy")
    serve.add_argument("--port", type=int, default=0, help="loopback port (default: a free one)")
    serve.add_argument(
        "--mirror", type=Path, default=DEFAULT_MIRROR, help="folder of <owner>+<name> bare git dirs"
    )
    serve.add_argument("--clone", action="store_true", help="git clone from GitHub instead of the mirror")
    serve.add_argument(
        "--work", type=Path, default=DEFAULT_WORK, help="checkouts, venvs, logs (default .corpus-work/)"
    )
    return parser.parse_args(argv)


def _serve(args: argparse.Namespace) -> int:
    """Serve one build on loopback until interrupted; the server is stopped on the way out."""
    app = load_apps([args.app])[0]
    work = args.work.resolve()
    with exclusive(app, work):
        return _serve_locked(app, work, args)


def _serve_locked(app: App, work: Path, args: argparse.Namespace) -> int:
    co = checkout(app, work, args.mirror, args.clone, _progress)
    set_up(co, work, _progress)
    build(co, args.build == "buggy")
    logs = work / app.name / "runs" / f"serve-{args.build}"
    run_commands(
        co, app.seed, app.seed_timeout_s or SEED_TIMEOUT_S, logs / "seed.log", _progress, f"seed {args.build}"
    )
    try:
        with serving(co, args.port or free_port(), logs / "server.log") as base:
            _progress(
                f"{app.name}: {args.build} build on {base}{app.start_path} (Ctrl-C or SIGTERM stops it)"
            )
            if app.login is not None:
                _progress(f"log in at {base}{app.login.url} as {app.login.username} / {app.login.password}")
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        build(co, buggy=False)


def _numbers(text: str, what: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        values = []
    if not values or any(v < 1 for v in values):
        raise SpecError(f"{what} must be comma-separated positive numbers, got {text!r}")
    return values


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    # A SIGTERM becomes an exception, so every `finally` still stops its server.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.command == "table":
        try:
            saved = [Run(**row) for row in json.loads(args.file.read_text(encoding="utf-8"))]
        except (OSError, ValueError, TypeError) as error:
            print(f"corpus: {args.file} is not the output of `run --json` ({error})", file=sys.stderr)
            return 2
        Console(width=200).print(_table(saved))
        return 0
    if args.command == "serve":
        try:
            return _serve(args)
        except (SpecError, BuildError) as error:
            print(f"corpus: {error}", file=sys.stderr)
            return 2 if isinstance(error, SpecError) else 1
    try:
        apps = load_apps(args.apps.split(",") if args.apps else None)
        budgets = _numbers(args.budgets, "--budgets")
        builds = [b for b in args.builds.split(",") if b]
        if args.click_seconds <= 0:
            raise SpecError(f"--click-seconds must be positive, got {args.click_seconds}")
        if args.repeat < 1:
            raise SpecError(f"--repeat must be a positive number, got {args.repeat}")
        if not builds or set(builds) - {"clean", "buggy"}:
            raise SpecError(f"--builds must be clean, buggy or clean,buggy, got {args.builds!r}")
    except SpecError as error:
        print(f"corpus: {error}", file=sys.stderr)
        return 2
    work = args.work.resolve()
    runs: list[Run] = []
    for app in apps:
        runs += run_app(
            app, work, args.mirror, args.clone, budgets, builds, args.engine, args.keep,
            args.allow_destructive, args.repeat, args.click_seconds,
        )  # fmt: skip
    if args.json:
        print(json.dumps([asdict(r) for r in runs], indent=2))
    else:
        Console(width=200).print(_table(runs))
    return 1 if any(r.error for r in runs) else 0
