"""Seed Piccolo Admin's example app (corpus/apps/piccolo_admin.toml) for the corpus.

Run before every start: `{venv}/bin/python corpus/apps/piccolo_admin_seed.py {root}` rebuilds the
example's own SQLite file (`piccolo_admin/example/example.sqlite`) with the example's own data and
users (the app's `populate_data`: admin `piccolo`/`piccolo123`, the explorer's login, and `john`),
then adds ours so the lists page (15 rows a page): 12 more directors and 64 more movies, every fifth
without a release date, one without a director, and one title pasted with markup.
"""

import datetime
import sys
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(sys.argv[1]).resolve()))

from piccolo_admin.example.tables import (  # noqa: E402  (the checkout's, after the path)
    Director,
    Movie,
    create_schema,
    populate_data,
    set_engine,
)

NAMES = (
    "Ada Lindqvist,Bruno Costa,Chiara Gallo,Dmitri Horvat,Elif Kaya,Farah Haddad,Goran Novak,"
    "Hana Ito,Ines Moreau,Jonas Berg,Kaito Sato,Nia Okafor"
).split(",")
WORDS = (
    "river glass winter orchard letters harbour silence lantern atlas paper garden north "
    "ember salt meridian archive tide forest quiet signal"
).split()


def main() -> None:
    set_engine("sqlite")
    create_schema(persist=False)
    populate_data(inflate=0, engine="sqlite")
    directors = [
        Director(name=name, years_nominated=[], gender="fmn"[n % 3], additional_skills=[])
        for n, name in enumerate(NAMES)
    ]
    Director.insert(*directors).run_sync()
    ids = [row["id"] for row in Director.select(Director.id).order_by(Director.id).run_sync()]
    movies = []
    for n in range(64):
        title = f"The {WORDS[n % 20].title()} of {WORDS[(n * 7 + 3) % 20].title()}"
        if n >= 20:
            title += f" {n // 20 + 1}"
        description = f"A film about {WORDS[(n * 3) % 20]} and {WORDS[(n * 5 + 1) % 20]}."
        if n == 2:
            # pasted from a festival's page, markup and all: the admin must show it as text
            title += " <img src=x onerror=\"document.title='pwned'\">"
        movies.append(
            Movie(
                name=title,
                rating=50 + (n * 7) % 50,
                duration=datetime.timedelta(minutes=80 + (n * 13) % 90),
                director=None if n == 33 else ids[(n * 5) % len(ids)],
                oscar_nominations=n % 4,
                won_oscar=n % 11 == 0,
                description=description,
                release_date=None if n % 5 == 4 else datetime.date(1980 + n % 40, 1 + n % 12, 1 + n % 27),
                box_office=Decimal(f"{10 + (n * 37) % 900}.5"),
                tags=[WORDS[n % 20]],
                barcode=1000 + n,
                genre=1 + n % 8,
            )
        )
    Movie.insert(*movies).run_sync()
    print("piccolo admin seeded: example data +", len(directors), "directors,", len(movies), "movies")


if __name__ == "__main__":
    main()
