"""`bughunt` command line: one sub-command per module in `bughunt.commands`.

Each module exposes `register(subparsers)`, which adds its parser and sets `func(args) -> int`.
"""

from __future__ import annotations

import argparse
import sys

from memgpt_lite.cli_dispatch import Dispatcher

COMMANDS: tuple[str, ...] = (
    # add a module name here when its command exists
    "demo_page",
    "sim",
    "ablate",
    "explore",
    "resume",
    "memory",
    "serve_site",
    "report",
)

_DISPATCHER = Dispatcher("bughunt", __doc__.splitlines()[0], "bughunt.commands", COMMANDS)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    return _DISPATCHER.build_parser(argv)


def main(argv: list[str] | None = None) -> int:
    return _DISPATCHER.main(argv)


if __name__ == "__main__":
    sys.exit(main())
