"""`bughunt` command line: one sub-command per module in `bughunt.commands`.

Each module exposes `register(subparsers)`, which adds its parser and sets `func(args) -> int`.
"""

from __future__ import annotations

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
build_parser = _DISPATCHER.build_parser
main = _DISPATCHER.main


if __name__ == "__main__":
    sys.exit(main())
