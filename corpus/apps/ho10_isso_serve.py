"""Serve isso on loopback for the corpus: write its config for this port, then run `isso run`.

Usage: ho10_isso_serve.py ROOT PORT. The config (ours) puts the database in ROOT, turns the admin
interface on with a throwaway password, turns the spam guard off (the explorer posts from one
address) and keeps the demo page the app ships at /demo/.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

CONFIG = """[general]
dbpath = {root}/corpus-isso.db
host = http://127.0.0.1:{port}/
max-age = 15m
[admin]
enabled = true
password = corpus-admin-pw
[moderation]
enabled = false
[server]
listen = http://127.0.0.1:{port}/
public-endpoint = http://127.0.0.1:{port}
[guard]
enabled = false
[markup]
renderer = mistune
"""


def config_text(root: Path, port: int) -> str:
    return CONFIG.format(root=root, port=port)


def main() -> None:
    root, port = Path(sys.argv[1]).resolve(), int(sys.argv[2])
    path = root / "corpus-isso.cfg"
    path.write_text(config_text(root, port), encoding="utf-8")
    isso = root / ".corpus-venv" / "bin" / "isso"
    os.execv(str(isso), [str(isso), "-c", str(path), "run"])


if __name__ == "__main__":
    main()
