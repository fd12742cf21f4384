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
import typing
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from memgpt_lite.errors import (
    ConfigError,
    MemgptLiteError,
    ModelError,
    StoreError,
    UsageError,
    format_validation_error,
)
from memgpt_lite.log import logger

if typing.TYPE_CHECKING:
    from pydantic import ValidationError

LIBRARIES = ("memgpt_lite", "bughunt", "evals")


VERBOSE_HELP = "log more (-v info, -vv debug); accepted before or after the sub-command"


class ExactParser(argparse.ArgumentParser):
    """An ArgumentParser that takes no abbreviations: `--password x` must not silently become
    `--password-env x`, nor a typo a different option. Sub-command parsers are of the parent's class,
    so every level of a command line built on it is exact."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)


class Dispatcher:
    def __init__(
        self,
        prog: str,
        description: str,
        package: str,
        commands: Sequence[str],
        examples: Mapping[str, Sequence[str]] | None = None,
        module_of: Mapping[str, str] | None = None,
    ) -> None:
        self.prog, self.description, self.package, self.commands = prog, description, package, tuple(commands)
        # sub-command name -> example command lines, shown at the end of its --help
        self.examples = dict(examples or {})
        # sub-commands registered by a module of another name (sub-command -> module in `commands`)
        self.module_of = dict(module_of or {})

    def build_parser(self, argv: list[str] | None = None) -> argparse.ArgumentParser:
        parser = ExactParser(
            prog=self.prog,
            description=self.description,
            epilog=f"`{self.prog} COMMAND --help` describes a command, with examples.",
        )
        parser.add_argument("-v", "--verbose", action="count", default=0, help=VERBOSE_HELP)
        sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
        wanted = self._named_module(sys.argv[1:] if argv is None else argv)
        for name in self.commands if wanted is None else (wanted,):
            importlib.import_module(f"{self.package}.{name}").register(sub)
        _finish_subparsers(parser, self.examples)
        return parser

    def _named_module(self, argv: list[str]) -> str | None:
        # top-level options take no values, so the first other token is the command
        token = next((a for a in argv if not a.startswith("-")), None)
        name = token.replace("-", "_") if token else None
        name = self.module_of.get(name, name) if name else None
        return name if name in self.commands else None

    def main(self, argv: list[str] | None = None) -> int:
        args = self.build_parser(argv).parse_args(argv)
        # -v before the sub-command counts into `verbose`, after it into `verbose_after`
        configure_logging(args.verbose + getattr(args, "verbose_after", 0))
        return run_reporting_errors(lambda: args.func(args))


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    out: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            out.update(action.choices)
    return out


def _help_of(parser: argparse.ArgumentParser, name: str) -> str | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.dest == name:
                    return choice.help
    return None


def _finish_subparsers(
    parser: argparse.ArgumentParser, examples: Mapping[str, Sequence[str]], path: str = ""
) -> None:
    """Every (nested) sub-command accepts -v/-vv, has a description and shows its examples."""
    for name, sp in _subparsers(parser).items():
        key = f"{path} {name}".strip()
        if not any("-v" in a.option_strings for a in sp._actions):
            # its own dest: a sub-parser's default would otherwise reset a count given before it
            sp.add_argument(
                "-v", "--verbose", dest="verbose_after", action="count", default=0, help=VERBOSE_HELP
            )
        if not sp.description:
            sp.description = _help_of(parser, name)
        lines = examples.get(key)
        if lines:
            sp.formatter_class = argparse.RawDescriptionHelpFormatter
            example_text = "examples:\n" + "\n".join(f"  {line}" for line in lines)
            sp.epilog = f"{sp.epilog}\n\n{example_text}" if sp.epilog else example_text
        _finish_subparsers(sp, examples, key)


def run_reporting_errors(command: Callable[[], int | None]) -> int:
    """Run a command; the framework's errors become one `error: ...` line and an exit code, never a traceback.

    Bad input (usage, configuration, a store that is corrupt or not ours) exits 2; a failure at run time
    (the model, the context window, the file system, a database) exits 1; Ctrl-C exits 130. This is the
    one net under every command: a command that wants to say more (JSON on stdout) uses `exit_code`
    for the same verdict. A bug (any other exception) keeps its traceback.
    """
    try:
        return int(command() or 0)
    except BrokenPipeError:
        return quiet_broken_pipe()
    except (KeyboardInterrupt, MemgptLiteError, sqlite3.DatabaseError, OSError) as e:
        print(error_line(e), file=sys.stderr)
        return exit_code(e)
    except Exception as e:
        if not _is_validation_error(e):
            raise
        print(error_line(e), file=sys.stderr)
        return exit_code(e)


def _is_validation_error(e: BaseException) -> typing.TypeGuard[ValidationError]:
    # An error can be pydantic's only once something imported pydantic to build a model; importing it
    # here would cost every command ~20 ms CPU (a --budget 0 explore never needs it)
    pydantic = sys.modules.get("pydantic")
    return pydantic is not None and isinstance(e, pydantic.ValidationError)


def exit_code(e: BaseException) -> int:
    """The exit code of the shared net for an error: 2 bad input, 1 runtime failure, 130 Ctrl-C."""
    if isinstance(e, KeyboardInterrupt):
        return 130
    if isinstance(e, UsageError | ConfigError | StoreError) or _is_validation_error(e):
        return 2
    return 1


def error_line(e: BaseException) -> str:
    """The one line the shared net prints for an error."""
    if isinstance(e, KeyboardInterrupt):
        return "interrupted"
    if isinstance(e, ModelError):
        return f"model error: {e}"
    if _is_validation_error(e):  # settings built from command-line values: name the field
        return f"error: invalid {e.title} setting {format_validation_error(e, e.title, every=False)}"
    if isinstance(e, sqlite3.DatabaseError):
        return f"error: database: {e}"
    if isinstance(e, OSError):
        return f"error: {describe_os_error(e)}"
    return f"error: {e}"


def quiet_broken_pipe() -> int:
    """The reader went away (`| head`): stop quietly. Point stdout at /dev/null so the interpreter's
    final flush does not raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout already closed or not a real file
        pass
    return 0


def require_model_access(base_url: str | None, what: str) -> None:
    """Fail before any work when no model can be reached: no ANTHROPIC_API_KEY and no --base-url
    (`memgpt_lite.llm.factory.check_model_key`, the one check `make_model` makes too)."""
    # here, not at the top: the model factory imports the message models (pydantic, ~70 ms CPU),
    # which a command that never talks to a model need not pay for
    from memgpt_lite.llm.factory import check_model_key

    check_model_key(base_url, needed_by=what)


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
