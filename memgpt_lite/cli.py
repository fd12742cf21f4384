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

# Shown at the end of each sub-command's --help.
EXAMPLES: dict[str, tuple[str, ...]] = {
    "demo": (
        "memgpt-lite demo --context-window 4000 --turns 200",
        "memgpt-lite demo --store runs/demo --json   # keep the store to inspect it",
    ),
    "inspect": ("memgpt-lite inspect --store runs/demo", "memgpt-lite inspect --store runs/demo --json"),
    "run": ('memgpt-lite run --store runs/me --message "Hi, I\'m Ada" --json',),
    "chat": (
        "memgpt-lite chat --store runs/me",
        "memgpt-lite chat --store runs/local --base-url http://localhost:11434 --model qwen3",
    ),
}

# `run` lives beside `chat` (one module, the same options): naming it loads that module alone
MODULE_OF: dict[str, str] = {"run": "chat"}

_DISPATCHER = Dispatcher(
    "memgpt-lite", __doc__.splitlines()[0], "memgpt_lite.commands", COMMANDS, EXAMPLES, MODULE_OF
)
build_parser = _DISPATCHER.build_parser
main = _DISPATCHER.main


if __name__ == "__main__":
    sys.exit(main())
