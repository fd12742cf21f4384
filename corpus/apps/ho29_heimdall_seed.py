"""Seed Heimdall (Laravel 10, SQLite) for the corpus: a fresh `.env`, a freshly migrated
`database/app.sqlite` (the app's own migrations and seeders, through `php artisan`), then the admin's
password, 9 tags (two of them in the trash), 58 application links (three in the trash), one of them a
pasted `<script>` in its title, each linked to one or two tags. Usage: ho29_heimdall_seed.py ROOT.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

PASSWORD = "corpus-admin-pw"
# A fixed key: the database is fresh every build and nothing outlives it.
APP_KEY = "base64:Y29ycHVzLWhlaW1kYWxsLWtleS0zMi1ieXRlcy0hISE="
TAGS = ["Media", "Network", "Monitoring", "Storage", "Home", "Dev Tools", "Backups"]
TRASHED_TAGS = ["Old Stuff", "Testing"]
WORDS = [
    "Plex",
    "Sonarr",
    "Radarr",
    "Grafana",
    "Pi-hole",
    "Portainer",
    "Nextcloud",
    "Gitea",
    "Jellyfin",
    "Syncthing",
    "Home Assistant",
    "Node-RED",
    "Prometheus",
    "Traefik",
    "Unifi",
    "Bitwarden",
    "Paperless",
    "Miniflux",
    "Calibre",
    "Duplicati",
    "Restic",
    "Minio",
    "Wiki",
    "Bookstack",
    "Uptime",
    "Netdata",
    "Transmission",
    "Tautulli",
    "Ombi",
]


def main(root: Path) -> None:
    env = (root / ".env.example").read_text()
    env = env.replace("APP_KEY=\n", f"APP_KEY={APP_KEY}\n").replace("LOG_CHANNEL=daily", "LOG_CHANNEL=single")
    (root / ".env").write_text(env)
    db = root / "database" / "app.sqlite"
    db.unlink(missing_ok=True)
    db.touch()
    sessions = root / "storage" / "framework" / "sessions"
    if sessions.is_dir():
        for f in sessions.iterdir():
            if f.name != ".gitignore":
                f.unlink()
    shutil.rmtree(root / "storage" / "framework" / "cache" / "data", ignore_errors=True)
    subprocess.run(
        ["php", "artisan", "migrate", "--force", "--seed"], cwd=root, check=True, stdout=subprocess.DEVNULL
    )
    hashed = subprocess.run(
        ["php", "-r", f"echo password_hash('{PASSWORD}', PASSWORD_BCRYPT);"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    con = sqlite3.connect(db)
    now = "2026-12-01 10:00:00"
    con.execute("UPDATE users SET password = ?, public_front = 1 WHERE id = 1", (hashed,))
    tag_ids = []
    for n, title in enumerate(TAGS + TRASHED_TAGS):
        slug = title.lower().replace(" ", "-")
        deleted = now if title in TRASHED_TAGS else None
        cur = con.execute(
            'INSERT INTO items (title, colour, url, pinned, "order", type, user_id, deleted_at, created_at,'
            " updated_at) VALUES (?, ?, ?, ?, ?, 1, 1, ?, ?, ?)",
            (title, f"#{(n * 37) % 256:02x}5a7b", slug, 1 if n % 2 == 0 else 0, n, deleted, now, now),
        )
        if deleted is None:
            tag_ids.append(cur.lastrowid)
    for n in range(58):
        word = WORDS[n % len(WORDS)]
        title = word if n < len(WORDS) else f"{word} {n // len(WORDS) + 1}"
        if n == 17:
            title = "Status <script>window.corpusXss=1</script> board"
        deleted = now if n in (40, 47, 53) else None
        cur = con.execute(
            'INSERT INTO items (title, colour, url, appdescription, pinned, "order", type, user_id, deleted_at,'
            " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, 1, ?, ?, ?)",
            (
                title,
                f"#2{n % 10}4a6b",
                f"https://app{n}.home.example/",
                f"{title} on the home server",
                1 if n % 3 else 0,
                n,
                deleted,
                now,
                now,
            ),
        )
        item = cur.lastrowid
        tags = {tag_ids[n % len(tag_ids)]}
        if n % 4 == 0:
            tags.add(tag_ids[(n // 4) % len(tag_ids)])
        for tag in sorted(tags):
            con.execute(
                "INSERT INTO item_tag (item_id, tag_id, created_at, updated_at) VALUES (?, ?, ?, ?)",
                (item, tag, now, now),
            )
        # Heimdall puts every pinned item on the home dashboard (tag 0) as well.
        con.execute(
            "INSERT INTO item_tag (item_id, tag_id, created_at, updated_at) VALUES (?, 0, ?, ?)",
            (item, now, now),
        )
    con.commit()
    con.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
