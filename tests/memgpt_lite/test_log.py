"""The libraries' logger (`memgpt_lite.log`): loguru imported only when something can show a message, and
then in the state the calls made before it would have left it. Each case runs in a fresh interpreter:
the test session itself imports loguru (conftest)."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )


def test_a_quiet_library_imports_no_loguru_and_drops_its_messages():
    done = _run(
        "import sys\n"
        "import bughunt, memgpt_lite\n"
        "from memgpt_lite.log import logger\n"
        "logger.warning('dropped {}', 1)\n"
        "logger.remove()\n"
        "logger.configure(patcher=None)\n"
        "print('loguru' in sys.modules, 'asyncio' in sys.modules)\n"
    )
    assert done.stdout.split() == ["False", "False"]
    assert done.stderr == ""


# a message from one of our modules after an application imports loguru itself: quiet until it enables the
# library, as when the library's import disabled it in loguru directly
APPLICATION = """
import bughunt
from memgpt_lite.log import logger as ours
ours.warning("before import")
from loguru import logger
{early}
seen = []
logger.remove()
logger.add(lambda m: seen.append(m.record["name"] + ":" + m.record["function"] + ":" + m.record["message"]))
def in_our_module(message):  # logged as from a module of ours (loguru reads the caller's globals)
    exec(f"ours.warning({message!r})", {"__name__": "bughunt.probe", "ours": ours})
in_our_module("before enable")
{enable}
in_our_module("after enable")
logger.warning("the application's own")
print(seen)
"""


@pytest.mark.parametrize(
    "early, enable, seen",
    [
        ("", "", ["__main__:<module>:the application's own"]),
        (
            "",
            'logger.enable("bughunt")',
            ["bughunt.probe:<module>:after enable", "__main__:<module>:the application's own"],
        ),
        # enabled before any message of ours: our disable was made when loguru was imported, not later
        (
            'logger.enable("bughunt")',
            "",
            [
                "bughunt.probe:<module>:before enable",
                "bughunt.probe:<module>:after enable",
                "__main__:<module>:the application's own",
            ],
        ),
    ],
)
def test_an_application_that_imports_loguru_sees_our_messages_only_once_it_enables_us(early, enable, seen):
    done = _run(APPLICATION.replace("{early}", early).replace("{enable}", enable))
    assert done.stdout.strip() == repr(seen)


def test_calls_made_before_loguru_is_imported_are_made_on_its_import_in_order():
    done = _run(
        "from memgpt_lite.log import logger\n"
        "import bughunt\n"
        "logger.remove()\n"  # loguru's default sink, once it exists
        "logger.enable('bughunt')\n"
        "logger.disable('bughunt')\n"
        "logger.enable('bughunt')\n"
        "logger.configure(extra={'kept': 1})\n"
        "import loguru\n"
        "out = []\n"
        "loguru.logger.add(lambda m: out.append((m.record['name'], m.record['extra'])))\n"
        "exec('logger.info(1)', {'__name__': 'bughunt.probe', 'logger': logger})\n"
        "print(out, len(loguru.logger._core.handlers))\n"
    )
    assert done.stdout.strip() == "[('bughunt.probe', {'kept': 1})] 1"
    assert done.stderr == ""  # the default sink was removed before anything was logged


def test_a_verbose_command_line_logs_from_our_modules_with_their_names_and_lines():
    done = _run(
        "from memgpt_lite.cli_dispatch import configure_logging\n"
        "configure_logging(2)\n"
        "from memgpt_lite.log import logger\n"
        "code = compile('\\n\\nlogger.debug(\\'hello {}\\', \\'world\\')', 'probe.py', 'exec')\n"
        "exec(code, {'__name__': 'bughunt.probe', 'logger': logger})\n"
    )
    assert done.stderr.rstrip().endswith("| DEBUG    | bughunt.probe:<module>:3 - hello world")
