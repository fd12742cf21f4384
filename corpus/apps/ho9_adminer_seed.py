"""Seed Adminer for the corpus: `python ho9_adminer_seed.py ROOT`.

Adminer manages databases; what it shows is the database it logs in to. This writes that database,
`adminer/corpus-shop.sqlite` (a small shop: categories, products, customers, orders, and an empty
returns table; ids refer to other tables without declared foreign keys, as in many small shops' schemas),
and Adminer's own plugin file `adminer/adminer-plugins.php`, which its bootstrap
loads from the working directory: Adminer's `Password` class, so the SQLite login (which has no
server password of its own) asks for alice's password (`corpus-alice-pw`; Adminer refuses
password-less SQLite logins otherwise). Customers take three pages of 50, orders six; every
customer has a note (most of them empty), a few products have no description (NULL)."""

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

root = Path(sys.argv[1]).resolve()
app = root / "adminer"
database = app / "corpus-shop.sqlite"
database.unlink(missing_ok=True)

password_hash = subprocess.run(
    ["php", "-r", "echo password_hash('corpus-alice-pw', PASSWORD_DEFAULT);"],
    check=True,
    capture_output=True,
    text=True,
).stdout.strip()
(app / "adminer-plugins.php").write_text(
    "<?php\n// written by the corpus seed: the password the SQLite login asks for\n"
    f"return array(new Adminer\\Password('{password_hash}'));\n"
)

rng = random.Random(9)
db = sqlite3.connect(database)
db.executescript(
    """
    CREATE TABLE categories (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, description TEXT);
    CREATE TABLE products (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, category_id INTEGER,
        price REAL NOT NULL, stock INTEGER NOT NULL DEFAULT 0, description TEXT);
    CREATE TABLE customers (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, email TEXT, city TEXT,
        note TEXT, joined TEXT);
    CREATE TABLE orders (id INTEGER PRIMARY KEY AUTOINCREMENT, customer_id INTEGER, product_id INTEGER,
        quantity INTEGER NOT NULL, status TEXT NOT NULL, ordered_at TEXT NOT NULL);
    CREATE TABLE returns (id INTEGER PRIMARY KEY AUTOINCREMENT, order_id INTEGER, reason TEXT, returned_at TEXT);
    """
)
CATEGORIES = ["Garden", "Kitchen", "Workshop", "Bicycles", "Lighting", "Camping", "Office", "Toys"]
for name in CATEGORIES:
    db.execute(
        "INSERT INTO categories (name, description) VALUES (?, ?)", (name, f"Everything for {name.lower()}")
    )
ITEMS = ["hose", "kettle", "hammer", "pump", "lamp", "tent", "stapler", "kite", "rake", "pan", "saw", "bell"]
for index in range(40):
    db.execute(
        "INSERT INTO products (name, category_id, price, stock, description) VALUES (?, ?, ?, ?, ?)",
        (
            f"{ITEMS[index % len(ITEMS)].title()} model {index + 1}",
            index % len(CATEGORIES) + 1,
            round(rng.uniform(3, 250), 2),
            rng.randint(0, 80),
            # a few products have no description yet (NULL)
            None if index % 9 == 4 else f"Sturdy {ITEMS[index % len(ITEMS)]}, ships in {index % 5 + 1} days",
        ),
    )
FIRST = ["Ada", "Ben", "Cleo", "Dev", "Eva", "Finn", "Gus", "Hana", "Ivo", "Jade", "Kai", "Lou"]
LAST = ["Moreau", "Nagy", "Okafor", "Petrov", "Quinn", "Rossi", "Sato", "Tanaka", "Ulrich", "Varga"]
CITIES = ["Lyon", "Oslo", "Porto", "Graz", "Turku", "Ghent", "Brno", "Cork"]
NOTES = [
    "prefers e-mail",
    "call after 5pm",
    "wholesale account",
    "",
    "",
    "gift wrapping",
    "",
    "invoice monthly",
]
for index in range(120):
    first, last = FIRST[index % len(FIRST)], LAST[(index * 7) % len(LAST)]
    note = NOTES[index % len(NOTES)]
    if index == 29:
        # pasted into the note field from a web form; it must show as text
        note = "<script>alert('ho9-adminer')</script> asked about delivery"
    db.execute(
        "INSERT INTO customers (name, email, city, note, joined) VALUES (?, ?, ?, ?, ?)",
        (
            f"{first} {last}",
            f"{first.lower()}.{last.lower()}{index}@example.test",
            CITIES[index % len(CITIES)],
            note,
            f"2025-{index % 12 + 1:02d}-{index % 27 + 1:02d}",
        ),
    )
STATUSES = ["new", "paid", "shipped", "delivered", "cancelled"]
for index in range(260):
    db.execute(
        "INSERT INTO orders (customer_id, product_id, quantity, status, ordered_at) VALUES (?, ?, ?, ?, ?)",
        (
            rng.randint(1, 120),
            rng.randint(1, 40),
            rng.randint(1, 5),
            rng.choice(STATUSES),
            f"2025-{index % 12 + 1:02d}-{index % 28 + 1:02d} {index % 24:02d}:{index % 60:02d}",
        ),
    )
db.commit()
db.close()
print("seeded Adminer's shop database: 8 categories, 40 products, 120 customers, 260 orders, 0 returns")
