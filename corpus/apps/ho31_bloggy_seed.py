"""Seed Emmett's bloggy example for the corpus: a fresh `databases/` folder migrated by the app's own
migration (`emmett migrations up`), then, through the app's own models and auth: the admin
(admin@example.com / corpus-admin-pw, in the `admin` group as the example's `setup` command makes it,
and in `readers`), four readers, 14 posts and 46 comments, two of them imported from an older blog
without a date, one holding a pasted `<script>`. Run with the app's virtualenv python, from anywhere.
Usage: ho31_bloggy_seed.py ROOT.
"""

from __future__ import annotations

import datetime
import os
import shutil
import subprocess
import sys
from pathlib import Path

PASSWORD = "corpus-admin-pw"
READERS = [("Marty", "McFly"), ("Jennifer", "Parker"), ("Lorraine", "Baines"), ("Biff", "Tannen")]
TOPICS = [
    "Flux capacitor notes",
    "Plutonium logistics",
    "Clock tower timing",
    "Hoverboards reviewed",
    "The DeLorean's wiring",
    "1.21 gigawatts explained",
    "Almanac sightings",
    "Time circuits calibration",
    "Hill Valley history",
    "Mr. Fusion first look",
    "Paradoxes, a primer",
    "Lightning forecasts",
    "Steam train options",
    "Sneaker lacing systems",
]


def main(root: Path) -> None:
    dbdir = root / "databases"
    shutil.rmtree(dbdir, ignore_errors=True)
    dbdir.mkdir()
    emmett = Path(sys.executable).parent / "emmett"
    subprocess.run(
        [str(emmett), "-a", "app.py", "migrations", "up"], cwd=root, check=True, stdout=subprocess.DEVNULL
    )
    os.chdir(root)
    sys.path.insert(0, str(root))
    import app as bloggy  # the example's module: its models, db and auth

    db, auth = bloggy.db, bloggy.auth
    start = datetime.datetime(2026, 11, 2, 9, 0)
    with db.connection():
        admin = bloggy.User.create(
            email="admin@example.com", first_name="Emmett", last_name="Brown", password=PASSWORD
        )
        admins, readers = auth.create_group("admin"), auth.create_group("readers")
        auth.add_membership(admins, admin.id)
        auth.add_membership(readers, admin.id)
        users = [admin.id]
        for first, last in READERS:
            user = bloggy.User.create(
                email=f"{first.lower()}@example.com",
                first_name=first,
                last_name=last,
                password=f"pw-{first}-corpus",
            )
            auth.add_membership(readers, user.id)
            users.append(user.id)
        n = 0
        for p, title in enumerate(TOPICS):
            when = start + datetime.timedelta(days=p)
            text = f"{title}: what we learned this week, with measurements and a few open questions (post {p + 1})."
            post = db.Post.insert(title=title, text=text, user=admin.id, date=when)
            for c in range((p * 3) % 7):
                body = f"Comment {c + 1} on '{title}': thanks, this helped."
                if p == 2 and c == 2:
                    body = 'Pasted from a forum: <script>window.xss="bloggy"</script> works for me.'
                date = when + datetime.timedelta(hours=c + 1)
                db.Comment.insert(text=body, user=users[(p + c) % len(users)], post=post, date=date)
                n += 1
            if p in (4, 9):
                # comments brought over from the old blog's export, which kept no dates
                for c in range(2):
                    db.Comment.insert(
                        text=f"Imported comment {c + 1}.", user=users[c + 1], post=post, date=None
                    )
                    n += 1
        db.commit()
    print(f"seeded {len(TOPICS)} posts, {n} comments, {len(users)} users")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
