"""Serve Tiny Tiny RSS for the corpus: its private PostgreSQL cluster, then PHP's built-in server.

Both stay in this process group (the corpus stops the whole group); on SIGTERM this stops PHP and
shuts PostgreSQL down fast. PHP serves on 127.0.0.1 only, with a few workers (one PHP process would
serialise the page's parallel requests).

Usage: ho21_ttrss_serve.py ROOT PORT   (env: the TTRSS_* settings of the app file)
"""

import os
import signal
import subprocess
import sys
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ho21_ttrss_pg as pg  # noqa: E402


def main(root: Path, port: int) -> None:
    database = pg.start(root)
    env = {**os.environ, "PHP_CLI_SERVER_WORKERS": "4"}
    php = subprocess.Popen(["php", "-S", f"127.0.0.1:{port}", "-t", str(root)], cwd=root, env=env)

    def stop(signum: int, frame: FrameType | None) -> None:
        php.terminate()
        pg.stop(database)
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    php.wait()
    pg.stop(database)


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), int(sys.argv[2]))
