"""`bughunt explore`: explore a web application with a step budget and remember what was found.

`--url URL` explores any server-rendered site; `--builtin-site` starts the built-in 24-page site
in-process (on loopback) and explores it. `resume` shares everything here but the store's creation.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from bughunt import settings
from bughunt.explorer.bugview import Login, remember_login
from bughunt.explorer.config import SessionConfig
from bughunt.explorer.engine import LoginLost
from bughunt.explorer.factory import make_engine, make_policy
from bughunt.explorer.gc_pace import paced_collector
from bughunt.explorer.harness import StepOutcome
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.login import Credentials, credentials_from_args
from bughunt.explorer.loop import Explorer
from bughunt.explorer.policies import policy_names
from bughunt.explorer.secrets import MIN_SECRET_CHARS, Scrubber
from bughunt.explorer.store import DB_NAME, ExplorerStore
from bughunt.explorer.summary import ExplorationSummary
from bughunt.explorer.views import MemoryConfig
from bughunt.reporters import fail_on
from memgpt_lite.cli_dispatch import check_output_file, require_model_access
from memgpt_lite.errors import ModelError, UsageError
from memgpt_lite.log import logger

from .run_options import add_run_options

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
DEFAULT_POLICY = "planner"
"""The simulator's planner (`bughunt.planning`): rarest-neighbour-first exploration over remembered links."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("explore", help="explore a web application and remember what was found")
    add_run_options(p, resume=False)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return run_session(args, resume=False)


@contextmanager
def site_url(args: argparse.Namespace, store: ExplorerStore | None) -> Iterator[tuple[str, bool]]:
    """The base URL to explore and whether it is the built-in site (started here when asked)."""
    builtin = args.builtin_site or (not args.url and store is not None and store.meta.get("builtin") == "1")
    if args.url:
        yield args.url, builtin
        return
    if builtin:
        from bughunt.webapp import running_site

        poison = _poison_text(args.poison_file)
        version, account = args.site_version or "1.2", args.account or "logged-in"
        with running_site(app_version=version, poison_text=poison, account=account) as url:
            yield url, True
        return
    if store is not None and store.meta.get("base_url"):
        yield str(store.meta.get("base_url")), False
        return
    raise UsageError("no site: give --url URL or --builtin-site")


