"""`bughunt` command line: one sub-command per module in `bughunt.commands`.

Each module exposes `register(subparsers)`, which adds its parser and sets `func(args) -> int`.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import importlib
import sys
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memgpt_lite.cli_dispatch import Dispatcher

SUMMARIES: dict[str, str] = {
    # module -> its sub-command's one-line help, as the module registers it (a test holds them equal);
    # add a module here when its command exists
    "demo_page": "serve or export the interactive demo page",
    "sim": "one simulator run on the built-in 24-page site",
    "ablate": "memory ablations on the simulator: --reproduce the seed experiment, --config FILE, or `plan`",
    "explore": "explore a web application and remember what was found",
    "resume": "continue an exploration from its store",
    "memory": "show an exploration's structured memory",
    "serve_site": "run a built-in test site (24 pages and six bugs, or conduit-htmx) on loopback",
    "report": "write a self-contained HTML report of an exploration, or its JUnit XML / SARIF for CI",
    "baseline": "accept known bugs (write) or fail on bugs not accepted (check) for CI",
    "repro": "write a replayable pytest reproduction of a bug (or of every open bug)",
}
COMMANDS: tuple[str, ...] = tuple(SUMMARIES)
IMPORT_YOUNG_OBJECTS = 1_000_000
"""The young generation's threshold while a command's module is imported (CPython's default is 700)."""

# Shown at the end of each sub-command's --help (every line is a command that works as written).
EXAMPLES: dict[str, tuple[str, ...]] = {
    "explore": (
        "bughunt explore --builtin-site --store runs/s1 --budget 12",
        "bughunt explore --url http://127.0.0.1:8000/ --store runs/s2 --policy frontier --json",
        "bughunt explore --builtin-site --store runs/s3 --policy llm --base-url http://localhost:11434 --model qwen3",
        "bughunt explore --url http://127.0.0.1:8001/ --store runs/c1 --login-url /login --username demo "
        "--password-env BH_PASS   # conduit-htmx, with BH_PASS=conduit-demo",
        "bughunt explore --builtin-site --store runs/ci --fail-on new --baseline bughunt-baseline.json "
        "--sarif bughunt.sarif --junit junit.xml",
        "bughunt explore --config ci/bughunt.toml   # options from a file; flags override it",
    ),
    "resume": (
        "bughunt resume --store runs/s1 --budget 18 --json",
        "bughunt resume --store runs/s1 --site-version 1.3   # re-test after an upgrade",
        "bughunt resume --store runs/c1   # the login options are remembered; only the secrets are asked for",
    ),
    "memory": ("bughunt memory --store runs/s1", "bughunt memory --store runs/s1 --json"),
    "report": (
        "bughunt report --store runs/s1 --out runs/s1/report.html",
        "bughunt report --store runs/s1 --junit runs/s1/junit.xml --sarif runs/s1/bughunt.sarif",
    ),
    "baseline": (
        "bughunt baseline write --store runs/s1 --out bughunt-baseline.json",
        "bughunt baseline check --store runs/s1 --baseline bughunt-baseline.json",
    ),
    "baseline write": ("bughunt baseline write --store runs/s1 --out bughunt-baseline.json",),
    "baseline check": ("bughunt baseline check --store runs/s1 --baseline bughunt-baseline.json --json",),
    "repro": (
        "bughunt repro 26df4eba102110d7 --store runs/s1 --out test_bug.py",
        "bughunt repro --all --store runs/s1 --out runs/s1/repro",
    ),
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

DESCRIPTION = __doc__.splitlines()[0] if __doc__ else "bughunt"


@cache
def _dispatcher() -> Dispatcher:
    # here, not at the top: the shared error net imports loguru, pydantic and the model factory
    # (~0.25 s CPU), which `bughunt --help` need not pay
    from memgpt_lite.cli_dispatch import Dispatcher

    return Dispatcher("bughunt", DESCRIPTION, "bughunt.commands", COMMANDS, EXAMPLES)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The whole parser: the named command's module alone, every module when none is named."""
    return _dispatcher().build_parser(argv)


def command_list_parser() -> argparse.ArgumentParser:
    """The top level of `build_parser([])` — every command listed with its help — built from
    `SUMMARIES` alone, no command module imported: what `bughunt`, `bughunt --help` and a mistyped
    command show."""
    parser = argparse.ArgumentParser(
        prog="bughunt",
        allow_abbrev=False,
        description=DESCRIPTION,
        epilog="`bughunt COMMAND --help` describes a command, with examples.",
    )
    # memgpt_lite.cli_dispatch.VERBOSE_HELP, restated: importing that module costs what this saves
    parser.add_argument(
        "-v", "--verbose", action="count", default=0,
        help="log more (-v info, -vv debug); accepted before or after the sub-command",
    )  # fmt: skip
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module, summary in SUMMARIES.items():
        sub.add_parser(module.replace("_", "-"), help=summary, add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # this process is the command (the `bughunt` script, `python -m bughunt`)
        atexit.register(_no_last_collection)
    args = sys.argv[1:] if argv is None else argv
    # top-level options take no values, so the first other token is the command (as the dispatcher reads it)
    token = next((a for a in args if not a.startswith("-")), None)
    module = token.replace("-", "_") if token is not None else None
    if module is None or module not in SUMMARIES:
        # No command named: argparse prints the list (--help) or the usage error, and exits.
        command_list_parser().parse_args(args)
    elif argv is None:  # a caller's own process (a test, an application) keeps its collector as it set it
        _import_quietly(module)
    return _dispatcher().main(argv)


def _import_quietly(module: str) -> None:
    """Import the command's module with the young collector paused, then set what it made aside
    (`gc.freeze`). Its imports make a few hundred thousand objects (modules, classes, functions,
    compiled patterns) that live as long as the process: the ~60 young collections that would fall
    among them, or one large one after, walk and promote them only to find next to nothing (~3 % of a
    `--budget 0` run's CPU by `gc.callbacks` timing; 61 collections become 8). The thresholds come back
    before the command runs, and what it builds is collected as before; `explore` freezes start-up's
    objects again before its first click, as it did."""
    before = gc.get_threshold()
    # a threshold of 0 (young collections off) stays off
    gc.set_threshold(before[0] and max(before[0], IMPORT_YOUNG_OBJECTS), *before[1:])
    try:
        importlib.import_module(f"bughunt.commands.{module}")
    finally:
        gc.set_threshold(*before)
    gc.freeze()


def _no_last_collection() -> None:
    """At exit, leave the objects still alive to the OS rather than to the collector: the interpreter's
    finalization walks every tracked object (~60-80 ms of CPU after an explore run, a fifth of a
    `--budget 0` run). Acyclic objects are still freed as the modules are torn down; by then every
    store, file and server the command opened has been closed by its own `with` or `finally`."""
    gc.freeze()


if __name__ == "__main__":
    sys.exit(main())
