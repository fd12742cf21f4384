"""Seed weblogin (bernie-skipole/weblogin: Litestar + Mako + htmx) for the corpus: a fresh
`users.sqlite` in the checkout (the folder the app is started from, where it looks for its database),
written as the app's own `userdata` module writes it (scrypt hashes, its table), with the admin
(admin / corpus-admin-pw) and 49 more accounts, so the user table runs to exactly five pages of ten: two
imported without a full name, one whose full name holds a pasted `<script>`. Usage:
ho31_weblogin_seed.py ROOT.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from hashlib import scrypt
from pathlib import Path

PASSWORD = "corpus-admin-pw"
FIRST = [
    "Ada",
    "Brian",
    "Chloe",
    "Dmitri",
    "Elena",
    "Farid",
    "Greta",
    "Hugo",
    "Ines",
    "Jonas",
    "Kira",
    "Luca",
]
LAST = ["Moreau", "Novak", "Okafor", "Petrov", "Quinn", "Rossi", "Sato", "Tanaka"]


def _hash(password: str, salt: bytes) -> bytes:
    # the parameters of userdata.py: a login compares against exactly this
    return scrypt(password=password.encode(), salt=salt, n=2048, r=8, p=1, maxmem=0, dklen=64)


def main(root: Path) -> None:
    db = root / "users.sqlite"
    db.unlink(missing_ok=True)
    rows: list[tuple[str, str, str | None]] = [("admin", "admin", "Default Administrator")]
    for n in range(47):
        first, last = FIRST[n % len(FIRST)], LAST[(n * 5) % len(LAST)]
        rows.append((f"{first.lower()}{n + 10}", "user", f"{first} {last}"))
    # accounts imported from an older system, whose full name was never set
    rows.append(("import71", "user", None))
    rows.append(("import72", "user", None))
    rows[17] = (rows[17][0], "user", "Bo <script>window.xss=1</script>")
    con = sqlite3.connect(db)
    with con:
        con.execute(
            "CREATE TABLE users(username TEXT PRIMARY KEY, password TEXT NOT NULL, auth TEXT NOT NULL,"
            " salt TEXT NOT NULL, fullname TEXT) WITHOUT ROWID"
        )
        for username, auth, fullname in rows:
            salt = os.urandom(16)
            password = PASSWORD if username == "admin" else f"pw-{username}!"
            con.execute(
                "INSERT INTO users VALUES(?, ?, ?, ?, ?)",
                (username, _hash(password, salt), auth, salt, fullname),
            )
    con.close()
    for old in root.glob("2*.sqlite"):
        old.unlink()  # backups a previous build made


if __name__ == "__main__":
    main(Path(sys.argv[1]))
