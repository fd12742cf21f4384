"""Seed the IF Archive admin tool for the corpus: a fresh archive tree, database and activity log.

Usage: ho25_ifadmin_seed.py ROOT. Everything goes under ROOT/corpus-data (the checkout's own
files are untouched): the config file the app reads (IFARCHIVE_CONFIG), the incoming, trash and
archive directories with Index files, the SQLite database made by the app's own `createdb` and
`adduser` commands, 46 upload records (three pages of 20 in the upload log) and 130 lines of
activity log (three pages of 50). Accounts: alice (admin, time zone Europe/London, password
corpus-alice-pw; the explorer's), bob (incoming,index), carol (filing), dave (log).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

CONFIG = """[DEFAULT]
IncomingDir = {data}/incoming
TrashDir    = {data}/trash
ArchiveDir  = {data}/htdocs/if-archive
DBFile = {data}/admin.db
IFDBIdMapFile = {data}/ifids
MaxIncomingDirSize = 1073741824
IFDBCommitKey = corpus-none
UnboxRefreshKey = corpus-none
SecureSite = false

[AdminTool]
AppRoot = /admin
AppCSSURI = /misc/admintool.css
TemplateDir = {root}/templates
LogFile = {data}/admintool.log
BuildScriptFile = /bin/true
BuildLockFile = {data}/htdocs/build.lock
BuildOutputFile = {data}/htdocs/build.out
UncacheScriptFile = /bin/true
SudoScripts = false
MaxSessionAge = 864000
MaxTrashAge = 2592000
"""

USERS = [
    ("alice", "alice@corpus.example", "corpus-alice-pw", "admin"),
    ("bob", "bob@corpus.example", "corpus-bob-pw", "incoming,index"),
    ("carol", "carol@corpus.example", "corpus-carol-pw", "filing"),
    ("dave", "dave@corpus.example", "corpus-dave-pw", "log"),
]

GAMES = [
    "lantern",
    "harbour",
    "orchard",
    "quarry",
    "bellows",
    "cistern",
    "meadow",
    "foundry",
    "granary",
    "tollgate",
    "sluice",
    "mill",
]
DONORS = ["Ann Vole", "Ben Otter", "Cy Heron", "Di Wren", "Ed Stoat"]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def index_text(title: str, names: list[str]) -> str:
    lines = [f"{title}\n", ""]
    for name in names:
        lines += [f"# {name}", f"The {name.split('.')[0]} adventure, a short interactive fiction.", ""]
    return "\n".join(lines) + "\n"


def build_tree(data: Path) -> list[Path]:
    arch = data / "htdocs" / "if-archive"
    for sub in ("incoming", "trash", "htdocs/if-archive/unprocessed"):
        (data / sub).mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    for folder, ext in (("games/zcode", "z5"), ("games/glulx", "ulx"), ("games/tads", "gam")):
        names = [f"{game}.{ext}" for game in GAMES]
        for name in names:
            files.append(write(arch / folder / name, f"{folder}/{name} story file\n" * 30))
        write(arch / folder / "Index", index_text(f"Games for the {folder.split('/')[1]} system.", names))
    write(arch / "games" / "Index", "Games, sorted by the system they run on.\n\n")
    write(arch / "info" / "README.txt", "About the archive.\n" * 10)
    write(arch / "info" / "Index", index_text("Information about the archive.", ["README.txt"]))
    for n, game in enumerate(GAMES[:7]):
        files.append(write(data / "incoming" / f"{game}-{n + 2}.zip", f"upload {game} {n}\n" * 40))
    for n, game in enumerate(GAMES[:5]):
        files.append(write(arch / "unprocessed" / f"{game}-release{n + 1}.zip", f"release {game}\n" * 50))
    # Files nobody uploaded through the form (put there by an admin): no upload record.
    write(data / "incoming" / "mirror-notes.txt", "notes copied in by hand\n")
    write(arch / "unprocessed" / "catalogue.txt", "catalogue copied in by hand\n")
    write(data / "trash" / "old-listing.txt", "an old listing\n")
    # An upload unpacked in place by a volunteer: a folder the file lists leave out.
    write(arch / "unprocessed" / "lantern-src" / "lantern.inf", "source\n")
    return files


def seed_db(root: Path, data: Path, env: dict[str, str], files: list[Path]) -> None:
    wsgi = str(root / "admin.wsgi")
    run = [sys.executable, wsgi]
    subprocess.run([*run, "createdb"], check=True, env=env, cwd=root, capture_output=True)
    for name, email, pw, roles in USERS:
        subprocess.run(
            [*run, "adduser", name, email, pw, "--roles", roles],
            check=True,
            env=env,
            cwd=root,
            capture_output=True,
        )
    db = sqlite3.connect(data / "admin.db")
    db.execute("UPDATE users SET tzname = 'Europe/London' WHERE name = 'alice'")
    now = time.time()
    rows = []
    for n in range(46):
        path = files[n % len(files)]
        body = path.read_bytes()
        md5 = hashlib.md5(body).hexdigest()
        donor = DONORS[n % len(DONORS)]
        about = f"Release {n + 1} of {path.stem}; fixes from the beta testers."
        if n == 3:
            about = "Story file, please file it. <script>alert('upload-note')</script>"
        suggest = "games/" + ("zcode", "glulx", "tads")[n % 3]
        rows.append(
            (
                now - 3600 * (n + 1),
                md5,
                len(body),
                path.name,
                path.name,
                donor,
                donor.split()[0].lower() + "@uploads.example",
                "127.0.0.1",
                "corpus",
                "author" if n % 2 else "tried",
                suggest,
                None,
                about,
                None,
                None,
            )
        )
    db.executemany("INSERT INTO uploads VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    db.commit()
    db.close()


def seed_log(data: Path) -> None:
    lines = []
    stamp = time.time() - 86400
    for n in range(130):
        when = time.strftime("%b-%d %H:%M:%S", time.gmtime(stamp + 60 * n))
        who = USERS[n % len(USERS)][0]
        lines.append(
            f'[I {when}] (user {who}) Moved "{GAMES[n % len(GAMES)]}-{n}.zip" from /incoming to /unprocessed'
        )
    write(data / "admintool.log", "\n".join(lines) + "\n")


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    data = root / "corpus-data"
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir()
    config = write(data / "ifarch.config", CONFIG.format(data=data, root=root))
    files = build_tree(data)
    seed_log(data)
    env = {**os.environ, "IFARCHIVE_CONFIG": str(config)}
    seed_db(root, data, env, files)


if __name__ == "__main__":
    main()
