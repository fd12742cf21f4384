"""Starting an application on a free loopback port, waiting until it answers, stopping it for sure."""

from __future__ import annotations

import contextlib
import http.client
import os
import shlex
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from corpus.build import BuildError, Checkout

READY_TIMEOUT_S = 90.0
STOP_TIMEOUT_S = 10.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def stop_group(process: subprocess.Popen[bytes], timeout_s: float = STOP_TIMEOUT_S) -> None:
    """SIGTERM to the whole process group (reloaders and workers too), then SIGKILL: nothing is left behind."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        try:
            process.wait(timeout=timeout_s)
            # the leader may be gone while children of its group still run
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            return
        except subprocess.TimeoutExpired:
            continue
    process.wait(timeout=timeout_s)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2.0) as response:  # noqa: S310 (loopback only)
            return int(response.status) < 500
    except urllib.error.HTTPError as error:
        return error.code < 500
    except (urllib.error.URLError, http.client.HTTPException, OSError):
        # HTTPException: a server still starting may answer with no proper status line (OctoPrint)
        return False


@contextlib.contextmanager
def serving(co: Checkout, port: int, log: Path) -> Iterator[str]:
    """The application started on 127.0.0.1:`port`; yields its base URL (with the app file's loopback
    `host` name); always stopped on exit."""
    argv = shlex.split(co.fill(co.app.start, port))
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            raise BuildError(f"{co.app.name}: port {port} is already in use")
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as out:
        process = subprocess.Popen(
            argv,
            cwd=co.root,
            env=co.env(port),
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:
        base = f"http://{co.app.host}:{port}"
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not _answers(base + co.app.ready_path):
            if process.poll() is not None:
                raise BuildError(f"{co.app.name}: the server exited {process.returncode} (see {log})")
            if time.monotonic() > deadline:
                raise BuildError(f"{co.app.name}: no answer on {base} in {READY_TIMEOUT_S:.0f} s (see {log})")
            time.sleep(0.3)
        if process.poll() is not None:  # something else answered on the port
            raise BuildError(f"{co.app.name}: the server exited {process.returncode} (see {log})")
        yield base
    finally:
        stop_group(process)
