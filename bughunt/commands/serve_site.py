"""`bughunt serve-site`: run the built-in 24-page test site in the foreground."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bughunt import site
from bughunt.webapp import ACCOUNT_STATES, VARIANTS, make_server, serve
from memgpt_lite.cli_dispatch import port_number


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "serve-site",
        help="run a built-in test site (24 pages and six bugs, or conduit-htmx) on loopback",
        description="Serve a built-in RealWorld-style test site until Ctrl-C.",
    )
    p.add_argument(
        "--variant",
        choices=VARIANTS,
        default="24-page",
        help="24-page (default: the site of the published figures) or conduit-htmx (HTMX pagers, a real "
        "login, seven planted bugs)",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=port_number, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument(
        "--app-version", choices=site.APP_VERSIONS, default="1.2", help="1.3 fixes the Search page 2 bug"
    )
    p.add_argument("--poison-file", type=Path, help="text shown as a reader's comment under every article")
    p.add_argument(
        "--account",
        choices=ACCOUNT_STATES,
        default="logged-in",
        help="logged-out puts account pages behind a login wall",
    )
    p.add_argument(
        "--production-errors",
        action="store_true",
        help="conduit-htmx: bare 'Server Error (500)' pages instead of debug tracebacks",
    )
    p.add_argument(
        "--fixed",
        action="store_true",
        help="serve the site with every bug fixed (what `bughunt repro` tests must pass against)",
    )
    p.add_argument(
        "--json", action="store_true", help="print the site's address and settings as JSON, then serve"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.variant == "conduit-htmx":
        return _run_conduit(args)
    if args.production_errors:
        print("error: --production-errors goes with --variant conduit-htmx", file=sys.stderr)
        return 2
    poison = None
    if args.poison_file is not None:
        try:
            poison = args.poison_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            print(f"error: cannot read --poison-file {args.poison_file}: {err}", file=sys.stderr)
            return 2
    try:
        server = make_server(args.app_version, poison, args.account, args.host, args.port, args.fixed)
    except OSError as err:
        print(f"error: cannot listen on {args.host}:{args.port}: {err}", file=sys.stderr)
        return 2
    info = {
        "url": server.base_url,
        "app_version": args.app_version,
        "account": args.account,
        "poisoned": poison is not None,
        "pages": site.N_PAGES,
        "fixed": args.fixed,
    }
    line = f"Conduit test site {args.app_version} ({args.account}) at {server.base_url} — Ctrl-C to stop"
    return _announce_and_serve(server, info, line, args.json)


def _run_conduit(args: argparse.Namespace) -> int:
    from bughunt.webapp.conduit import DEMO_PASSWORD, DEMO_USER, PLANTED, make_conduit_server

    given = [
        flag
        for flag, value, default in (
            ("--app-version", args.app_version, "1.2"),
            ("--poison-file", args.poison_file, None),
            ("--account", args.account, "logged-in"),
        )
        if value != default
    ]
    if given:
        print(f"error: {', '.join(given)} only go with the 24-page site", file=sys.stderr)
        return 2
    try:
        server = make_conduit_server(args.host, args.port, debug=not args.production_errors, fixed=args.fixed)
    except OSError as err:
        print(f"error: cannot listen on {args.host}:{args.port}: {err}", file=sys.stderr)
        return 2
    info = {
        "url": server.base_url,
        "variant": "conduit-htmx",
        "login_url": server.base_url + "/login",
        "username": DEMO_USER,
        "password": DEMO_PASSWORD,
        "debug_errors": not args.production_errors,
        "planted_bugs": 0 if args.fixed else len(PLANTED),
        "fixed": args.fixed,
    }
    line = f"conduit-htmx test site at {server.base_url} (log in as {DEMO_USER} / {DEMO_PASSWORD}) — Ctrl-C to stop"
    return _announce_and_serve(server, info, line, args.json)


def _announce_and_serve(server: Any, info: dict[str, Any], line: str, as_json: bool) -> int:
    """Say where the site is (one JSON line for scripts, or one sentence), then serve until Ctrl-C."""
    print(json.dumps(info) if as_json else line, flush=True)
    try:
        serve(server)
    except KeyboardInterrupt:
        pass
    return 0
