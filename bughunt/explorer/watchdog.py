"""A deadline for Playwright calls that have none of their own (`evaluate`, `content`, a click's
handler): a page whose script never yields blocks its renderer, and the sync client waits for it forever.

Past the deadline (plus `SLACK_S`) a timer thread kills the renderer processes of *this* browser
(found under the browser process that carries the engine's own marker switch); the blocked call then
fails at once ("Target crashed") and the engine replaces the tab. The sync client cannot be called from
another thread, so ending the renderer is the one interruption that works from outside. One timer
thread serves every guard (`TIMERS`): a guard is set and cleared under a lock, where a thread of its own
per guard cost a thread start, which waits for the new thread to run — tens of ms on a loaded machine,
twice a page.
"""

from __future__ import annotations

import heapq
import itertools
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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


def _roots(kids: dict[int, list[int]], marker: str) -> list[int]:
    """The browser processes (not its helpers) whose command line holds `marker`."""
    token = marker.encode()
    return [
        pid
        for pids in kids.values()
        for pid in pids
        if token in _cmdline(pid) and b"--type=" not in _cmdline(pid)
    ]


def renderer_pids(marker: str) -> list[int]:
    """The renderer processes under the browser process whose command line holds `marker`."""
    kids = _children()
    roots = _roots(kids, marker)
    found: list[int] = []
    todo = list(roots)
    while todo:
        for child in kids.get(todo.pop(), []):
            todo.append(child)
            if b"--type=renderer" in _cmdline(child):
                found.append(child)
    return found


def _kill(pids: list[int]) -> int:
    killed = 0
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except OSError:  # gone already
            pass
    return killed


KILLED: dict[str, set[int]] = {}
"""Marker → renderer pids killed and not yet taken (`take_killed`). Chromium keeps a *spare* renderer
for the next tab, and the kill ends it too: a tab opened before the browser has noticed that death is
given the dead spare and hangs. Whoever opens the next tab waits until the browser no longer lists
these pids. Written by the timer thread and the engine's, hence the lock."""
_KILLED_LOCK = threading.Lock()


def kill_renderers(marker: str) -> int:
    pids = renderer_pids(marker)
    with _KILLED_LOCK:
        KILLED.setdefault(marker, set()).update(pids)
    return _kill(pids)


def take_killed(marker: str) -> set[int]:
    """The renderer pids killed for `marker` since the last call (and forget them)."""
    with _KILLED_LOCK:
        return KILLED.pop(marker, set())


def kill_browser(marker: str) -> int:
    """The last resort: end this engine's browser itself. Every pending call of the client then fails
    ("browser has been closed") and the engine starts a new browser."""
    return _kill(_roots(_children(), marker))


DRIVERS: dict[str, int] = {}
"""Marker → the pid of the Playwright driver (node) serving that browser: the third resort."""


def driver_pids() -> set[int]:
    """This process's Playwright drivers (its children running Playwright's node driver)."""
    return {pid for pid in _children().get(os.getpid(), []) if b"playwright" in _cmdline(pid)}


def kill_driver(marker: str) -> int:
    """End the driver itself: its connection closes and every pending call of the sync client fails
    ("connection closed"), even one that a dead browser left waiting."""
    pid = DRIVERS.get(marker)
    return _kill([pid]) if pid is not None else 0


class Timers:
    """Actions to run at given times, on one daemon thread (started on first use)."""

    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._heap: list[list[Any]] = []  # [when, n, action or None once cancelled]
        self._order = itertools.count()
        self._thread: threading.Thread | None = None

    def add(self, delay: float, action: Callable[[], object]) -> list[Any]:
        """Run `action` in `delay` seconds; returns the handle `cancel` takes."""
        entry: list[Any] = [time.monotonic() + delay, next(self._order), action]
        with self._ready:
            heapq.heappush(self._heap, entry)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="bughunt-watchdog", daemon=True)
                self._thread.start()
            self._ready.notify()
        return entry

    def cancel(self, entry: list[Any]) -> None:
        with self._ready:
            entry[2] = None
            while self._heap and self._heap[0][2] is None:
                heapq.heappop(self._heap)

    def _run(self) -> None:
        while True:
            with self._ready:
                while True:
                    while self._heap and self._heap[0][2] is None:
                        heapq.heappop(self._heap)
                    if not self._heap:
                        self._ready.wait()
                        continue
                    left = self._heap[0][0] - time.monotonic()
                    if left <= 0:
                        action = heapq.heappop(self._heap)[2]
                        break
                    self._ready.wait(left)
            action()  # outside the lock: a kill may take a while, and may set a timer of its own


TIMERS = Timers()


ESCALATE_S = 3.0
"""After the renderers were killed, how long a call may stay blocked (a tab that will not close waits
on the browser process, not a renderer) before the browser itself is ended."""


@contextmanager
def deadline_guard(
    marker: str, deadline: float, what: str, slack: float = SLACK_S
) -> Iterator[threading.Event]:
    """Run the block; if it is still running `slack` seconds after `deadline` (a `time.monotonic` time),
    kill the renderers and raise `HostilePage` (whatever error the crash caused in the block)."""
    fired = threading.Event()
    timers: list[list[Any]] = []
    lock = threading.Lock()
    ended = False

    def later(delay: float, action: Callable[[], object]) -> None:
        with lock:
            if not ended:  # an escalation set after the block ended would kill a browser in use
                timers.append(TIMERS.add(delay, action))

    def fire() -> None:
        fired.set()
        kill_renderers(marker)
        # still blocked after that: the browser process, not a renderer, holds the call
        later(ESCALATE_S, escalate)

    def escalate() -> None:
        kill_browser(marker)
        # and if even a dead browser leaves the call waiting (seen, rarely, under load): the driver
        later(ESCALATE_S, lambda: kill_driver(marker))

    later(max(0.0, deadline - time.monotonic() + slack), fire)
    try:
        yield fired
    except Exception:
        if fired.is_set():
            raise HostilePage(what) from None
        raise
    finally:
        with lock:
            ended = True
            for timer in timers:
                TIMERS.cancel(timer)
    if fired.is_set():
        raise HostilePage(what)
