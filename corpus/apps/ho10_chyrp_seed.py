"""Seed Chyrp Lite for the corpus: install it on a fresh SQLite database and fill the blog.

Usage: ho10_chyrp_seed.py ROOT. Runs the app's own installer (install.php, through PHP's built-in
server on a free loopback port), logs in as the admin and enables the comments module the way the
admin's Modules page does (so its tables and settings are the module's own), then writes the blog's
rows straight into the database: three authors with websites,
48 text posts over four months (5 a page on the blog), 3-9 approved comments on most of them and a
few denied or spam ones that only the admin sees; one reader pasted a <script> into the
name field. Update checks are turned off (offline); the template cache is emptied first.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from datetime import datetime, timedelta
from pathlib import Path

ADMIN_PW = "corpus-admin-pw"
PASTED = "Vera <script>window.__chyrp_pwned = 1</script>"
"""a reader who pasted a script into the comment form's name field (entry 44, on the blog's first page)"""
WORDS = "alpine meadow river stone lantern harbor willow ember quiet orchard copper signal".split()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    db = root / "corpus-chyrp.db"
    config_path = root / "includes" / "config.json.php"
    for stale in (db, config_path):
        stale.unlink(missing_ok=True)
    # Twig's compiled templates outlive `git reset` (untracked) and are not re-checked against their
    # source: a clean build would serve the buggy build's templates
    for cache in (root / "includes" / "caches").glob("*/*"):
        if cache.name != ".gitignore":
            shutil.rmtree(cache) if cache.is_dir() else cache.unlink()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        ["php", "-S", f"127.0.0.1:{port}", "-t", str(root)],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

        def call(path: str, data: dict[str, str] | None = None) -> str:
            body = urllib.parse.urlencode(data).encode() if data is not None else None
            with opener.open(base + path, body, timeout=60) as answer:
                return answer.read().decode("utf-8", "replace")

        for _ in range(100):
            try:
                call("/install.php")
                break
            except OSError:
                time.sleep(0.1)
        done = call(
            "/install.php",
            {
                "install": "yes",
                "adapter": "sqlite",
                "database": str(db),
                "url": base,
                "name": "Field Notes",
                "description": "A corpus blog",
                "timezone": "UTC",
                "locale": "en_US",
                "login": "admin",
                "password1": ADMIN_PW,
                "password2": ADMIN_PW,
                "email": "admin@example.org",
            },
        )
        if "Installation Complete" not in done:
            raise SystemExit("seed: install.php did not complete")
        page = call("/?action=login")
        token = re.search(r'name="hash" value="([0-9a-f]+)"', page).group(1)
        call("/?action=login", {"login": "admin", "password": ADMIN_PW, "hash": token})
        page = call("/admin/?action=modules")
        token = re.search(r'name="hash" value="([0-9a-f]+)"', page).group(1)
        call("/admin/?action=enable", {"extension": "comments", "type": "module", "hash": token})
    finally:
        server.terminate()
        server.wait(timeout=10)

    text = config_path.read_text(encoding="utf-8")
    guard, body = text.split("?>", 1)
    config = json.loads(body)
    if "comments" not in config["enabled_modules"]:
        raise SystemExit("seed: the comments module was not enabled")
    config["check_updates"] = False
    config_path.write_text(guard + "?>\n" + json.dumps(config, indent=4), encoding="utf-8")

    con = sqlite3.connect(db)
    with con:
        now = datetime(2026, 11, 30, 12, 0, 0)
        member = con.execute("SELECT id FROM groups WHERE name = 'Member'").fetchone()
        group = member[0] if member else 2
        users = [1]
        con.execute(
            "UPDATE users SET full_name = 'Ada Admin', website = 'https://admin.example.org/' WHERE id = 1"
        )
        for login, full in (("june", "June Park"), ("mallory", "Mallory Stone")):
            cur = con.execute(
                "INSERT INTO users (login, password, full_name, email, website, group_id, approved, joined_at)"
                " VALUES (?, ?, ?, ?, ?, ?, 1, ?)",
                (
                    login,
                    "!",
                    full,
                    f"{login}@example.org",
                    f"https://{login}.example.org/",
                    group,
                    now.isoformat(" "),
                ),
            )
            users.append(cur.lastrowid)
        cols = [r[1] for r in con.execute("PRAGMA table_info(comments)")]
        for n in range(1, 49):
            when = now - timedelta(days=(48 - n) * 2, hours=n)
            title = f"{WORDS[n % 12].title()} {WORDS[(n * 5) % 12]} no. {n}"
            slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
            author = users[0] if n % 4 else users[1 + n % 2]
            cur = con.execute(
                "INSERT INTO posts (feather, clean, url, pinned, status, user_id, created_at, updated_at)"
                " VALUES ('text', ?, ?, 0, 'public', ?, ?, ?)",
                (slug, slug, author, when.isoformat(" "), when.isoformat(" ")),
            )
            post = cur.lastrowid
            body = f"<p>Entry {n}. " + " ".join(WORDS[(n + k) % 12] for k in range(30)) + ".</p>"
            con.executemany(
                "INSERT INTO post_attributes (post_id, name, value) VALUES (?, ?, ?)",
                [(post, "title", title), (post, "body", body), (post, "comment_status", "open")],
            )
            for c in range(n % 7 + (3 if n % 5 else 0)):
                status = "approved" if c % 6 != 5 else ("denied" if n % 2 else "spam")
                row = {
                    "body": f"<p>Comment {c + 1} on entry {n}: {WORDS[(n + c) % 12]} {WORDS[(n * c) % 12]}.</p>",
                    "author": ["Rosa", "Theo", "Imani", "Kenji"][c % 4] if (n, c) != (44, 2) else PASTED,
                    "author_url": "",
                    "author_email": f"reader{c % 4}@example.org",
                    "author_ip": "127.0.0.1",
                    "author_agent": "seed",
                    "status": status,
                    "post_id": post,
                    "user_id": 0,
                    "parent_id": 0,
                    "notify": 0,
                    "created_at": (when + timedelta(hours=c + 1)).isoformat(" "),
                    "updated_at": (when + timedelta(hours=c + 1)).isoformat(" "),
                }
                row = {k: v for k, v in row.items() if k in cols}
                con.execute(
                    f"INSERT INTO comments ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                    list(row.values()),
                )
    posts = con.execute("SELECT COUNT(*) FROM posts").fetchone()[0]
    comments = dict(con.execute("SELECT status, COUNT(*) FROM comments GROUP BY status").fetchall())
    print(f"seeded {posts} posts, comments {comments}")


if __name__ == "__main__":
    main()
