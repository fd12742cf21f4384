"""Start `deluge_web`: the checkout's Deluge daemon on a free loopback port, then its web UI on PORT.

Usage: deluge_web_serve.py ROOT PORT. Runs with the app's virtualenv; ROOT goes first on sys.path so
both processes run the checkout's code. The daemon's port is written into hostlist.conf (the web UI's
default daemon) before the web UI starts; the web UI then replaces this process, and the daemon is in
the same process group, so stopping the group stops both.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve()
PORT = sys.argv[2]
CONF = ROOT / ".corpus-deluge"
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    from deluge.config import Config

    dport = free_port()
    hosts = Config("hostlist.conf", {}, config_dir=str(CONF))
    hosts["hosts"] = [[h[0], h[1], dport, h[3], h[4]] for h in hosts["hosts"]]
    hosts.save()
    start = "import sys; sys.path.insert(0, {!r}); from deluge.{} import {}; {}()"
    subprocess.Popen(
        [
            sys.executable,
            "-c",
            start.format(str(ROOT), "core.daemon_entry", "start_daemon", "start_daemon"),
            "-d",
            "-c",
            str(CONF),
            "-p",
            str(dport),
            "-i",
            "127.0.0.1",
            "-u",
            "127.0.0.1",
            "-L",
            "warning",
        ]
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", dport), timeout=1).close()
            break
        except OSError:
            time.sleep(0.3)
    web = start.format(str(ROOT), "ui.web", "start", "start")
    os.execv(
        sys.executable,
        [sys.executable, "-c", web, "-d", "-c", str(CONF), "-i", "127.0.0.1", "-p", PORT, "-L", "warning"],
    )


if __name__ == "__main__":
    main()
