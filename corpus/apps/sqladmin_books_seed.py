"""Seed the SQLAdmin bookshop back office (corpus/apps/sqladmin_books.toml) for the corpus.

Run before every start: `{venv}/bin/python corpus/apps/sqladmin_books_seed.py {root}` makes a fresh
`{root}/corpus-books.sqlite` with staff alice (`corpus-alice-pw`, the explorer's login), 14 authors
(two pages of 10) and 64 books (seven pages of 10). Like a real catalogue it has gaps: one book in
nine has no publication date, book 27 (page 3) has no author yet, and book 5's summary was pasted
from a publisher's page, markup and all.
"""

import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import sqladmin_books_app as app  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

NAMES = (
    "Ada Lindqvist,Bruno Costa,Chiara Gallo,Dmitri Horvat,Elif Kaya,Farah Haddad,Goran Novak,"
    "Hana Ito,Ines Moreau,Jonas Berg,Kaito Sato,Lena Fischer,Mateo Ortiz,Nia Okafor"
).split(",")
COUNTRIES = "Sweden Portugal Italy Croatia Turkey Lebanon Slovenia Japan France Norway".split()
GENRES = "Fiction Poetry History Science Travel Cookery Drama Essays".split()
WORDS = (
    "river glass winter orchard letters harbour silence lantern atlas paper garden north "
    "ember salt meridian archive tide forest quiet signal"
).split()


def main() -> None:
    app.DB.unlink(missing_ok=True)
    app.Base.metadata.create_all(app.engine)
    with Session(app.engine) as session:
        session.add(app.Staff(username="alice", password_hash=app.hash_password("corpus-alice-pw", "s4lt")))
        session.add(app.Staff(username="bob", password_hash=app.hash_password("corpus-bob-pw", "pepp3r")))
        authors = []
        for n, name in enumerate(NAMES):
            first = name.split()[0].lower()
            author = app.Author(
                name=name,
                email=f"{first}@authors.example",
                country=COUNTRIES[n % len(COUNTRIES)],
                bio=None if n % 4 == 3 else f"{name} writes about {WORDS[n]} and {WORDS[n + 3]}.",
            )
            authors.append(author)
            session.add(author)
        for n in range(64):
            book_id = n + 1
            title = f"The {WORDS[n % 20].title()} of {WORDS[(n * 7 + 3) % 20].title()}"
            if n >= 20:
                title += f", vol. {n // 20 + 1}"
            summary = (
                f"A {GENRES[n % 8].lower()} book about {WORDS[(n * 3) % 20]} and {WORDS[(n * 5 + 1) % 20]}."
            )
            if book_id == 5:
                summary = "Winner of the 2019 prize. <script>alert('corpus-xss')</script> A story of salt."
            session.add(
                app.Book(
                    id=book_id,
                    title=title,
                    isbn=f"978-0-{1000 + n * 37:04d}-{n % 90 + 10:02d}",
                    genre=GENRES[n % 8],
                    published=None if n % 9 == 4 else date(1990 + n % 30, 1 + n % 12, 1 + n % 27),
                    pages=120 + (n * 29) % 400,
                    summary=summary,
                    author=None if book_id == 27 else authors[(n * 5) % len(authors)],
                )
            )
        session.commit()
    print("sqladmin bookshop seeded: 14 authors, 64 books, staff alice and bob")


if __name__ == "__main__":
    main()
