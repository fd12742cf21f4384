"""Seed Flask-Admin's SQLAlchemy example for the corpus: the example's own sample database
(`build_sample_db`, its random choices made repeatable) plus enough rows that its lists page:
60 more users (5 a page: 17 pages; three at a "testlab" address), 70 more posts (20 a page: 5 pages; a few whose title holds
"test", the explorer's search word; the newest with pasted markup in its title) and the example's
tree of 31 nodes (2 pages). One user has a dialling code but no local phone number (a record
imported without one). Run by the corpus with the app's virtualenv: `python ho7_flask_admin_seed.py ROOT`."""

import datetime
import random
import sys
from pathlib import Path

root = Path(sys.argv[1])
sys.path.insert(0, str(root))

from admin import app, db  # noqa: E402
from admin.data import build_sample_db  # noqa: E402
from admin.models import Post, Tag, User  # noqa: E402

FIRST = ["Ada", "Bram", "Chen", "Dina", "Emeka", "Farah", "Goran", "Hana", "Ivo", "Jana", "Kofi", "Lea"]
LAST = ["Okafor", "Novak", "Lindqvist", "Moreau", "Quispe", "Sato", "Tanaka", "Underwood", "Varga", "Weber"]
TITLES = [
    "Notes on {}",
    "A week of {}",
    "Why {} matters",
    "Getting started with {}",
    "Five lessons from {}",
]
TOPICS = ["gardening", "bread baking", "cycling", "birdwatching", "pottery", "chess", "sailing"]
TEST_TITLES = ["Contest results", "Latest greenhouse test", "Protest placards", "Testing the new oven"]
TODAY = datetime.date(2026, 11, 30)


def main() -> None:
    random.seed(7)
    with app.app_context():
        build_sample_db()
        rng = random.Random(7)
        tags = Tag.query.all()
        users = []
        for n in range(60):
            first, last = FIRST[n % len(FIRST)], LAST[(n * 7) % len(LAST)]
            user = User(
                type=rng.choice(["admin", "content-writer", "editor", "regular-user"]),
                first_name=first,
                last_name=f"{last}" if n % 3 else f"{last}-{first[:2]}",
                # three of them at a lab whose domain the explorer's search word, "test", matches
                email=f"{first.lower()}.{n}@" + ("testlab.example.org" if n % 20 == 3 else "example.org"),
                website=f"https://{first.lower()}{n}.example.org",
                ip_address=f"10.0.{n // 200}.{n % 200 + 1}",
                currency="EUR",
                timezone="Europe/Berlin",
                dialling_code=49,
                local_phone_number="0" + "".join(rng.choices("123456789", k=9)),
            )
            users.append(user)
            db.session.add(user)
        # imported without a local number: the clean build shows no phone for them
        users[20].last_name = "Gruber"
        users[20].local_phone_number = ""
        for n in range(70):
            post = Post(
                title=TITLES[n % len(TITLES)].format(TOPICS[n % len(TOPICS)]),
                text="Plain words about the topic, written for the example. " * 3,
                date=TODAY - datetime.timedelta(days=3 * n + 2),
                background_color=rng.choice(["#cccccc", "red", "lightblue", "#0f0"]),
                user=users[n % len(users)],
                tags=rng.sample(tags, 2),
            )
            db.session.add(post)
        for n, title in enumerate(TEST_TITLES):
            db.session.add(
                Post(
                    title=title,
                    text="A post whose title the search finds.",
                    date=TODAY - datetime.timedelta(days=40 + 11 * n),
                    background_color="lightblue",
                    user=users[n],
                    tags=rng.sample(tags, 2),
                )
            )
        # the newest post: a title someone pasted markup into; it must show as text
        db.session.add(
            Post(
                title="<script>alert('fa')</script> Pasted snippet",
                text="The title came from a clipboard.",
                date=TODAY,
                background_color="#cccccc",
                user=users[1],
                tags=rng.sample(tags, 2),
            )
        )
        db.session.commit()


if __name__ == "__main__":
    main()
