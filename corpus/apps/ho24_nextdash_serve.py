"""Serve the Next.js dashboard (held-out set 24) on 127.0.0.1:PORT: start the checkout's PostgreSQL
cluster (seeded by ho24_nextdash_seed.py) on a free loopback port, wait until it accepts connections,
then exec `next start` on the production build the seed made. Both stay in this process group, so the
corpus's stop of the group stops the database too. Usage: ho24_nextdash_serve.py ROOT PORT.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def stop_stale(data: Path) -> None:
    """A server left by a seed or serve that was cut short (the corpus's deadlines kill the script, not
    its children) holds the cluster's lock: stop it, bounded, before starting another."""
    if (data / "postmaster.pid").is_file():
        subprocess.run(["runuser", "-u", "postgres", "--", str(PG_BIN / "pg_ctl"), "-D", str(data), "stop",
                        "-m", "immediate", "-t", "30"], capture_output=True, check=False)  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    port = sys.argv[2]
    data = root / ".corpus-pg"
    stop_stale(data)
    pg_port = free_port()
    subprocess.Popen(
        ["runuser", "-u", "postgres", "--", str(PG_BIN / "postgres"), "-D", str(data), "-p", str(pg_port),
         "-k", str(data), "-c", "listen_addresses=127.0.0.1"],
    )  # fmt: skip
    for _ in range(120):  # bounded: 60 s
        ready = subprocess.run([str(PG_BIN / "pg_isready"), "-h", "127.0.0.1", "-p", str(pg_port)],
                               capture_output=True)  # fmt: skip
        if ready.returncode == 0:
            break
        time.sleep(0.5)
    os.environ["POSTGRES_URL"] = f"postgres://postgres@127.0.0.1:{pg_port}/dashboard"
    os.chdir(root)
    next_bin = str(root / "node_modules" / ".bin" / "next")
    os.execv(next_bin, [next_bin, "start", "-H", "127.0.0.1", "-p", port])


if __name__ == "__main__":
    main()
