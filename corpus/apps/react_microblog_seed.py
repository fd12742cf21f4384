"""Fresh seed data for react-microblog's API (miguelgrinberg/microblog-api): the API's own tables
(SQLAlchemy create_all), alice (the login the corpus uses) and eleven other users, follows, and 90
posts, so the feed, Explore and user pages each need several "More" clicks (25 posts a request).

Usage: python react_microblog_seed.py ROOT   (ROOT = the react-microblog checkout; the API is in
ROOT/backend; run with the API's virtualenv; DATABASE_URL names the database)

One post's text holds an <img onerror> a user pasted; the SPA must print it as text.
"""

import os
import sys
from datetime import datetime, timedelta
from pathlib import Path

NAMES = ["bruno", "chidi", "dana", "elif", "farah", "goran", "hana", "ivo", "jonas", "kemal", "lena"]
PASTED = "look what I found <img src=x onerror=\"document.title='pwned'\"> in the logs"
WORDS = (
    "shipped the new build today and the tests finally pass on every platform we support "
    "coffee first then the backlog then maybe a walk along the river before the standup"
).split()


def seed(root: Path) -> None:
    database = os.environ["DATABASE_URL"].removeprefix("sqlite:///")
    Path(database).unlink(missing_ok=True)
    sys.path.insert(0, str(root / "backend"))
    from api.app import create_app, db  # type: ignore[import-not-found]
    from api.models import Post, User  # type: ignore[import-not-found]

    app = create_app()
    with app.app_context():
        db.create_all()
        alice = User(username="alice", email="alice@example.test", about_me="Writes about build systems.")
        alice.password = "corpus-alice-pw"
        users = [alice]
        for i, name in enumerate(NAMES):
            user = User(
                username=name, email=f"{name}@example.test", about_me=f"{name.title()} from team {i % 4}."
            )
            user.password = f"corpus-{name}-pw"
            users.append(user)
        db.session.add_all(users)
        for user in users[1:7]:
            alice.follow(user)
        start = datetime(2025, 3, 1, 9, 0, 0)
        for i in range(90):
            author = users[i % len(users)]
            text = PASTED if i == 40 else " ".join(WORDS[(i * 3) % 20 : (i * 3) % 20 + 8]) + f" (#{i + 1})"
            db.session.add(Post(text=text, author=author, timestamp=start + timedelta(hours=5 * i)))
        db.session.commit()


if __name__ == "__main__":
    seed(Path(sys.argv[1]).resolve())
