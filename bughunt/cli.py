"""`bughunt` command line: one sub-command per module in `bughunt.commands`.

Each module exposes `register(subparsers)`, which adds its parser and sets `func(args) -> int`.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from loguru import logger

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bughunt", description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="count", default=0, help="log more (-v info, -vv debug)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"bughunt.commands.{name}").register(sub)
    return parser


def configure_logging(verbosity: int) -> None:
    # The library is quiet by default; the CLI turns logging on only when asked.
    logger.remove()
    if verbosity:
        logger.add(sys.stderr, level="DEBUG" if verbosity > 1 else "INFO")
        for lib in ("memgpt_lite", "bughunt", "evals"):
            logger.enable(lib)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    configure_logging(args.verbose)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
