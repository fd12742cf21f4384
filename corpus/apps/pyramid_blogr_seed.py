"""Seed pyramid_blogr (Pylons/pyramid_blogr, the Pyramid tutorial's blog) for the corpus.

Run by `python -m corpus run` before every start, with the app's own virtualenv:
`{venv}/bin/python corpus/apps/pyramid_blogr_seed.py {root}`. A fresh `pyramid_blogr.sqlite` (the file
`production.ini` names), its tables made from the app's models, two bloggers and enough entries that
the front page's list paginates (five a page). The text is ours and fixed, so every run explores the
same site.
"""

import os
import sys
from datetime import datetime, timedelta

ROOT = sys.argv[1]
sys.path.insert(0, ROOT)
database = os.path.join(ROOT, "pyramid_blogr.sqlite")
if os.path.exists(database):
    os.remove(database)

import transaction  # noqa: E402
from pyramid_blogr.models import get_session_factory, get_tm_session  # noqa: E402
from pyramid_blogr.models.blog_record import BlogRecord  # noqa: E402
from pyramid_blogr.models.meta import Base  # noqa: E402
from pyramid_blogr.models.user import User  # noqa: E402
from sqlalchemy import create_engine, update  # noqa: E402

WORDS = (
    "river lantern orchard copper meadow harbor willow granite ember thistle marble falcon "
    "juniper quarry saffron tundra velvet beacon cobalt dune"
).split()
START = datetime(2024, 3, 1, 8, 0)


def sentence(n: int, length: int = 12) -> str:
    return " ".join(WORDS[(n * 7 + k * 3) % len(WORDS)] for k in range(length)).capitalize() + "."


engine = create_engine(f"sqlite:///{database}")
Base.metadata.create_all(engine)
with transaction.manager:
    session = get_tm_session(get_session_factory(engine), transaction.manager)
    for name in ("alice", "bob"):
        user = User(name=name)
        user.set_password(f"corpus-{name}-pw")
        session.add(user)
    for n in range(23):
        created = START + timedelta(days=n, hours=n % 5)
        body = f"{sentence(n, 30)}\n{sentence(n + 1, 20)}"
        if n == 9:
            # a reader's snippet pasted into an entry as it was written
            body += '\n<script>alert("corpus-xss")</script>'
        session.add(
            BlogRecord(
                title=f"Field note {n + 1}: {WORDS[n % len(WORDS)]} {WORDS[(n * 5) % len(WORDS)]}",
                body=body,
                created=created,
                edited=created + timedelta(hours=2 * (n % 3)),
            )
        )
    # Entries 1-6 came over from an older blog that kept no edit times. An UPDATE, because the
    # column's Python default fills a None given to the model.
    session.flush()
    session.execute(update(BlogRecord).where(BlogRecord.id <= 6).values(edited=None))
