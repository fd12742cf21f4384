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

# Shown at the end of each sub-command's --help (every line is a command that works as written).
EXAMPLES: dict[str, tuple[str, ...]] = {
    "explore": (
        "bughunt explore --builtin-site --store runs/s1 --budget 12",
        "bughunt explore --url http://127.0.0.1:8000/ --store runs/s2 --policy frontier --json",
        "bughunt explore --builtin-site --store runs/s3 --policy llm --base-url http://localhost:11434 --model qwen3",
    ),
    "resume": (
        "bughunt resume --store runs/s1 --budget 18 --json",
        "bughunt resume --store runs/s1 --site-version 1.3   # re-test after an upgrade",
    ),
    "memory": ("bughunt memory --store runs/s1", "bughunt memory --store runs/s1 --json"),
    "report": ("bughunt report --store runs/s1 --out runs/s1/report.html",),
    "serve-site": (
        "bughunt serve-site --port 8000",
        "bughunt serve-site --port 8000 --app-version 1.3 --account logged-out",
    ),
    "sim": (
        "bughunt sim --strategy random --seed 1000",
        "bughunt sim --strategy frontier --capacity 12 --policy lru --json",
    ),
    "ablate": (
        "bughunt ablate --reproduce --plots plots/",
        "bughunt ablate --reproduce --json > out.json",
        "bughunt ablate --config planner",
        "bughunt ablate --config my.yaml --backend dask --address tcp://HOST:8786",
    ),
    "ablate plan": (
        "bughunt ablate plan --effect 0.05 --sd 0.1",
        "bughunt ablate plan --pilot out.json --comparison frontier_vs_random",
    ),
    "demo-page": (
        "bughunt demo-page --open",
        "bughunt demo-page --export site/   # then open site/index.html",
    ),
}

_DISPATCHER = Dispatcher("bughunt", __doc__.splitlines()[0], "bughunt.commands", COMMANDS, EXAMPLES)
build_parser = _DISPATCHER.build_parser
main = _DISPATCHER.main


if __name__ == "__main__":
    sys.exit(main())
