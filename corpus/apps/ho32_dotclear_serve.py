"""Serve Dotclear on loopback for the corpus: point the blog's URLs at this port, run PHP's server.

Usage: ho32_dotclear_serve.py ROOT PORT. Dotclear writes absolute links from the blog URL (and the
public and theme URLs) kept in its database and from DC_ADMIN_URL in inc/config.php, all made by the
seed's install with a placeholder port; they must name the port it is served on. Then
`php -S 127.0.0.1:PORT` in the checkout (index.php for the blog, admin/ for the dashboard).
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import sys
from pathlib import Path

PLACEHOLDER = re.compile(r"http://127\.0\.0\.1:\d+")


def set_base(root: Path, base: str) -> None:
    config = root / "inc" / "config.php"
    config.write_text(PLACEHOLDER.sub(base, config.read_text(encoding="utf-8")), encoding="utf-8")
    con = sqlite3.connect(root / ".corpus-db" / "dotclear.sqlite")
    for blog_id, url in con.execute("SELECT blog_id, blog_url FROM dc_blog").fetchall():
        con.execute(
            "UPDATE dc_blog SET blog_url = ? WHERE blog_id = ?", (PLACEHOLDER.sub(base, url), blog_id)
        )
    rows = con.execute(
        "SELECT rowid, setting_value FROM dc_setting WHERE setting_value LIKE 'http://127.0.0.1:%'"
    )
    for rowid, value in rows.fetchall():
        con.execute(
            "UPDATE dc_setting SET setting_value = ? WHERE rowid = ?", (PLACEHOLDER.sub(base, value), rowid)
        )
    con.commit()
    con.close()


def main() -> None:
    root, port = Path(sys.argv[1]).resolve(), int(sys.argv[2])
    set_base(root, f"http://127.0.0.1:{port}")
    php = shutil.which("php") or "php"
    os.chdir(root)
    os.execv(php, [php, "-S", f"127.0.0.1:{port}", "-t", str(root)])


if __name__ == "__main__":
    main()
