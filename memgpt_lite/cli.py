"""`memgpt-lite` command line: one sub-command per module in `memgpt_lite.commands`.

Each module exposes `register(subparsers)`, which adds its parser and sets `func(args) -> int`.
"""

from __future__ import annotations

import sys

from memgpt_lite.cli_dispatch import Dispatcher

COMMANDS: tuple[str, ...] = (
    # add a module name here when its command exists
    "demo",
    "inspect",
    "chat",
)

_DISPATCHER = Dispatcher("memgpt-lite", __doc__.splitlines()[0], "memgpt_lite.commands", COMMANDS)
build_parser = _DISPATCHER.build_parser
main = _DISPATCHER.main


if __name__ == "__main__":
    sys.exit(main())
