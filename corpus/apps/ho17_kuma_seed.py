"""Seed the corpus's Uptime Kuma (ours, not Uptime Kuma's): `ho17_kuma_seed.py ROOT`.

A fresh data folder `ROOT/.corpus-data/` each time. The schema is Uptime Kuma's own: the first seed of a
checkout starts the server once on a free loopback port over an empty data folder (its template
database plus its migrations), stops it when it says it needs a user, and keeps the database as
`ROOT/.corpus-kuma-schema.db`; every seed copies that and writes straight into SQLite:

- the admin user `admin` / `corpus-admin-pw` (bcrypt through the checkout's own bcryptjs);
- 34 monitors: two groups (Production, Staging) and 32 checks (HTTP, keyword, TCP port, ping, DNS,
  push) with Markdown descriptions on some, one description pasting an `<img onerror>`; every one
  paused, every address on 127.0.0.1, so nothing is ever checked or sent;
- tags `production`, `region` (eu/us values; three monitors carry it twice, once per region) and
  `team`, only on monitors outside the groups;
- 110 important heartbeats (status changes with messages) spread over the checks — the dashboard's
  event table pages at 25 — 31 of them on "Billing API" (its own table pages too), plus quiet beats;
- one HTTPS check whose stored TLS info is in the format versions before 1.8 saved;
- settings: the update check off.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

PASSWORD = "corpus-admin-pw"
NOW = datetime.now(UTC).replace(microsecond=0)

CHECKS = [
    # name, type, group, description
    ("Billing API", "http", "Production", "Charges, refunds and invoices.\n\nOwner: **payments team**."),
    ("Checkout web", "keyword", "Production", None),
    ("Customer portal", "http", "Production", "The customers' self-service site."),
    ("Search service", "http", "Production", None),
    ("Auth gateway", "https", "Production", "Single sign-on for every internal tool."),
    ("Orders DB", "port", "Production", None),
    ("Payments queue", "port", "Production", None),
    ("CDN edge (eu)", "ping", "Production", None),
    ("CDN edge (us)", "ping", "Production", None),
    (
        "Mail relay",
        "port",
        "Production",
        "Outgoing mail. Pasted from the runbook: <img src=x onerror=\"alert('kuma-xss')\">",
    ),
    ("Status page", "http", "Production", None),
    ("Reports export", "push", "Production", "Nightly export job; pushes when it finishes."),
    ("Staging API", "http", "Staging", None),
    ("Staging web", "keyword", "Staging", None),
    ("Staging DB", "port", "Staging", None),
    ("Staging worker", "push", "Staging", None),
    ("Internal wiki", "http", None, "The team wiki."),
    ("Issue tracker", "http", None, None),
    ("CI runners", "push", None, "Build agents report every five minutes."),
    ("Backup job", "push", None, None),
    ("VPN endpoint", "port", None, None),
    ("DNS resolver", "dns", None, None),
    ("Office printer", "ping", None, None),
    ("Metrics store", "port", None, None),
    ("Log shipper", "push", None, None),
    ("Feature flags", "http", None, None),
    ("Image resizer", "http", None, "Thumbnails for the shop."),
    ("Webhooks out", "http", None, None),
    ("Cron host", "ping", None, None),
    ("Cache cluster", "port", None, None),
    ("Docs site", "keyword", None, None),
    ("Sandbox", "http", None, None),
]
TAGS = [("production", "#059669"), ("region", "#2563EB"), ("team", "#D97706")]
MESSAGES_DOWN = (
    "connect ECONNREFUSED 127.0.0.1:9",
    "timeout of 48000ms exceeded",
    "Request failed with status code 503",
    "No heartbeat in the time window",
    "getaddrinfo ENOTFOUND",
)
MESSAGES_UP = ("200 - OK", "Connection established", "Keyword found", "OK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_schema(root: Path, schema: Path) -> None:
    """Start the server once over an empty data folder and keep the database its migrations made."""
    data = root / ".corpus-schema-data"
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir()
    (data / "db-config.json").write_text('{"type": "sqlite"}', encoding="utf-8")
    log_path = data / "server.log"
    with open(log_path, "w", encoding="utf-8") as log:
        server = subprocess.Popen(
            ["node", "server/server.js", f"--data-dir={data}/", f"--port={free_port()}", "--host=127.0.0.1"],
            cwd=root,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 600
        while "need setup" not in log_path.read_text(encoding="utf-8", errors="replace"):
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"Uptime Kuma did not migrate a database: see {log_path}")
            time.sleep(1)
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=60)
    source = sqlite3.connect(data / "kuma.db")
    target = sqlite3.connect(schema)
    source.backup(target)
    source.close()
    target.close()
    shutil.rmtree(data, ignore_errors=True)


def bcrypt_hash(root: Path, password: str) -> str:
    script = "process.stdout.write(require('bcryptjs').hashSync(process.argv[1], 10))"
    return subprocess.run(
        ["node", "-e", script, password], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S.000")


def check_fields(n: int, kind: str) -> dict[str, object]:
    port = 9000 + n
    if kind in ("http", "keyword"):
        fields: dict[str, object] = {"type": kind, "url": f"http://127.0.0.1:{port}/health"}
        if kind == "keyword":
            fields["keyword"] = "ok"
        return fields
    if kind == "https":
        return {"type": "http", "url": f"https://127.0.0.1:{port}/"}
    if kind == "port":
        return {"type": "port", "hostname": "127.0.0.1", "port": port}
    if kind == "ping":
        return {"type": "ping", "hostname": "127.0.0.1"}
    if kind == "dns":
        return {"type": "dns", "hostname": "localhost", "dns_resolve_server": "127.0.0.1", "port": 53}
    return {"type": "push", "push_token": f"corpus{n:02d}token{n * 7919 % 10000:04d}"}


def insert(db: sqlite3.Connection, table: str, row: dict[str, object]) -> int:
    columns = ", ".join(f'"{c}"' for c in row)
    marks = ", ".join("?" for _ in row)
    cursor = db.execute(f'INSERT INTO "{table}" ({columns}) VALUES ({marks})', list(row.values()))
    return int(cursor.lastrowid or 0)


def fill(db: sqlite3.Connection, password_hash: str) -> None:
    insert(
        db, "user", {"id": 1, "username": "admin", "password": password_hash, "active": 1, "timezone": "UTC"}
    )
    insert(db, "setting", {"key": "checkUpdate", "value": "false", "type": "general"})
    created = stamp(NOW - timedelta(days=40))
    groups = {}
    for name in ("Production", "Staging"):
        groups[name] = insert(
            db,
            "monitor",
            {
                "name": name,
                "type": "group",
                "active": 0,
                "user_id": 1,
                "interval": 60,
                "created_date": created,
            },
        )
    tag_ids = {name: insert(db, "tag", {"name": name, "color": color}) for name, color in TAGS}
    heartbeats = 0
    for n, (name, kind, group, description) in enumerate(CHECKS):
        row = {
            "name": name,
            "active": 0,
            "user_id": 1,
            "interval": 60,
            "retry_interval": 60,
            "maxretries": 0,
            "created_date": created,
            "parent": groups.get(group) if group else None,
            "description": description,
            **check_fields(n, kind),
        }
        monitor_id = insert(db, "monitor", row)
        # tags only on monitors outside the groups: the list shows a group, collapsed, for a child that
        # matches a filter, so a tagged child would make the app's own count differ from the rows
        if group is None and n % 2 == 0:
            insert(
                db, "monitor_tag", {"monitor_id": monitor_id, "tag_id": tag_ids["production"], "value": ""}
            )
        if group is None and n % 3 == 0:
            insert(db, "monitor_tag", {"monitor_id": monitor_id, "tag_id": tag_ids["region"], "value": "eu"})
        if n in (18, 24, 30):
            insert(db, "monitor_tag", {"monitor_id": monitor_id, "tag_id": tag_ids["region"], "value": "us"})
        if group is None and n % 4 == 1:
            team = ("payments", "platform", "web")[n % 3]
            insert(db, "monitor_tag", {"monitor_id": monitor_id, "tag_id": tag_ids["team"], "value": team})
        if kind == "https":
            old_format = {"valid": True, "validTo": stamp(NOW + timedelta(days=26)), "daysRemaining": 26}
            insert(db, "monitor_tls_info", {"monitor_id": monitor_id, "info_json": json.dumps(old_format)})
        # status changes (important beats) going back from two hours ago, one every 37 minutes
        changes = 31 if n == 0 else 1 + (n * 5) % 4
        moment = NOW - timedelta(hours=2)
        for k in range(changes):
            down = (changes - k) % 2 == 0
            status = 0 if down else 1
            messages = MESSAGES_DOWN if down else MESSAGES_UP
            beat = {
                "monitor_id": monitor_id,
                "status": status,
                "important": 1,
                "msg": messages[(n + k) % len(messages)],
                "time": stamp(moment - timedelta(minutes=37 * k + n)),
                "ping": None if down else 20 + (n * 13 + k * 7) % 180,
                "duration": 60,
            }
            insert(db, "heartbeat", beat)
            heartbeats += 1
        for k in range(1, 6):  # quiet beats after the last change
            last_up = (changes % 2) == 1
            insert(
                db,
                "heartbeat",
                {
                    "monitor_id": monitor_id,
                    "status": 1 if last_up else 0,
                    "important": 0,
                    "msg": "" if last_up else MESSAGES_DOWN[0],
                    "time": stamp(moment + timedelta(minutes=k)),
                    "ping": 25 + k if last_up else None,
                    "duration": 60,
                },
            )
    if heartbeats < 60:
        raise SystemExit(f"only {heartbeats} important heartbeats: the dashboard would not page")


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    schema = root / ".corpus-kuma-schema.db"
    if not schema.is_file():
        make_schema(root, schema)
    data = root / ".corpus-data"
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir()
    (data / "db-config.json").write_text('{"type": "sqlite"}', encoding="utf-8")
    shutil.copyfile(schema, data / "kuma.db")
    db = sqlite3.connect(data / "kuma.db")
    with db:
        fill(db, bcrypt_hash(root, PASSWORD))
    db.close()


if __name__ == "__main__":
    main()
