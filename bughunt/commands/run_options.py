"""The command-line options `explore` and `resume` share: the run, logging in, CI gates, a config file.

Kept apart from the session code so each option's help reads in one place; options the config file
may give default to None (`bughunt.settings` fills them in).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bughunt import settings
from bughunt.explorer.factory import ENGINES
from bughunt.explorer.policies import policy_names
from bughunt.reporters import fail_on


def add_run_options(p: argparse.ArgumentParser, *, resume: bool) -> None:
    """Options shared by `explore` and `resume`."""
    # Options the config file may give default to None here (`bughunt.settings` fills them: flag >
    # file > the store's remembered session (resume) > built-in default, which the help states).
    p.add_argument("--store", type=Path, help="store directory (created by explore); required")
    p.add_argument("--url", help="base URL of the application" + (" (when it moved)" if resume else ""))
    p.add_argument(
        "--builtin-site",
        action="store_true",
        default=None,
        help="start the built-in site in-process and explore it",
    )
    p.add_argument("--site-version", choices=("1.2", "1.3"), help="built-in site: app version (default 1.2)")
    p.add_argument(
        "--account", choices=("logged-in", "logged-out"), help="built-in site view (default logged-in)"
    )
    p.add_argument(
        "--poison-file", type=Path, help="built-in site: plant this file's text under every article"
    )
    p.add_argument(
        "--policy",
        default=None,
        help=f"{' | '.join(policy_names())} (default: planner, or the store's last)",
    )
    p.add_argument("--budget", type=int, help="clicks in this session (default 30)")
    p.add_argument("--seed", type=int, help="random seed of the policy (default 1000)")
    p.add_argument(
        "--app-version", dest="app_version_hint", help="the app version, when the site does not state it"
    )
    p.add_argument("--delay", type=float, default=None, help="minimum seconds between requests (default 0 on loopback, else 1)")  # fmt: skip
    p.add_argument("--timeout", type=float, help="seconds to wait for a response (default 10)")
    p.add_argument(
        "--ignore-robots",
        action="store_true",
        default=None,
        help="do not read robots.txt (only for your own sites)",
    )
    p.add_argument(
        "--expire-after", type=float, default=None, metavar="HOURS", help="forget memories unused this long"
    )
    p.add_argument(
        "--model", default=None, help="llm policy: model name (needs ANTHROPIC_API_KEY or --base-url)"
    )
    p.add_argument(
        "--base-url", default=None, help="llm policy: a server that speaks the Messages API (Ollama, vLLM)"
    )
    p.add_argument(
        "--no-visited", action="store_true", default=None, help="ablation: the policy gets no visit record"
    )
    p.add_argument(
        "--no-link-table", action="store_true", default=None, help="ablation: the visit record keeps no links"
    )
    p.add_argument(
        "--no-bug-list",
        action="store_true",
        default=None,
        help="ablation: no bug list (re-seen bugs are re-reported)",
    )
    p.add_argument("--capacity", type=int, default=None, help="visit-record capacity (default unlimited)")
    p.add_argument("--eviction", choices=("fifo", "lru", "random"), help="eviction when full (default fifo)")
    p.add_argument(
        "--engine",
        choices=ENGINES,
        default=None,
        help="http (fast, no scripts) | browser (Chromium renders each page) | auto (browser for a page "
        "that needs scripts); default http, or the store's last",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        metavar="ORIGIN",
        help="browser engine: let the page's own requests reach this origin too (its API on another "
        "port); never explored (repeatable; every other origin is blocked)",
    )
    p.add_argument(
        "--realtime",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="browser engine: let a page's same-origin realtime channels (WebSocket, socket.io/SockJS "
        "long-poll) through, each frame judged like a request: no event that writes or destroys, the "
        "password only in the login (default on; --no-realtime refuses them all)",
    )
    p.add_argument(
        "--browser-path",
        metavar="PATH",
        help="browser engine: the Chromium executable (default $BUGHUNT_CHROMIUM, else /usr/bin/chromium); "
        "never downloaded",
    )
    login = p.add_argument_group(
        "logging in (secrets stay in memory: resume remembers the other options and asks for the secrets)"
    )
    login.add_argument("--login-url", help="page with the login form (a form with a password field)")
    login.add_argument("--username", help="username for the login form")
    login.add_argument(
        "--password-env",
        metavar="VAR",
        help="environment variable holding the password (never on the command line)",
    )
    login.add_argument(
        "--cookie", action="append", metavar="NAME=VALUE", help="send this cookie (repeatable)"
    )
    login.add_argument(
        "--header", action="append", metavar="'Name: value'", help="send this header (repeatable)"
    )
    login.add_argument("--storage-state", type=Path, help="browser engine: a Playwright storage-state file")
    # `--password VALUE` would put the secret in the shell history and `ps`: refused with the way to do it
    login.add_argument("--password", dest="password_given", nargs="?", const="", help=argparse.SUPPRESS)
    p.add_argument(
        "--allow-destructive",
        action="store_true",
        help="DISPOSABLE ENVIRONMENTS ONLY: open GET links and forms that read as destructive (delete, "
        "remove, ...) and confirm them by their effect (off: reported as suspected, never opened); "
        "in the browser, also send once the refused write of a vote, like or follow control. "
        "Applies to this session only; "
        + (
            "it is not taken over from the sessions before"
            if resume
            else "`resume` opens nothing unless given it again"
        )
        + ", so deleting data is always asked for explicitly",
    )
    # -- issue 27: a Playwright trace of the session (browser engine) --
    p.add_argument(
        "--trace",
        type=_trace_file,
        metavar="FILE.zip",
        help="browser engine: also write a Playwright trace of this session (`playwright show-trace FILE.zip`); "
        "not with --login-url (a trace records what is typed); it holds the session's cookies",
    )
    p.add_argument("--report", type=Path, help="also write the HTML report to this file")
    p.add_argument("--json", action="store_true", default=None, help="print the result as JSON")
    add_ci_options(p)
    p.add_argument(
        "--config",
        type=Path,
        help=f"options from this TOML file (default: ./{settings.CONFIG_NAME}, else [tool.bughunt] of "
        "./pyproject.toml); flags override it; secrets only by variable name (password_env)",
    )


def add_ci_options(p: argparse.ArgumentParser) -> None:
    ci = p.add_argument_group(
        "CI (exit codes: 0 ok, 1 runtime failure, 2 bad input, 3 bugs per --fail-on, 130 Ctrl-C, 143 SIGTERM)"
    )
    ci.add_argument(
        "--fail-on",
        choices=fail_on.FAIL_ON,
        help="exit 3 when open bugs are found: none (default) | new (not in --baseline) | open (any)",
    )
    ci.add_argument(
        "--baseline", type=Path, help="accepted bugs (`bughunt baseline write`) for --fail-on new"
    )
    ci.add_argument("--junit", type=Path, help="write JUnit XML: a test case per oracle and per bug")
    ci.add_argument("--sarif", type=Path, help="write SARIF 2.1.0: a result per open bug")


def _trace_file(value: str) -> Path:
    path = Path(value)
    if path.suffix != ".zip":
        raise argparse.ArgumentTypeError(f"{value}: a trace file ends in .zip")
    if path.exists() and not path.is_file():
        raise argparse.ArgumentTypeError(f"{value}: exists and is not a file")
    return path
