"""Serve FluxBB for the corpus: `python ho9_fluxbb_serve.py ROOT PORT`.

FluxBB builds its redirects and some links from the board's base URL, a row of its config table
that the installer fills in; the seed runs before the corpus picks the port, so the row is set here,
the app's config cache emptied, and PHP's built-in server takes over this process."""

import os
import sqlite3
import sys
from pathlib import Path

root = Path(sys.argv[1])
port = sys.argv[2]
db = sqlite3.connect(root / "corpus-forum.sqlite")
db.execute("UPDATE fx_config SET conf_value=? WHERE conf_name='o_base_url'", (f"http://127.0.0.1:{port}",))
db.commit()
db.close()
for cache in (root / "cache").glob("cache_*.php"):
    cache.unlink()
os.execvp("php", ["php", "-S", f"127.0.0.1:{port}", "-t", str(root)])
