"""Seed starlette-admin's `auth` example for the corpus: a fresh SQLite database (`auth_db.sqlite` in
the repository's root, where the example opens it) with 60 articles instead of its 10 (10 a page in
the DataTables list: 6 pages): the example's own ten first, then fifty more; four whose title holds
"test", the explorer's search word; one saved without a status (the column is nullable: an article
imported before statuses existed); one whose body holds pasted markup. The example fills the
database only when the file is missing, so it keeps these. Run by the corpus with the app's
virtualenv from the repository's root: `python ho7_starlette_admin_seed.py ROOT`."""

import os
import sys
from pathlib import Path

root = Path(sys.argv[1])
os.chdir(root)
sys.path.insert(0, str(root))
Path("auth_db.sqlite").unlink(missing_ok=True)

from examples.auth import Base, engine  # noqa: E402
from examples.auth.model import Article, Status  # noqa: E402
from examples.auth.seed import fixture  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

SUBJECTS = ["harbour", "orchard", "library", "railway", "market", "lighthouse", "bakery", "valley"]
OPENINGS = [
    "Notes from the {}",
    "A morning at the {}",
    "Why the {} matters",
    "Letters about the {}",
    "The old {} reopens",
]
TEST_TITLES = [
    "Contest winners announced",
    "Latest field test",
    "Protest at the town hall",
    "Testing a new route",
]
STATUSES = [Status.Draft, Status.Published, Status.Withdrawn]


def main() -> None:
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        for n, data in enumerate(fixture):
            session.add(Article(**data, status=STATUSES[n % 3]))
        for n in range(50):
            title = OPENINGS[n % len(OPENINGS)].format(SUBJECTS[n % len(SUBJECTS)])
            if n % 12 == 4:
                title = TEST_TITLES[n // 12]
            body = f"{title}. A short piece written for the example, number {n + 11}.\nIt has two lines."
            status = STATUSES[(n * 2) % 3]
            if n == 7:
                # the newest pasted body: it must show as text
                body = "Copied from a chat window:\n<script>alert('sa')</script> see you there."
            if n == 26:
                status = None
            session.add(Article(title=title, body=body, status=status))
        session.commit()


if __name__ == "__main__":
    main()
