"""`bughunt` with no command named (`bughunt`, `bughunt --help`, a typo) lists the commands from
`bughunt.cli.SUMMARIES` without importing one command module; the list is the full parser's."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bughunt.cli import SUMMARIES, build_parser, command_list_parser, main
from memgpt_lite.cli_dispatch import _help_of, _subparsers


def test_the_summaries_are_what_the_command_modules_register():
    full = build_parser([])  # no command named: every module registers
    registered = {name: _help_of(full, name) for name in _subparsers(full)}
    assert registered == {module.replace("_", "-"): summary for module, summary in SUMMARIES.items()}


def test_the_command_list_is_the_full_parsers_top_level_help():
    assert command_list_parser().format_help() == build_parser([]).format_help()


PROBE = """
import sys
from bughunt.cli import main
try:
    main({argv!r})
except SystemExit as e:
    code = e.code
print(code, sorted(m for m in sys.modules if m.startswith("bughunt.commands.")), "pydantic" in sys.modules,
      file=sys.stderr)
"""


@pytest.mark.parametrize(
    "argv, code, says",
    [
        (["--help"], 0, "explore      explore a web application"),
        ([], 2, "the following arguments are required: COMMAND"),
        (["-v", "explor"], 2, "invalid choice: 'explor' (choose from 'demo-page', 'sim',"),
    ],
)
def test_no_command_named_imports_no_command_module(argv, code, says):
    p = subprocess.run(
        [sys.executable, "-c", PROBE.format(argv=argv)], capture_output=True, text=True, check=True
    )
    assert says in p.stdout + p.stderr
    assert p.stderr.splitlines()[-1] == f"{code} [] False", p.stderr


def test_a_named_command_still_runs_through_the_dispatcher(capsys):
    assert main(["sim", "--seed", "1", "--json"]) == 0
    assert '"steps"' in capsys.readouterr().out
