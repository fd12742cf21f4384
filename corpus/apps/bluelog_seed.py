"""Seed Bluelog (greyli/bluelog) for the corpus: a fresh database with enough rows that lists paginate.

Run by `python -m corpus run` before every start, with the app's own virtualenv:
`{venv}/bin/python corpus/apps/bluelog_seed.py {root}` (DATABASE_URL and FLASK_CONFIG come from the
app file's `env`). The text is ours and fixed, so every run explores the same site.
"""

import os
import sys
from datetime import datetime, timedelta

ROOT = sys.argv[1]
sys.path.insert(0, ROOT)
database = os.environ["DATABASE_URL"].removeprefix("sqlite:///")
if os.path.exists(database):
    os.remove(database)

from bluelog import create_app  # noqa: E402  (after the path and the fresh database)
from bluelog.extensions import db  # noqa: E402
from bluelog.models import Admin, Category, Comment, Post  # noqa: E402

WORDS = (
    "river lantern orchard copper meadow harbor willow granite ember thistle marble falcon "
    "juniper quarry saffron tundra velvet beacon cobalt dune"
).split()
START = datetime(2024, 1, 1, 9, 0)


def sentence(n: int, length: int = 12) -> str:
    return " ".join(WORDS[(n * 7 + k * 3) % len(WORDS)] for k in range(length)).capitalize() + "."


app = create_app()
with app.app_context():
    db.create_all()
    admin = Admin(
        username="admin",
        blog_title="Corpus Notes",
        blog_sub_title="A seeded blog",
        name="Ada Admin",
        about="A blog seeded for the BugHunt corpus.",
    )
    admin.set_password("corpus-admin-pw")
    db.session.add(admin)
    # Category 1 is the app's default (a deleted category's posts move there).
    categories = [Category(name=name) for name in ("Default", "Travel", "Workshop", "Garden")]
    db.session.add_all(categories)
    posts = []
    for n in range(64):
        post = Post(
            title=f"Field note {n + 1}: {WORDS[n % len(WORDS)]} {WORDS[(n * 5) % len(WORDS)]}",
            body=f"<p>{sentence(n, 30)}</p><p>{sentence(n + 1, 24)}</p>",
            category=categories[1 + n % 3] if n % 8 else categories[0],
            timestamp=START + timedelta(hours=n),
        )
        posts.append(post)
    db.session.add_all(posts)
    minute = 0

    def comment(
        post: Post, author: str, body: str, reviewed: bool = True, replied: Comment | None = None
    ) -> Comment:
        global minute
        minute += 1
        made = Comment(
            author=author,
            email=f"{author.lower()}@example.test",
            body=body,
            post=post,
            reviewed=reviewed,
            replied=replied,
            timestamp=post.timestamp + timedelta(minutes=minute),
        )
        db.session.add(made)
        return made

    names = ("Mira", "Tomas", "Ines", "Jun", "Olu", "Pia")
    for n, post in enumerate(posts):
        first = comment(post, names[n % 6], sentence(n + 2, 10))
        comment(post, names[(n + 1) % 6], sentence(n + 3, 8), replied=first)
        comment(post, names[(n + 2) % 6], sentence(n + 4, 9))
        if n % 3 == 0:
            comment(post, names[(n + 3) % 6], sentence(n + 5, 7), reviewed=False)
    # The newest post has a long thread (two pages of comments) and a visitor who pasted markup,
    # which the template must show as text.
    newest = posts[-1]
    comment(newest, "Mallory", "Great read! <script>alert('corpus-xss')</script> Thanks for sharing.")
    for k in range(18):
        comment(newest, names[k % 6], sentence(k + 40, 8))
    db.session.commit()
print("bluelog seeded:", len(posts), "posts")
