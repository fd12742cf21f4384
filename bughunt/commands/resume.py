"""`bughunt resume`: continue an interrupted exploration from its store, without repeating work.

The store remembers the site, the position, the visited set, the link table and the bug table, so the
first click already heads for pages not yet visited. `--url` points it at the application's new
address when it moved (routes are kept, so the memory still applies).
"""

from __future__ import annotations

import argparse

from .explore import run_session
from .run_options import add_run_options


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("resume", help="continue an exploration from its store")
    add_run_options(p, resume=True)
    p.add_argument(
        "--retest",
        action="store_true",
        help="re-test every remembered page (the app changed without saying so)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return run_session(args, resume=True)
