"""Seed the corpus's aiohttp-admin catalogue: a fresh SQLite file with 16 artists (two list pages of 10)
and 64 albums (seven pages of 10) in six genres; every seventh album without a release date, album 23
without an artist (imported from a compilation), album 5's notes pasted from a web page with an
`<img onerror>`, one artist whose biography runs over several lines. The accounts are in the serve
script (admin / editor, `corpus-<name>-pw`). Usage: ho13_aiohttp_admin_seed.py ROOT
"""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ho13_aiohttp_admin_serve import Album, Artist, Base, Genre, database  # noqa: E402

NAMES = [
    "The Lanterns",
    "Mira Holt",
    "Copper Fields",
    "Northbound Trio",
    "Ada Quill",
    "Salt & Cedar",
    "The Night Ferry",
    "Jonas Wray",
    "Velvet Orchard",
    "Kestrel",
    "Low Tide Union",
    "Ines Marlo",
    "Paper Comets",
    "The Quiet Hours",
    "Oskar Lind",
    "Harbour Lights",
]
COUNTRIES = ["UK", "Ireland", "Sweden", "Canada", "France", "Norway", "Spain", "Japan"]
WORDS = [
    "Morning",
    "River",
    "Glass",
    "Static",
    "Harvest",
    "Signal",
    "Winter",
    "Lantern",
    "Echo",
    "Orchard",
    "Harbour",
    "Paper",
    "Silver",
    "Northern",
    "Quiet",
    "Velvet",
    "Ember",
    "Tide",
]
PASTED = (
    'Liner notes copied from the shop page: <img src="data:," onerror="document.title=\'pwned\'"> remastered'
)


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    db = database(root)
    db.unlink(missing_ok=True)
    engine = sa.create_engine(f"sqlite:///{db}")
    Base.metadata.create_all(engine)
    genres = list(Genre)
    with Session(engine) as session:
        for n, name in enumerate(NAMES, start=1):
            bio = f"{name} formed in {1975 + n * 2} and have made records ever since."
            if n == 3:
                bio += "\nThey tour every autumn.\nTheir first single was pressed on blue vinyl."
            session.add(
                Artist(id=n, name=name, country=COUNTRIES[n % len(COUNTRIES)], formed=1975 + n * 2, bio=bio)
            )
        session.flush()
        for n in range(1, 65):
            title = f"{WORDS[n % len(WORDS)]} {WORDS[(n * 7 + 3) % len(WORDS)]}"
            notes = (
                None
                if n % 4 == 0
                else f"Recorded in {1980 + n % 40}; {WORDS[(n * 5) % len(WORDS)].lower()} sessions."
            )
            if n == 5:
                notes = PASTED
            session.add(
                Album(
                    id=n,
                    title=title,
                    artist_id=None if n == 23 else (n % len(NAMES)) + 1,
                    released=None if n % 7 == 0 else date(1980 + n % 40, 1 + n % 12, 1 + n % 27),
                    genre=genres[n % len(genres)],
                    price=round(7.5 + (n % 9) * 1.25, 2),
                    notes=notes,
                )
            )
        session.commit()


if __name__ == "__main__":
    main()
