"""Seed the Full Stack FastAPI Template with a fresh SQLite database: the tables from its SQLModel
models, the first superuser, three users and their items through the template's own crud helpers.

Usage: python ho4_fastapi_items_seed.py ROOT   (ROOT = the checkout; CORPUS_DATABASE_URL names the file)

alice (the explorer's login, not a superuser) owns 37 items: four pages of the items table's ten
rows; one in five has no description; one description is a pasted <img onerror>. bob and carol own
23 more.
"""

import os
import sys
from pathlib import Path

WORDS = (
    "invoice ladder bucket lantern compass kettle blanket hammer notebook basket candle "
    "shovel teapot pillow rope saddle"
).split()
OWNERS = {"alice": 37, "bob": 15, "carol": 8}
PASTED = '<img src="/missing.png" onerror="document.title=\'alice\'"> spare key'


def main(root: Path) -> None:
    database = Path(os.environ["CORPUS_DATABASE_URL"].removeprefix("sqlite:///"))
    database.unlink(missing_ok=True)
    sys.path.insert(0, str(root / "backend"))
    from app import crud  # type: ignore[import-not-found]
    from app.core.db import engine, init_db  # type: ignore[import-not-found]
    from app.models import ItemCreate, UserCreate  # type: ignore[import-not-found]
    from sqlmodel import Session, SQLModel  # type: ignore[import-not-found]

    SQLModel.metadata.create_all(engine)
    with Session(engine) as session:
        init_db(session)
        for name, count in OWNERS.items():
            user = crud.create_user(
                session=session,
                user_create=UserCreate(
                    email=f"{name}@example.com",
                    password=f"corpus-{name}-pw",
                    full_name=f"{name.capitalize()} Example",
                ),
            )
            for number in range(1, count + 1):
                word = WORDS[(number * 3 + len(name)) % len(WORDS)]
                description = None if number % 5 == 0 else f"{word} number {number}, kept by {name}"
                if name == "alice" and number == 3:
                    description = PASTED
                crud.create_item(
                    session=session,
                    item_in=ItemCreate(title=f"{word.capitalize()} {number}", description=description),
                    owner_id=user.id,
                )


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
