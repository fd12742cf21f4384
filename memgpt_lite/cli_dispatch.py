"""The sub-command dispatcher shared by the `memgpt-lite` and `bughunt` command lines.

Each command lives in its own module exposing `register(subparsers)`, which adds the parser and sets
`func(args) -> int`. Some command modules take a second or more to import (Chroma, onnxruntime), so
when the command line names a command only its module is loaded; `--help` or a typo loads them all.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from loguru import logger
from pydantic import ValidationError

from memgpt_lite.errors import (
    ConfigError,
    MemgptLiteError,
    ModelError,
    StoreError,
    UsageError,
    format_validation_error,
)

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
        return run_reporting_errors(lambda: args.func(args))


def run_reporting_errors(command: Callable[[], int | None]) -> int:
    """Run a command; the framework's errors become one `error: ...` line and an exit code, never a traceback.

    Bad input (usage, configuration, a store that is corrupt or not ours) exits 2; a failure at run time
    (the model, the context window, the file system, a database) exits 1; Ctrl-C exits 130. This is the
    one net under every command: a command that wants to say more (JSON on stdout) uses `exit_code`
    for the same verdict. A bug (any other exception) keeps its traceback.
    """
    try:
        return int(command() or 0)
    except (KeyboardInterrupt, MemgptLiteError, ValidationError, sqlite3.DatabaseError, OSError) as e:
        print(error_line(e), file=sys.stderr)
        return exit_code(e)


def exit_code(e: BaseException) -> int:
    """The exit code of the shared net for an error: 2 bad input, 1 runtime failure, 130 Ctrl-C."""
    if isinstance(e, KeyboardInterrupt):
        return 130
    if isinstance(e, UsageError | ConfigError | StoreError | ValidationError):
        return 2
    return 1


def error_line(e: BaseException) -> str:
    """The one line the shared net prints for an error."""
    if isinstance(e, KeyboardInterrupt):
        return "interrupted"
    if isinstance(e, ModelError):
        return f"model error: {e}"
    if isinstance(e, ValidationError):  # settings built from command-line values: name the field
        return f"error: invalid {e.title} setting {format_validation_error(e, e.title, every=False)}"
    if isinstance(e, sqlite3.DatabaseError):
        return f"error: database: {e}"
    if isinstance(e, OSError):
        return f"error: {describe_os_error(e)}"
    return f"error: {e}"


def describe_os_error(e: OSError) -> str:
    """`cannot use PATH: reason` when the error names a file, else the reason alone."""
    reason = e.strerror or str(e) or type(e).__name__
    if e.filename is not None:
        return f"cannot use {e.filename}: {reason}"
    return reason


def check_output_file(path: str | os.PathLike[str] | None, option: str) -> None:
    """Fail before the work, not after it: an output file that can never be written is a usage error."""
    if path is None:
        return
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{option} {p} is a directory; give a file to write")
    for parent in p.absolute().parents:
        if parent.exists():
            if not parent.is_dir():
                raise UsageError(f"{option} {p}: {parent} is a file, not a directory")
            break


def port_number(text: str) -> int:
    """argparse type for a TCP port: 0 (pick a free one) to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be 0-65535 (0 picks a free one), got {port}")
    return port


def configure_logging(verbosity: int) -> None:
    # The libraries are quiet by default; the command line turns logging on only when asked.
    logger.remove()
    if verbosity:
        logger.add(sys.stderr, level="DEBUG" if verbosity > 1 else "INFO")
        for lib in LIBRARIES:
            logger.enable(lib)
