"""The sub-command dispatcher shared by the `memgpt-lite` and `bughunt` command lines.

Each command lives in its own module exposing `register(subparsers)`, which adds the parser and sets
`func(args) -> int`. Some command modules take a second or more to import (Chroma, onnxruntime), so
when the command line names a command only its module is loaded; `--help` or a typo loads them all.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from loguru import logger

LIBRARIES = ("memgpt_lite", "bughunt", "evals")


class Dispatcher:
    def __init__(self, prog: str, description: str, package: str, commands: Sequence[str]) -> None:
        self.prog, self.description, self.package, self.commands = prog, description, package, tuple(commands)

    def build_parser(self, argv: list[str] | None = None) -> argparse.ArgumentParser:
        parser = argparse.ArgumentParser(prog=self.prog, description=self.description)
        parser.add_argument(
            "-v", "--verbose", action="count", default=0, help="log more (-v info, -vv debug)"
        )
        sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
        wanted = self._named_module(sys.argv[1:] if argv is None else argv)
        for name in self.commands if wanted is None else (wanted,):
            importlib.import_module(f"{self.package}.{name}").register(sub)
        return parser

    def _named_module(self, argv: list[str]) -> str | None:
        # top-level options take no values, so the first other token is the command
        token = next((a for a in argv if not a.startswith("-")), None)
        name = token.replace("-", "_") if token else None
        return name if name in self.commands else None

    def main(self, argv: list[str] | None = None) -> int:
        args = self.build_parser(argv).parse_args(argv)
        configure_logging(args.verbose)
        try:
            return int(args.func(args) or 0)
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return 130


def configure_logging(verbosity: int) -> None:
    # The libraries are quiet by default; the command line turns logging on only when asked.
    logger.remove()
    if verbosity:
        logger.add(sys.stderr, level="DEBUG" if verbosity > 1 else "INFO")
        for lib in LIBRARIES:
            logger.enable(lib)
