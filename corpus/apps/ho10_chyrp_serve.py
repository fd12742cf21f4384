"""Serve Chyrp Lite on loopback for the corpus: point its configured URL at this port, run PHP's server.

Usage: ho10_chyrp_serve.py ROOT PORT. Chyrp writes absolute links from the `url`/`chyrp_url` of its
config (includes/config.json.php, made by the seed's install), so they must name the port it is
served on; then `php -S 127.0.0.1:PORT` in the checkout (index.php, admin/, ajax/ and static files).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

GUARD = '<?php header("Status: 403"); exit("Access denied."); ?>\n'


def set_url(root: Path, base: str) -> None:
    path = root / "includes" / "config.json.php"
    config = json.loads(path.read_text(encoding="utf-8").split("?>", 1)[1])
    config["url"] = config["chyrp_url"] = base
    path.write_text(GUARD + json.dumps(config, indent=4), encoding="utf-8")


def main() -> None:
    root, port = Path(sys.argv[1]).resolve(), int(sys.argv[2])
    set_url(root, f"http://127.0.0.1:{port}")
    php = shutil.which("php") or "php"
    os.chdir(root)
    os.execv(php, [php, "-S", f"127.0.0.1:{port}", "-t", str(root)])


if __name__ == "__main__":
    main()
