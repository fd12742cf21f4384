"""Seed Datasette with a lending library: a fresh SQLite file and the metadata (facets, labels, the
login's password hash, the private table's permission).

Usage: python ho6_datasette_seed.py ROOT   (ROOT = the datasette checkout; writes
ROOT/library.db and ROOT/corpus-metadata.json)

Public tables: genres (8), publishers (7, one new imprint with no name and no books yet), authors (24)
and books (96: five pages of 20, faceted by genre and publisher). The members table (46: three
pages) and the branches table (5) are visible to alice only (login `alice` / `corpus-alice-pw`
through datasette-auth-passwords). One member's notes hold a `<script>` pasted from an email; one
branch, opened last month, has no name yet.
"""

import json
import sqlite3
import sys
from pathlib import Path

GENRES = ["Fiction", "Poetry", "History", "Science", "Travel", "Cookery", "Drama", "Children"]
PUBLISHERS = ["Harbour Press", "Lantern Books", "Northgate", "Quill & Vane", "Redfern", "Saltmarsh"]
BRANCHES = ["Central", "Riverside", "Hillcrest", "Old Town"]
FIRST = ["Ada", "Ben", "Cleo", "Dev", "Esme", "Finn", "Gus", "Hana", "Ivo", "Jun", "Kit", "Lena"]
LAST = ["Morrow", "Nash", "Okafor", "Pryce", "Quint", "Rook", "Sato", "Tull", "Underhill", "Vale"]
PASTED = "Asked to be called back. Pasted from her email: <script>document.title='pwned'</script> thanks"


def build(path: Path) -> None:
    path.unlink(missing_ok=True)
    con = sqlite3.connect(path)
    con.executescript(
        """
        create table genres (id integer primary key, name text not null);
        create table publishers (id integer primary key, name text, city text);
        create table authors (id integer primary key, name text not null, born integer);
        create table books (
            id integer primary key, title text not null,
            author_id integer references authors(id), genre_id integer references genres(id),
            publisher_id integer references publishers(id), year integer, pages integer
        );
        create table branches (id integer primary key, name text, opened text);
        create table members (
            id integer primary key, name text not null, email text,
            branch_id integer references branches(id), joined text, notes text
        );
        """
    )
    con.executemany("insert into genres values (?, ?)", enumerate(GENRES, 1))
    cities = ["Leeds", "Bristol", "York", "Bath", "Hull", "Derby"]
    con.executemany(
        "insert into publishers values (?, ?, ?)",
        [(i, name, cities[i - 1]) for i, name in enumerate(PUBLISHERS, 1)] + [(7, None, "Exeter")],
    )
    con.executemany(
        "insert into authors values (?, ?, ?)",
        [(i, f"{FIRST[i % 12]} {LAST[i % 10]}", 1920 + 3 * i) for i in range(1, 25)],
    )
    books = []
    for i in range(1, 97):
        publisher = i % 6 + 1
        books.append(
            (
                i,
                f"The {['Quiet', 'Long', 'Salt', 'Paper', 'Iron', 'Glass'][i % 6]} "
                f"{['River', 'House', 'Garden', 'Winter', 'Road', 'Lamp', 'Harbour', 'Orchard'][i % 8]} "
                f"{'ABCDEFGHIJKL'[i % 12]}{i}",
                i % 24 + 1,
                (i * 5) % 8 + 1,
                publisher,
                1950 + i % 70,
                120 + (i * 37) % 500,
            )
        )
    con.executemany("insert into books values (?, ?, ?, ?, ?, ?, ?)", books)
    con.executemany(
        "insert into branches values (?, ?, ?)",
        [(i, name, f"19{60 + i * 7}-04-01") for i, name in enumerate(BRANCHES, 1)]
        + [(5, None, "2026-11-02")],
    )
    members = []
    for i in range(1, 47):
        name = f"{FIRST[(i * 7) % 12]} {LAST[(i * 3) % 10]}"
        branch = 5 if i == 33 else i % 4 + 1
        notes = PASTED if i == 7 else ("Prefers large print." if i % 9 == 0 else None)
        members.append(
            (
                i,
                name,
                f"{name.split()[0].lower()}{i}@members.example",
                branch,
                f"20{10 + i % 15}-0{i % 9 + 1}-1{i % 9}",
                notes,
            )
        )
    con.executemany("insert into members values (?, ?, ?, ?, ?, ?)", members)
    con.commit()
    con.close()


def metadata(password_hash: str) -> dict[str, object]:
    return {
        "title": "Lending library",
        "plugins": {"datasette-auth-passwords": {"alice_password_hash": password_hash}},
        "databases": {
            "library": {
                "tables": {
                    "books": {"facets": ["genre_id", "publisher_id"], "label_column": "title"},
                    "publishers": {"label_column": "name"},
                    "branches": {"label_column": "name", "allow": {"id": "alice"}},
                    "members": {"facets": ["branch_id"], "allow": {"id": "alice"}},
                }
            }
        },
    }


if __name__ == "__main__":
    from datasette_auth_passwords.utils import hash_password  # type: ignore[import-not-found]

    root = Path(sys.argv[1]).resolve()
    build(root / "library.db")
    meta = metadata(hash_password("corpus-alice-pw"))
    (root / "corpus-metadata.json").write_text(json.dumps(meta, indent=2))
