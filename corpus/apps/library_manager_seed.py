"""Seed SQL Library Book Manager (danpoynor/sql-library-book-manager) for the corpus.

Run by `python -m corpus run` before every start: `{python} corpus/apps/library_manager_seed.py
{root}`. A fresh `library.db` made the way the app's README says (`sequelize-cli db:migrate` and its
own seeders: 15 books, 15 authors, 21 genres), then our rows through SQLite: 6 more authors (two of
them dead), 31 more books (46 in all: ten pages at the app's 5 a page), each in one to three
genres; four titles hold the word "test" (the explorer's search word) and sit in two genres each;
one title holds a pasted `<script>`. The text is ours and fixed, so every run explores the same
site.
"""

import os
import sqlite3
import subprocess
import sys

ROOT = sys.argv[1]
os.chdir(ROOT)
if os.path.exists("library.db"):
    os.remove("library.db")
CLI = os.path.join("node_modules", ".bin", "sequelize-cli")
for step in ("db:migrate", "db:seed:all"):
    subprocess.run([CLI, step], check=True, stdout=subprocess.DEVNULL)

AUTHORS = [
    (16, "Maren", "Holloway", "1931-03-02", "2004-11-19"),
    (17, "Tomasz", "Brandt", "1968-06-14", None),
    (18, "Ines", "Carvalho", "1975-01-30", None),
    (19, "Oluwaseun", "Adeyemi", "1982-09-08", None),
    (20, "Edith", "Marlowe", "1899-12-24", "1970-05-03"),
    (21, "Kenji", "Arakawa", "1959-04-11", None),
]
WORDS = "Harbour Lantern Copper Meadow Granite Orchard Willow Cobalt Ember Falcon Juniper Marble".split()
TITLES = [f"The {a} of {b}" for a, b in zip(WORDS, WORDS[3:] + WORDS[:3], strict=True)]
TITLES += [f"{a} Road" for a in WORDS[:9]]
TITLES += ["The Testament of Ash", "Contest of Crowns", "Field Test", "Protest Songs of the North"]
TITLES += ["Night Trains", "A Grammar of Rivers", "Salt and Iron", "Small Hours", "Paper Moons"]
TITLES.append("Marginalia <script>alert('library-xss')</script>")

db = sqlite3.connect("library.db")
db.executemany(
    "INSERT INTO Authors (id, first_name, last_name, date_of_birth, date_of_death) VALUES (?, ?, ?, ?, ?)",
    AUTHORS,
)
for i, title in enumerate(TITLES):
    book_id = 16 + i
    author_id = 16 + i % len(AUTHORS) if i % 3 else 1 + i % 15
    db.execute(
        "INSERT INTO Books (id, title, author_id, year) VALUES (?, ?, ?, ?)",
        (book_id, title, author_id, 1950 + (i * 7) % 71),
    )
    n_genres = 2 if "test" in title.lower() else 1 + i % 3
    for k in range(n_genres):
        db.execute(
            "INSERT INTO BookGenres (book_id, genre_id) VALUES (?, ?)",
            (book_id, 1 + (i * 5 + k * 7) % 21),
        )
db.commit()
print(f"seeded {db.execute('SELECT COUNT(*) FROM Books').fetchone()[0]} books")
