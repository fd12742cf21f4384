"""Seed the corpus's Yancy: the test application reads its whole database (Yancy's memory backend)
from `eg/test-app/yancy.data.json` when it starts, so a fresh file is a fresh database.

64 people (the editor shows 25 a page: three pages; the public /people table its first 10), a few
blog posts, and the accounts of the password login (Yancy's SHA-1 digest: base64 without padding,
then `$SHA-1`); the explorer logs in as `admin` / `corpus-admin-pw`. One person's name holds a pasted
`<script>` (id 12: the public table's first ten, ids sorted as text, show it), one was imported with
a day/month/year birthday. Usage: ho12_yancy_seed.py ROOT
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from pathlib import Path

FIRST = [
    "Ada",
    "Bram",
    "Cleo",
    "Dmitri",
    "Edda",
    "Farid",
    "Greta",
    "Hugo",
    "Ines",
    "Jonas",
    "Kaia",
    "Lars",
    "Mira",
    "Nils",
    "Olga",
    "Pavel",
]
LAST = ["Quist", "Rowan", "Sato", "Tamm"]


def digest(password: str) -> str:
    return base64.b64encode(hashlib.sha1(password.encode()).digest()).decode().rstrip("=") + "$SHA-1"


def people() -> dict[str, dict[str, object]]:
    rows: dict[str, dict[str, object]] = {}
    for n in range(1, 65):
        first, last = FIRST[(n - 1) % len(FIRST)], LAST[(n - 1) // len(FIRST)]
        row: dict[str, object] = {
            "id": n,
            "name": f"{first} {last}",
            "email": f"{first.lower()}.{last.lower()}@example.org",
            "age": 20 + (n * 7) % 50,
            "contact": n % 3 != 0,
        }
        if n % 4 == 0:
            row["phone"] = f"+1 555 01{n:02d}"
        if n % 5 == 0:
            row["birthday"] = f"19{60 + n % 40}-0{1 + n % 9}-1{n % 10}"
        if n % 2 == 0:
            row["gender"] = "female" if n % 4 == 0 else "male"
        rows[str(n)] = row
    rows["12"]["name"] = 'Lars Quist<script>document.title="owned"</script>'
    rows["23"]["birthday"] = "15/08/1985"  # an import kept its day/month/year
    return rows


def blog() -> dict[str, dict[str, object]]:
    posts: dict[str, dict[str, object]] = {}
    for n in range(1, 9):
        posts[str(n)] = {
            "id": n,
            "title": f"Release notes {n}",
            "markdown": f"# Release notes {n}\n\nWhat changed in release {n}.",
            "html": f"<h1>Release notes {n}</h1>\n<p>What changed in release {n}.</p>",
            "slug": f"release-notes-{n}",
            "username": "admin",
        }
    return posts


def users() -> dict[str, dict[str, object]]:
    accounts = {"admin": "corpus-admin-pw", "editor": "corpus-editor-pw", "viewer": "corpus-viewer-pw"}
    return {
        name: {
            "username": name,
            "email": f"{name}@example.org",
            "created": "2026-11-02 09:00:00",
            "password": digest(password),
        }
        for name, password in accounts.items()
    }


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    data = {"blog": blog(), "people": people(), "users": users()}
    (root / "eg" / "test-app" / "yancy.data.json").write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()
