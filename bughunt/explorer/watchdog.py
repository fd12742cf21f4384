"""A deadline for Playwright calls that have none of their own (`evaluate`, `content`, a click's
handler): a page whose script never yields blocks its renderer, and the sync client waits for it forever.

Past the deadline (plus `SLACK_S`) a timer thread kills the renderer processes of *this* browser
(found under the browser process that carries the engine's own marker switch); the blocked call then
fails at once ("Target crashed") and the engine replaces the tab. The sync client cannot be called from
another thread, so ending the renderer is the one interruption that works from outside.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SLACK_S = 2.0
"""How far past its deadline a blocked page may hold a step: the kill, the crash reaching the client,
and a new tab. A page that never yields is abandoned within `--timeout` + SLACK_S (+ the new tab)."""


class HostilePage(Exception):
    """The page blocked its renderer past the step's deadline (or kept navigating); it was abandoned.
    The message is harness wording only."""


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # the command name may hold spaces and parentheses: the fields start after the last ")"
        fields = stat.rsplit(")", 1)[-1].split()
        if len(fields) > 1:
            kids.setdefault(int(fields[1]), []).append(int(entry.name))
    return kids


def _cmdline(pid: int) -> bytes:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes()
    except OSError:
        return b""


def renderer_pids(marker: str) -> list[int]:
    """The renderer processes under the browser process whose command line holds `marker`."""
    kids = _children()
    token = marker.encode()
    roots = [
        pid
        for pids in kids.values()
        for pid in pids
        if token in _cmdline(pid) and b"--type=" not in _cmdline(pid)
    ]
    found: list[int] = []
    todo = list(roots)
    while todo:
        for child in kids.get(todo.pop(), []):
            todo.append(child)
            if b"--type=renderer" in _cmdline(child):
                found.append(child)
    return found


def kill_renderers(marker: str) -> int:
    killed = 0
    for pid in renderer_pids(marker):
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except OSError:
            pass
    return killed


@contextmanager
def deadline_guard(
    marker: str, deadline: float, what: str, slack: float = SLACK_S
) -> Iterator[threading.Event]:
    """Run the block; if it is still running `slack` seconds after `deadline` (a `time.monotonic` time),
    kill the renderers and raise `HostilePage` (whatever error the crash caused in the block)."""
    fired = threading.Event()

    def fire() -> None:
        fired.set()
        kill_renderers(marker)

    timer = threading.Timer(max(0.0, deadline - time.monotonic() + slack), fire)
    timer.daemon = True
    timer.start()
    try:
        yield fired
    except Exception:
        if fired.is_set():
            raise HostilePage(what) from None
        raise
    finally:
        timer.cancel()
    if fired.is_set():
        raise HostilePage(what)
