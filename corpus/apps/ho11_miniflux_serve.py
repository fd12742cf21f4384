"""Serve the corpus's Miniflux: its own PostgreSQL (Debian's server, a cluster in the checkout, unix
socket only: no TCP port to collide with), then the Miniflux binary the seed step built, on loopback.

PostgreSQL refuses to run as root, so the cluster belongs to the `postgres` user and its processes
run as that user. Both processes stay in this script's process group: the corpus runner stops the group, and
a SIGTERM here stops Miniflux and then the database. The seed script (`ho11_miniflux_seed.py`) uses
the start/stop helpers below to fill a fresh cluster. Usage: ho11_miniflux_serve.py ROOT PORT
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

PG_PORT = "5432"


def pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise SystemExit(f"no PostgreSQL {name}: apt-get install -y postgresql")
    return found[-1]


def pg_dir(root: Path) -> Path:
    return root / ".corpus-pg"


def database_url(root: Path) -> str:
    return f"host={pg_dir(root)} port={PG_PORT} user=postgres dbname=miniflux sslmode=disable"


AS_POSTGRES = {"user": "postgres", "group": "postgres", "extra_groups": []}


def postgres_argv(root: Path) -> list[str]:
    sock = pg_dir(root)
    return [
        pg_bin("postgres"),
        "-D",
        str(sock / "data"),
        "-k",
        str(sock),
        "-p",
        PG_PORT,
        "-c",
        "listen_addresses=",
        "-c",
        "fsync=off",
        "-c",
        "full_page_writes=off",
        "-c",
        "synchronous_commit=off",
    ]


def stop_leftover(root: Path) -> None:
    """A cluster a killed run left running (its postmaster.pid names it): stop it."""
    pid_file = pg_dir(root) / "data" / "postmaster.pid"
    try:
        pid = int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return
    try:
        os.kill(pid, signal.SIGQUIT)
    except ProcessLookupError:
        return
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)


def wait_ready(root: Path, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        done = subprocess.run(
            [pg_bin("pg_isready"), "-h", str(pg_dir(root)), "-p", PG_PORT, "-q"], check=False
        )
        if done.returncode == 0:
            return
        time.sleep(0.3)
    raise SystemExit("PostgreSQL did not come up")


def init_cluster(root: Path) -> None:
    stop_leftover(root)
    shutil.rmtree(pg_dir(root), ignore_errors=True)
    pg_dir(root).mkdir(parents=True)
    shutil.chown(pg_dir(root), "postgres", "postgres")
    subprocess.run(
        [pg_bin("initdb"), "-D", str(pg_dir(root) / "data"), "-A", "trust", "-U", "postgres", "--no-sync"],
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=pg_dir(root),
        **AS_POSTGRES,
    )


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    port = sys.argv[2]
    stop_leftover(root)
    db = subprocess.Popen(postgres_argv(root), cwd=pg_dir(root), **AS_POSTGRES)
    wait_ready(root)
    env = dict(
        os.environ,
        DATABASE_URL=database_url(root),
        LISTEN_ADDR=f"127.0.0.1:{port}",
        BASE_URL=f"http://127.0.0.1:{port}/",
        POLLING_FREQUENCY="100000",
        WORKER_POOL_SIZE="1",
        RUN_MIGRATIONS="0",
    )
    app = subprocess.Popen([str(root / "miniflux-corpus")], cwd=root, env=env)

    def stop(_signum: int, _frame: object) -> None:
        app.terminate()
        try:
            app.wait(5)
        except subprocess.TimeoutExpired:
            app.kill()
        db.send_signal(signal.SIGINT)  # fast shutdown
        try:
            db.wait(10)
        except subprocess.TimeoutExpired:
            db.kill()
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    # poll rather than wait(): a wait() in progress would hold the lock stop()'s own wait needs
    while app.poll() is None:
        time.sleep(0.5)
    code = app.returncode
    stop(0, None)
    sys.exit(code)


if __name__ == "__main__":
    main()
