"""The child processes the benchmarks start (a site, a server): started until a block ends, and
stopped politely, then for sure."""

from __future__ import annotations

import json
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def serving(cmd: list[str], cwd: Path, what: str) -> Iterator[dict[str, Any]]:
    """Run `cmd` (a server that prints one JSON line, its address, on stdout when it is ready) until the
    block ends; yields that JSON. stderr goes to a file, not a pipe: a full pipe would block the server."""
    with tempfile.TemporaryFile(mode="w+") as log:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=log, text=True)
        try:
            line = p.stdout.readline() if p.stdout else ""
            if not line:
                p.wait(timeout=10)
                log.seek(0)
                raise SystemExit(f"error: {what} did not start:\n{log.read()[-2000:]}")
            answer: dict[str, Any] = json.loads(line)
            yield answer
        finally:
            stop(p)


def stop(process: subprocess.Popen[Any], timeout_s: float = 10.0) -> None:
    """SIGTERM, wait up to `timeout_s`, then SIGKILL: a benchmark never leaves a server behind."""
    process.terminate()
    try:
        process.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
