"""Seed Tiny File Manager (held-out set 26): a fresh file tree, a config and one throwaway account.

Usage: ho26_tinyfm_seed.py ROOT. Writes ROOT/config.php (the app's own override file, read by
tinyfilemanager.php when present), ROOT/.corpus-site/index.php (the document root php -S serves,
which runs the checkout's tinyfilemanager.php) and ROOT/.corpus-site/files (the managed tree).
"""

from __future__ import annotations

import io
import os
import shutil
import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

PASSWORD = "corpus-alice-pw"  # noqa: S105 - throwaway account of a disposable build


def _png(width: int, height: int, shade: int) -> bytes:
    """A tiny valid grey PNG, so the image view can read its size."""
    row = b"\x00" + bytes([shade]) * width
    raw = row * height

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def _zip(entries: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in entries.items():
            archive.writestr(name, text)
    return buf.getvalue()


def _hash(password: str) -> str:
    out = subprocess.run(
        ["php", "-r", "echo password_hash($argv[1], PASSWORD_DEFAULT);", password],
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


def main(root: Path) -> None:
    site = root / ".corpus-site"
    if site.exists():
        shutil.rmtree(site)
    files = site / "files"
    files.mkdir(parents=True)
    (site / "index.php").write_text("<?php\nrequire dirname(__DIR__) . '/tinyfilemanager.php';\n")
    (root / "config.php").write_text(
        "<?php\n"
        "$use_auth = true;\n"
        f"$auth_users = array('alice' => '{_hash(PASSWORD)}', 'bob' => '{_hash('corpus-bob-pw')}');\n"
        "$readonly_users = array('bob');\n"
        f"$root_path = '{files}';\n"
        "$root_url = 'files';\n"
        "$online_viewer = false;\n"
        "$use_highlightjs = false;\n"
        "$default_timezone = 'Etc/UTC';\n"
    )
    os.utime(files, (1_700_000_000, 1_700_000_000))

    # Reports: 14 meeting notes and 12 reports, plain text and markdown.
    reports = files / "reports"
    reports.mkdir()
    for n in range(1, 15):
        (reports / f"meeting-2024-{n:02d}.txt").write_text(
            f"Minutes of meeting {n}\nAttendees: alice, bob, carol\nAction items: {n % 4 + 1}\n"
        )
    for n in range(1, 13):
        (reports / f"quarterly-{2021 + n // 4}-q{n % 4 + 1}.md").write_text(
            f"# Quarterly report {n}\n\nRevenue grew by {n * 3}%.\n"
        )
    (reports / ".~lock.quarterly-2024-q1.md#").write_text("alice,laptop,01.02.2024 10:00\n")
    # A note a visitor pasted: the text view must show it as text.
    (reports / "pasted-snippet.txt").write_text(
        "Copied from the old wiki:\n<script>alert('pasted')</script>\nend of snippet\n"
    )

    photos = files / "photos"
    photos.mkdir()
    (photos / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    for n in range(1, 19):
        (photos / f"IMG_{1000 + n}.png").write_bytes(_png(8 + n, 6 + n, 40 + n * 9))
    for album in ("holiday-2023", "office-party"):
        sub = photos / album
        sub.mkdir()
        for n in range(1, 7):
            (sub / f"{album}-{n:02d}.png").write_bytes(_png(10, 10, 100 + n * 10))

    archives = files / "archives"
    archives.mkdir()
    for n in range(1, 7):
        (archives / f"backup-{n:02d}.zip").write_bytes(
            _zip(
                {f"data/part-{k}.csv": f"id,value\n{k},{k * n}\n" for k in range(1, n + 2)}
                | {"README.txt": "backup"}
            )
        )
    (archives / "empty-export.zip").write_bytes(_zip({}))

    code = files / "projects" / "website"
    code.mkdir(parents=True)
    (code / "index.html").write_text("<!doctype html><title>Site</title><p>Hello</p>\n")
    (code / "style.css").write_text("body { font-family: sans-serif; }\n")
    (code / "app.js").write_text("document.title = 'Site';\n")
    (code / "notes.txt").write_text("TODO: ship the site\n")
    (files / "projects" / "scripts").mkdir()
    for n in range(1, 9):
        (files / "projects" / "scripts" / f"task_{n}.py").write_text(f"print('task {n}')\n")

    for n in range(1, 11):
        (files / f"todo-{n:02d}.txt").write_text(f"Item {n}: call the supplier\n")
    (files / "README.md").write_text("# Shared drive\n\nTeam files live here.\n")
    (files / "contacts.csv").write_text("name,phone\nalice,555-0101\nbob,555-0102\n")
    for path in files.rglob("*"):
        if path.is_file():
            path.chmod(0o644)


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
