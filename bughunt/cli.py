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


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bughunt", description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="count", default=0, help="log more (-v info, -vv debug)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # Some command modules take a second or more to import; when the command line names a command,
    # load only its module. Anything else (--help, a typo) loads them all.
    wanted = _named_module(sys.argv[1:] if argv is None else argv)
    for name in COMMANDS if wanted is None else (wanted,):
        importlib.import_module(f"bughunt.commands.{name}").register(sub)
    return parser


def _named_module(argv: list[str]) -> str | None:
    # top-level options take no values, so the first other token is the command
    token = next((a for a in argv if not a.startswith("-")), None)
    name = token.replace("-", "_") if token else None
    return name if name in COMMANDS else None


def configure_logging(verbosity: int) -> None:
    # The library is quiet by default; the CLI turns logging on only when asked.
    logger.remove()
    if verbosity:
        logger.add(sys.stderr, level="DEBUG" if verbosity > 1 else "INFO")
        for lib in ("memgpt_lite", "bughunt", "evals"):
            logger.enable(lib)


def main(argv: list[str] | None = None) -> int:
    args = build_parser(argv).parse_args(argv)
    configure_logging(args.verbose)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
