"""A private PostgreSQL cluster for the corpus's Tiny Tiny RSS: start, wait, stop.

The cluster lives in ROOT/.corpus-data/pg, owned by Debian's `postgres` user (PostgreSQL refuses to
run as root), and listens on a Unix socket in ROOT/.corpus-data/run only — no TCP port at all.
"""

import os
import shutil
import subprocess
import time
from pathlib import Path

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def paths(root: Path) -> tuple[Path, Path]:
    data = root / ".corpus-data"
    return data / "pg", data / "run"


def init(root: Path) -> None:
    """A fresh cluster (any earlier one is removed)."""
    pg, run = paths(root)
    shutil.rmtree(pg.parent, ignore_errors=True)
    for folder in (pg, run):
        folder.mkdir(parents=True)
        shutil.chown(folder, "postgres", "postgres")
    subprocess.run(
        [
            str(PG_BIN / "initdb"),
            "-D",
            str(pg),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
        user="postgres",
        group="postgres",
        cwd=pg,
    )


def start(root: Path) -> subprocess.Popen[bytes]:
    """Start the server in this process group and wait (60 s at most) until it answers."""
    pg, run = paths(root)
    # user= makes the child postgres itself (no runuser in between), so signals reach it
    server = subprocess.Popen(
        [
            str(PG_BIN / "postgres"),
            "-D",
            str(pg),
            "-k",
            str(run),
            "-c",
            "listen_addresses=",
            "-c",
            "fsync=off",
            "-c",
            "full_page_writes=off",
            "-c",
            "synchronous_commit=off",
        ],
        user="postgres",
        group="postgres",
        cwd=pg,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready = subprocess.run([str(PG_BIN / "pg_isready"), "-q", "-h", str(run)], check=False)
        if ready.returncode == 0:
            return server
        if server.poll() is not None:
            raise SystemExit("postgres exited before it was ready")
        time.sleep(0.3)
    server.kill()
    raise SystemExit("postgres was not ready within 60 s")


def stop(server: subprocess.Popen[bytes]) -> None:
    """Fast shutdown (SIGINT), bounded."""
    server.send_signal(2)
    try:
        server.wait(30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def psql(root: Path, sql: str, db: str = "ttrss") -> None:
    _, run = paths(root)
    subprocess.run(
        [str(PG_BIN / "psql"), "-q", "-v", "ON_ERROR_STOP=1", "-h", str(run), "-U", "postgres", "-d", db],
        input=sql.encode(),
        check=True,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "PGOPTIONS": "-c client_min_messages=warning"},
    )
