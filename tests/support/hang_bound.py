"""A hard bound on each test: one that has not ended after `HANG_S` seconds has all its threads'
stacks written to stderr and its process ended, so the run reports it (xdist names the test whose
worker crashed, and goes on with a new worker) instead of waiting out CI's limit.

Python-level timeouts cannot do it: a hang inside a native extension holding the GIL (Chroma's Rust
client once spun for 20 minutes in `close`) never lets a signal handler or a watcher thread run.
`faulthandler`'s watchdog is a C thread that needs no GIL."""

from __future__ import annotations

import faulthandler
import os
from collections.abc import Generator
from typing import TextIO

import pytest

HANG_S = float(os.environ.get("MEMGPT_LITE_TEST_HANG_S", "900"))
"""Far above the slowest test (a few minutes on a loaded machine), far below CI's 90 minutes."""

_stderr: TextIO | None = None
"""The process's own stderr, not the test's captured output (which dies with the process)."""


def pytest_configure(config: pytest.Config) -> None:
    global _stderr
    capture = config.pluginmanager.getplugin("capturemanager")
    if capture is None:
        _stderr = os.fdopen(os.dup(2), "w")
        return
    with capture.global_and_fixture_disabled():
        _stderr = os.fdopen(os.dup(2), "w")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    if _stderr is not None:
        faulthandler.dump_traceback_later(HANG_S, exit=True, file=_stderr)
    try:
        return (yield)
    finally:
        faulthandler.cancel_dump_traceback_later()