def _poison_text(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        reason = e.reason if isinstance(e, UnicodeDecodeError) else (e.strerror or str(e))
        raise UsageError(f"--poison-file {path}: cannot read it ({reason})") from None


def _check_numbers(args: argparse.Namespace) -> None:
    if args.capacity is not None and args.capacity < 1:
        raise UsageError(f"--capacity must be at least 1 (or left out for unlimited), got {args.capacity}")
    if args.expire_after is not None and not args.expire_after > 0:
        raise UsageError(f"--expire-after must be a positive number of hours, got {args.expire_after:g}")
    if (args.delay is not None and args.delay < 0) or not args.timeout > 0:
        raise UsageError("--delay must be >= 0 and --timeout > 0")
    check_output_file(args.report, "--report")
    check_output_file(args.junit, "--junit")
    check_output_file(args.sarif, "--sarif")
    if args.baseline is None and args.fail_on == "new" and fail_on.DEFAULT_PATH.is_file():
        args.baseline = fail_on.DEFAULT_PATH
    if args.baseline is not None:
        from bughunt.reporters import baseline as bl  # records and reader: only when a baseline is given

        bl.load(args.baseline)  # a baseline that cannot be read fails before the exploration


class Terminated(BaseException):
    """SIGTERM, raised like Ctrl-C's KeyboardInterrupt so every `finally` (closing the session) runs."""


@contextmanager
def _sigterm_unwinds() -> Iterator[None]:
    # Without this, SIGTERM (systemd, docker stop, a CI timeout) kills the process where it stands and
    # the session stays "running"; as an exception it unwinds like Ctrl-C does.
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM must not cut the cleanup short
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_session(args: argparse.Namespace, *, resume: bool) -> int:
    """Run `explore` / `resume`; SIGTERM marks the session interrupted and exits 143 (128 + 15)."""
    if args.password_given is not None:
        raise UsageError(
            "--password is not accepted (a password on the command line ends up in the shell history "
            "and `ps`): put it in an environment variable and name it, e.g. BH_PASS=... bughunt "
            f"{'resume' if resume else 'explore'} ... --password-env BH_PASS"
        )
    # --- settings: flags > config file > the store's remembered session (resume) > defaults ---
    source, stored = settings.apply(args, _stored_options if resume else None)
    if not resume and not args.url and not args.builtin_site:
        raise UsageError("give --url URL or --builtin-site (or url = ... in the config file)")
    if resume:
        ask = settings.missing_secrets(args, stored, source)
        if ask:
            raise UsageError(ask)
    if args.password_env is not None and not _ENV_NAME.fullmatch(args.password_env):
        # most likely the password itself: never echo it
        raise UsageError(
            "--password-env takes the NAME of an environment variable holding the password (e.g. "
            "BH_PASS), not the password"
        )
    from_store = frozenset(dest for dest, where in source.items() if where == "store")
    try:
        with _sigterm_unwinds(), paced_collector():
            return _run_session(args, resume=resume, from_store=from_store)
    except Terminated:
        print(f"terminated; `bughunt resume --store {args.store}` continues", file=sys.stderr)
        return 143


def _session_config(args: argparse.Namespace) -> SessionConfig:
    """The session's settings, checked (`SessionConfig` is the one check of the budget and version)."""
    return SessionConfig(
        budget=args.budget,
        seed=args.seed,
        memory=MemoryConfig(
            visited=not args.no_visited,
            link_table=not args.no_link_table,
            bug_list=not args.no_bug_list,
            capacity=args.capacity,
            eviction=args.eviction,
        ),
        app_version_hint=args.app_version_hint,
        expire_after_s=args.expire_after * 3600 if args.expire_after is not None else None,
        force_retest=getattr(args, "retest", False),
        allow_destructive=args.allow_destructive,
    )


def _run_session(args: argparse.Namespace, *, resume: bool, from_store: frozenset[str] = frozenset()) -> int:
    """The session; `from_store` names the options `resume` took from the store's remembered ones."""
    try:
        # Check what can be checked before a store is created, so bad input leaves nothing behind.
        _check_numbers(args)
        config = _session_config(args)
        _poison_text(args.poison_file)
        if args.policy is not None and args.policy not in policy_names():
            raise UsageError(f"--policy: unknown {args.policy!r}; choose one of {', '.join(policy_names())}")
        _origins(args.allow_origin)
        if args.report:
            from bughunt.commands.report import check_report_target

            check_report_target(args.report)
        if args.engine == "browser":
            from bughunt.explorer.chromium import chromium_path

            chromium_path(args.browser_path)  # no Chromium: one line, before a store is created
        if args.url:
            HttpEngine(args.url, respect_robots=False)
            _credentials(args, args.url, None)
            # a moved built-in store keeps its remembered site settings; only given ones clash with --url
            if args.builtin_site or any(
                getattr(args, dest) and dest not in from_store
                for dest in ("poison_file", "site_version", "account")
            ):
                raise UsageError(
                    "--builtin-site, --site-version, --account and --poison-file do not go with --url"
                )
        if args.policy == "llm":
            require_model_access(args.base_url, "--policy llm")
        with ExitStack() as stack:
            store = ExplorerStore(args.store, create=not resume)
            stack.callback(store.close)
            if not resume and store.history.step_count():
                # Re-running the same command must not throw memory away: it continues, as resume does.
                print(
                    f"{args.store} already holds an exploration: continuing it (as `bughunt resume`)",
                    file=sys.stderr,
                )
            url, builtin = stack.enter_context(site_url(args, store))
            policy_name = args.policy or _last_policy(store) or DEFAULT_POLICY
            delay = args.delay if args.delay is not None else (0.0 if _loopback(url) else 1.0)
            creds = _credentials(args, url, store)
            # Nothing the site echoes of a secret is written, logged or printed (`secrets.Scrubber`).
            if store.add_secrets(creds.secrets()):
                print(
                    f"warning: a secret value shorter than {MIN_SECRET_CHARS} characters cannot be told from "
                    "ordinary text: a page that shows it keeps it in the store",
                    file=sys.stderr,
                )
            logger.configure(patcher=store.scrubber.patch_record)
            stack.callback(logger.configure, patcher=None)
            scrub = store.scrubber
            engine = args.engine or store.meta.get("engine") or "http"
            fetcher, why = make_engine(
                engine,
                url,
                delay=delay,
                timeout=args.timeout,
                respect_robots=not args.ignore_robots,
                credentials=creds,
                storage_state=creds.storage_state,
                allow_origins=_origins(args.allow_origin),
                browser_path=args.browser_path,
                realtime=getattr(args, "realtime", None) is not False,
                avoid_actions=args.allow_destructive,
                **({"trace": args.trace} if args.trace is not None else {}),
                on_login=store.add_secrets,  # the session cookies of each login, re-logins included
            )
            stack.callback(fetcher.close)
            if why:
                print(why, file=sys.stderr)
            fetcher.log_in()
            if creds.login_url and creds.username and not args.json:
                print(f"logged in as {creds.username} at {creds.login_url}", file=sys.stderr)
            with store.transaction():
                store.meta.set("engine", fetcher.name)
                if creds.used:
                    store.meta.set("login", creds.label)  # the kinds of login only, never a value
                # what `resume` needs again, never a secret (header and cookie names, not values)
                store.meta.set(settings.STORE_KEY, json.dumps(settings.remembered(args)))
                # the bug view's account and `bughunt repro`'s login: names only, never a value
                remember_login(store, _login_names(args, creds))
            config.builtin = builtin
            policy = stack.enter_context(
                make_policy(policy_name, store=store, model_name=args.model, base_url=args.base_url)
            )
            already = sum(b.status == "open" for b in store.bug_table.live())
            with _progress(args.budget, quiet=args.json, open_bugs=already) as on_step:
                explorer = Explorer(store, fetcher, policy, config, on_step=on_step)
                # What start-up built (modules, the parser, the store) lives as long as this process:
                # set aside, the collector's sweeps of its oldest generation (~35 ms each) skip it.
                gc.freeze()
                try:
                    result = explorer.run()
                except KeyboardInterrupt:
                    print(f"interrupted; `bughunt resume --store {args.store}` continues", file=sys.stderr)
                    return 130
                except LoginLost as exc:  # the session maps it to stop reason "login_lost"; a fallback
                    print(
                        f"error: login lost: {exc}; `bughunt resume --store {args.store}` continues",
                        file=sys.stderr,
                    )
                    return 1
            data = ExplorationSummary.of(store, result)
            for notice in fetcher.notices:
                print(f"warning: {notice}", file=sys.stderr)
            skipped = _skipped(store)
            failure = _nothing_explored(store, url)
    except ModelError as exc:  # the llm policy's model: a runtime failure, the store keeps every step
        print(f"model error: {exc}; `bughunt resume --store {args.store}` continues", file=sys.stderr)
        return 1
    if args.report:
        _write_report(args.store, args.report)
    _print(data, args.json, scrub, account=creds.username if creds.login_url else None)
    failing = _ci_results(args)
    stop_reason, stop_detail = data.stop_reason, data.stop_detail
    if not args.json:
        for outcome, routes in skipped.items():
            print(f"not explored ({outcome.replace('_', ' ')}): {' '.join(routes)}")
    if failure:
        print(f"error: {failure}", file=sys.stderr)
        return 1
    if stop_reason == "login_lost":
        print(
            f"error: login lost ({stop_detail}); `bughunt resume --store {args.store}` continues",
            file=sys.stderr,
        )
        return 1
    if stop_reason == "site_unreachable":
        print(
            f"error: the site stopped answering ({stop_detail}); `bughunt resume` retries",
            file=sys.stderr,
        )
        return 1
    return fail_on.EXIT_BUGS if failing else 0


# --- CI: the files asked for and the --fail-on verdict ---
def _ci_results(args: argparse.Namespace) -> int:
    """Write --junit/--sarif and say which open bugs fail the build under --fail-on (their count)."""
    if args.fail_on == "none" and args.junit is None and args.sarif is None:
        return 0
    from bughunt.reporters import baseline as bl
    from bughunt.reporters.files import write_ci_files
    from bughunt.reporters.records import read_run

    run = read_run(args.store)
    baseline = bl.load(args.baseline) if args.baseline is not None else None
    accepted = baseline.fingerprints if baseline is not None else None
    for path in write_ci_files(run, junit=args.junit, sarif=args.sarif, accepted=accepted):
        print(f"written: {path}", file=sys.stderr)
    failing = bl.failing(run, args.fail_on, baseline)
    if failing:
        which = "not in the baseline" if args.fail_on == "new" and baseline is not None else "open"
        print(
            f"failing (--fail-on {args.fail_on}): {len(failing)} bugs {which}: "
            + " ".join(f"{b.kind}@{b.route}" for b in failing[:8])
            + (" ..." if len(failing) > 8 else ""),
            file=sys.stderr,
        )
    return len(failing)


def _stored_options(store_dir: Path) -> dict[str, Any]:
    if not (Path(store_dir) / DB_NAME).is_file():
        return {}  # no store: the input is checked first, then opening it says what is wrong
    store = ExplorerStore(store_dir, create=False, lock=False)
    try:
        return settings.stored_options(store.meta.get(settings.STORE_KEY))
    finally:
        store.close()


def _origins(values: list[str] | None) -> tuple[str, ...]:
    from urllib.parse import urlsplit

    out = []
    for value in values or []:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.username or parts.password:
            raise UsageError(f"--allow-origin: expected an origin like http://127.0.0.1:8202, got {value!r}")
        out.append(f"{parts.scheme}://{parts.netloc}".lower())
    return tuple(out)


def _credentials(args: argparse.Namespace, url: str, store: ExplorerStore | None) -> Credentials:
    """The login options, checked (with `store`: refused when a logged-in exploration gets none)."""
    creds = credentials_from_args(
        login_url=args.login_url,
        username=args.username,
        password_env=args.password_env,
        cookies=args.cookie,
        headers=args.header,
        storage_state=args.storage_state,
        base_url=url,
    )
    used = store.meta.get("login") if store is not None else None
    if used and not creds.used:
        # Secrets are never stored, so a logged-in exploration cannot log itself in again.
        raise UsageError(
            f"this exploration was logged in ({used}); give the login options again "
            "(--login-url/--username/--password-env, --cookie, --header, --storage-state)"
        )
    return creds


def _login_names(args: argparse.Namespace, creds: Credentials) -> Login:
    """How this session logged in, as names (user, environment variable, cookie and header names)."""
    return Login(
        login_url=creds.login_url,
        username=creds.username if creds.login_url else None,
        password_env=args.password_env if creds.login_url else None,
        cookie_names=tuple(name for name, _ in creds.cookies),
        header_names=tuple(name for name, _ in creds.headers),
        storage_state=creds.storage_state is not None,
    )


def _nothing_explored(store: ExplorerStore, url: str) -> str | None:
    """Why not a single page of the site could be read (so far, in any session), or None when one was.

    The attempt stays recorded in the store; the exit code tells scripts that the run found nothing to test."""
    last = store.history.last_step()
    if store.visits.any_explored() or last is None:
        return None
    reason = last.outcome.replace("_", " ") + (f" ({last.detail})" if last.detail else "")
    return f"nothing could be explored at {url}: {last.route} gave {reason}"


def _skipped(store: ExplorerStore) -> dict[str, list[str]]:
    """Visited routes that gave no page, by reason: login walls, non-HTML, HTTP errors, timeouts."""
    return store.visits.skipped()


def _last_policy(store: ExplorerStore) -> str | None:
    last = store.history.last_session()
    return last.policy if last else None


def _loopback(url: str) -> bool:
    from urllib.parse import urlsplit

    return (urlsplit(url).hostname or "") in ("127.0.0.1", "localhost", "::1")


@contextmanager
def _progress(budget: int, quiet: bool, open_bugs: int = 0) -> Iterator[Any]:
    """The bar on stderr; its bug count starts at the exploration's open bugs (a resume of a store
    with 6 open shows 6, not 0) and adds each new one."""
    if not _bar_shows(quiet):
        try:
            yield lambda out: None
        finally:
            # rich's Progress ends with a blank line where it draws nothing: stderr reads as before
            print(file=sys.stderr)
        return
    # here: rich costs ~20 ms of CPU to import, which a run whose bar shows nothing need not pay
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("[bold]explore[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[route]}"),
        TextColumn("open bugs: {task.fields[bugs]}"),
        TimeElapsedColumn(),
        transient=quiet,
        console=Console(stderr=True),
    )
    task = progress.add_task("explore", total=budget, route="", bugs=open_bugs)
    found = open_bugs

    def on_step(out: StepOutcome) -> None:
        nonlocal found
        found += len(out.new_bugs)
        progress.update(task, route=out.route[:40], bugs=found)
        if out.click:
            progress.advance(task)

    with progress:
        yield on_step


