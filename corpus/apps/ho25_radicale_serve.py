"""Serve Radicale on loopback for the corpus: write its config for this port, then run it.

Usage: ho25_radicale_serve.py ROOT VENV_PYTHON PORT. The config (ours) uses the seed's plain
htpasswd file and collection store under ROOT/corpus-data, the built-in web interface at /.web/,
owner-only rights, and logs warnings only.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

CONFIG = """[server]
hosts = 127.0.0.1:{port}
[auth]
type = htpasswd
htpasswd_filename = {data}/users
htpasswd_encryption = plain
delay = 0
[rights]
type = owner_only
[storage]
filesystem_folder = {data}/collections
[web]
type = internal
[logging]
level = warning
"""


def main() -> None:
    root, python, port = Path(sys.argv[1]).resolve(), sys.argv[2], int(sys.argv[3])
    data = root / "corpus-data"
    config = data / "radicale.conf"
    config.write_text(CONFIG.format(port=port, data=data), encoding="utf-8")
    os.execv(python, [python, "-m", "radicale", "--config", str(config)])


if __name__ == "__main__":
    main()
