"""Seed ihatemoney for the corpus: a fresh SQLite database (the app's migrations) with two projects.
`demo` is the public demonstration project the home page links to ("Try out the demo"): five
members, one of whom only ever owes, and 236 expenses (three pages of bills, a few whose
description holds "test", the oldest with pasted markup). `flatmates` is the private project the explorer
logs in to (project identifier + private code): four members who all pay, 48 expenses each with a
receipt link, and four reimbursements. Run by the corpus with the app's virtualenv:
`python ho5_ihatemoney_seed.py ROOT`."""

import datetime
import os
import random
import sys
from pathlib import Path

root = Path(sys.argv[1])
database = Path(os.environ["CORPUS_DATABASE_URI"].removeprefix("sqlite:///"))
database.unlink(missing_ok=True)

from ihatemoney.models import Bill, Person, Project, db  # noqa: E402  (after the stale database is gone)
from ihatemoney.run import create_app  # noqa: E402
from werkzeug.security import generate_password_hash  # noqa: E402

rng = random.Random(5)
DAY0 = datetime.date(2025, 1, 6)

SPENDING = [
    "Groceries",
    "Bakery",
    "Electricity bill",
    "Internet",
    "Cinema tickets",
    "Pizza night",
    "Train tickets",
    "Cleaning supplies",
    "Farmers market",
    "Water bill",
    "Concert",
    "Board game",
    "Taxi",
    "Pharmacy",
    "Coffee beans",
    "Hardware store",
    "Birthday present",
    "Plants",
    "Laundry",
    "Fuel",
]
TEST_WORDS = [
    "Contest entry fee",
    "Latest phone bill",
    "Protest banner paint",
    "Wine tasting and testing kit",
    "Attestation stamp duty",
    "Pastry tester course",
]


def project(project_id: str, name: str, code: str, members: list[str]) -> tuple[Project, list[Person]]:
    record = Project(
        id=project_id,
        name=name,
        password=generate_password_hash(code),
        contact_email=f"{project_id}@example.test",
        default_currency="XXX",
    )
    db.session.add(record)
    db.session.commit()
    people = []
    for member in members:
        person = Person()
        person.name = member
        person.project = record
        person.weight = 1
        db.session.add(person)
        people.append(person)
    db.session.commit()
    return record, people


def bill(
    record: Project,
    payer: Person,
    owers: list[Person],
    what: str,
    day: int,
    amount: float,
    link: str = "",
    kind: str = "Expense",
) -> None:
    db.session.add(
        Bill(
            amount=amount,
            date=DAY0 + datetime.timedelta(days=day),
            external_link=link,
            original_currency=record.default_currency,
            owers=owers,
            payer_id=payer.id,
            project_default_currency=record.default_currency,
            what=what,
            bill_type=kind,
        )
    )


def main() -> None:
    app = create_app()
    with app.app_context():
        demo, people = project("demo", "demonstration", "demo", ["Amina", "Georg", "Alice", "Wren", "Yusuf"])
        payers = people[:4]  # Yusuf only ever owes
        for n in range(230):
            owers = rng.sample(people, rng.randint(2, 5))
            bill(
                demo, payers[n % 4], owers, SPENDING[n % len(SPENDING)], n * 2, round(rng.uniform(4, 180), 2)
            )
        for n, what in enumerate(TEST_WORDS):
            bill(demo, payers[n % 4], people, what, 100 + n * 41, round(rng.uniform(10, 60), 2))
        # a description someone pasted markup into, the oldest bill (the list's last page): it must show as text
        bill(demo, payers[1], people, "<script>alert('ihm')</script> snacks", -3, 12.5)

        flat, mates = project(
            "flatmates", "Flat 3B", "corpus-flatmates-pw", ["Noor", "Tariq", "Lena", "Omar"]
        )
        for n in range(48):
            bill(
                flat,
                mates[n % 4],
                mates,
                SPENDING[(n * 3) % len(SPENDING)],
                n * 7,
                round(rng.uniform(8, 140), 2),
                link=f"https://receipts.example.test/flat3b/{n + 1}",
            )
        for n in range(4):
            bill(
                flat,
                mates[n],
                [mates[(n + 1) % 4]],
                f"Pays back {mates[(n + 1) % 4].name}",
                340 + n,
                25.0 + n,
                kind="Reimbursement",
            )
        db.session.commit()


if __name__ == "__main__":
    main()