def _bar_shows(quiet: bool) -> bool:
    """Whether the bar would write anything. A quiet bar is transient: where rich sees no terminal it
    draws nothing and its end erases nothing (a loud one prints its last state there). Anything that may
    make rich see a terminal on a stderr that is not a TTY (its TTY_COMPATIBLE and FORCE_COLOR, IPython)
    leaves the decision to rich."""
    if not quiet or "TTY_COMPATIBLE" in os.environ or "FORCE_COLOR" in os.environ or "IPython" in sys.modules:
        return True
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # no stream, or a closed one: rich's own test decides
        return True


def _write_report(store_dir: Path, out: Path) -> None:
    from bughunt.commands.report import write_report_file
    from bughunt.report import load_report_data, render_report

    # One writer's rule for both commands: replace only a report bughunt wrote (REPORT_MARK).
    write_report_file(render_report(load_report_data(store_dir)), out)
    print(f"report written to {out} (open file://{out.resolve()})", file=sys.stderr)


def _print(data: ExplorationSummary, as_json: bool, scrub: Scrubber, account: str | None = None) -> None:
    if as_json:
        # "account": who the form login logged in as (None: not logged in by a form)
        print(json.dumps(scrub.data({**data.as_json(), "account": account}), indent=2))
        return
    print(scrub.text("\n".join(data.lines())))
