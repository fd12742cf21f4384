"""Seed microblog (the Flask Mega-Tutorial app) with a fresh database: the app's own migrations, then
users, posts, follows and private messages through its models.

Usage: python ho4_microblog_seed.py ROOT   (ROOT = the checkout; DATABASE_URL names the database file)

Explore and a profile page page at 25 posts; two accounts came from an older site and have never
signed in here (no "last seen"); one profile's "about me" holds a pasted <script>.
"""

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

USERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "henry"]
NEVER_SIGNED_IN = {"frank", "grace"}
ABOUT = {
    "alice": "Gardener and weekend baker.",
    "bob": "Photographer. Mostly birds.",
    "carol": 'Loves hiking <script>document.title="carol"</script> and maps.',
    "dave": "Plays the cello badly.",
    "erin": "Reads too many books.",
}
WORDS = (
    "morning walk coffee garden rain bread river train music letter market "
    "mountain lamp window harbour bicycle orchard meadow lantern ferry"
).split()


def main(root: Path) -> None:
    database = Path(os.environ["DATABASE_URL"].removeprefix("sqlite:///"))
    database.unlink(missing_ok=True)
    venv_bin = Path(sys.executable).parent
    subprocess.run([str(venv_bin / "flask"), "db", "upgrade"], cwd=root, check=True)
    sys.path.insert(0, str(root))
    import sqlalchemy as sa
    from app import create_app, db
    from app.models import Message, Post, User

    app = create_app()
    with app.app_context():
        users = {}
        for name in USERS:
            user = User(username=name, email=f"{name}@example.test", about_me=ABOUT.get(name))
            user.set_password(f"corpus-{name}-pw")
            db.session.add(user)
            users[name] = user
        db.session.commit()
        # posts in time order, so ids follow timestamps: alice 30, the others 6-12 each, henry none
        start = datetime(2026, 9, 1, 8, 0, tzinfo=UTC)
        counts = {"alice": 30, "bob": 12, "carol": 10, "dave": 9, "erin": 8, "frank": 7, "grace": 6}
        # round robin over the authors until each has written their share
        schedule = [name for turn in range(30) for name, n in counts.items() if turn < n]
        for number, name in enumerate(schedule, start=1):
            words = " ".join(WORDS[(number + k) % len(WORDS)] for k in range(6))
            db.session.add(
                Post(
                    body=f"Post {number} by {name}: {words}.",
                    author=users[name],
                    timestamp=start + timedelta(hours=number * 3),
                    language="en",
                )
            )
        db.session.commit()
        for follower, followed in [
            ("alice", "bob"),
            ("alice", "carol"),
            ("alice", "dave"),
            ("alice", "frank"),
            ("bob", "alice"),
            ("carol", "alice"),
            ("dave", "erin"),
            ("erin", "bob"),
        ]:
            users[follower].follow(users[followed])
        db.session.commit()
        # alice received 6 messages; others wrote each other 10 more
        when = start + timedelta(days=20)
        letters = [("bob", "alice")] * 3 + [("carol", "alice")] * 2 + [("dave", "alice")]
        letters += [("alice", "bob")] * 3 + [("bob", "carol")] * 3 + [("erin", "dave")] * 4
        for number, (sender, recipient) in enumerate(letters, start=1):
            db.session.add(
                Message(
                    author=users[sender],
                    recipient=users[recipient],
                    body=f"Note {number} from {sender}: see you at the {WORDS[number % len(WORDS)]}?",
                    timestamp=when + timedelta(hours=number),
                )
            )
        db.session.commit()
        db.session.execute(sa.update(User).where(User.username.in_(NEVER_SIGNED_IN)).values(last_seen=None))
        db.session.commit()


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
