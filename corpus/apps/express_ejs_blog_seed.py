"""Fresh seed data for Express-EJS-Blog (ioanniskarvelis/Express-EJS-Blog): the app's own schema, one
author, one reader (the login the corpus uses), a blog, 26 published articles and 4 drafts, comments.

Usage: python express_ejs_blog_seed.py ROOT   (ROOT = the checkout; writes ROOT/database.db)

Every fourth article has no subtitle (the app allows that: the column is nullable and the editor
may leave it empty). One reader's comment carries a <script> the templates must escape.
"""

import sqlite3
import sys
from pathlib import Path

AUTHOR_EMAIL = "alice@example.test"
AUTHOR_PASSWORD = "CorpusAlice1"
READER_EMAIL = "ines@example.test"
READER_PASSWORD = "CorpusInes1"
TOPICS = [
    "Sourdough starters",
    "Night trains of Europe",
    "Repairing old radios",
    "Growing tomatoes indoors",
    "A year of cold showers",
    "Learning the cello late",
    "Mapping local footpaths",
    "Fermenting hot sauce",
    "Restoring a bicycle",
    "Birdwatching at dawn",
    "Writing letters again",
    "Baking rye bread",
    "Tide pools in winter",
    "Building a bookshelf",
    "Knitting for beginners",
    "Cheap telescopes",
    "Walking the canal path",
    "Pickling everything",
    "Hand-bound notebooks",
    "Composting in flats",
    "Film cameras today",
    "Lighthouse keepers",
    "Wild swimming safely",
    "Sharpening kitchen knives",
    "Rainy day board games",
    "Maps of imaginary towns",
    "Draft: winter plans",
    "Draft: garden notes",
    "Draft: reading list",
    "Draft: a trip north",
]
READERS = ["marta", "olu", "kenji", "ines", "tomas"]
SCRIPT_COMMENT = "Great read! <script>document.title='pwned';alert(1)</script>"


def seed(root: Path) -> None:
    for name in ("database.db", "sessions.sqlite"):
        (root / name).unlink(missing_ok=True)
    db = sqlite3.connect(root / "database.db")
    db.executescript((root / "db_schema.sql").read_text())
    db.execute(
        "INSERT INTO author (username, pass, firstname, lastname, email) VALUES (?, ?, ?, ?, ?)",
        ("alice", AUTHOR_PASSWORD, "Alice", "Moreau", AUTHOR_EMAIL),
    )
    db.execute(
        "INSERT INTO readers (username, pass, firstname, lastname, email) VALUES (?, ?, ?, ?, ?)",
        ("ines", READER_PASSWORD, "Ines", "Duarte", READER_EMAIL),
    )
    db.execute("INSERT INTO blog (title, subtitle, author_id) VALUES ('Small Pleasures', 'Notes', 1)")
    for i, topic in enumerate(TOPICS, start=1):
        published = not topic.startswith("Draft:")
        day = f"2025-{1 + i // 28:02d}-{1 + i % 28:02d}"
        subtitle = None if i % 4 == 0 else f"Part {i} of an occasional series"
        body = f"{topic}: what I tried, what went wrong and what I would do again. Entry {i}."
        db.execute(
            "INSERT INTO articles (id, title, subtitle, body, created, modified, published_time, published)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                i,
                topic,
                subtitle,
                body,
                f"{day} 09:00:00",
                f"{day} 10:00:00",
                f"{day} 11:00:00" if published else None,
                published,
            ),
        )
        if published:
            db.execute("INSERT INTO views (article_id, view_counter) VALUES (?, ?)", (i, 10 + i))
            db.execute("INSERT INTO likes (article_id, like_counter) VALUES (?, ?)", (i, i % 7))
            for j, reader in enumerate(READERS[: 2 + i % 3]):
                text = (
                    SCRIPT_COMMENT
                    if (i, j) == (3, 0)
                    else f"Thanks {reader} here, comment {j + 1} on {topic.lower()}."
                )
                db.execute(
                    "INSERT INTO comments (article_id, commenter, body, commented_time) VALUES (?, ?, ?, ?)",
                    (i, reader, text, f"{day} 12:{j:02d}:00"),
                )
    db.commit()
    db.close()


if __name__ == "__main__":
    seed(Path(sys.argv[1]))
