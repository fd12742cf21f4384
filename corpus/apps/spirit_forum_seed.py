"""Seed Spirit (nitely/Spirit), a Django forum, for the corpus.

Run by `python -m corpus run` before every start, with the app's own virtualenv:
`{venv}/bin/python corpus/apps/spirit_forum_seed.py {root}`, on the project `spirit startproject`
generated in `{root}/forumsite` (dev settings: SQLite, local-memory caches, console mail). A fresh
migrated database and search index, then: verified users alice (the explorer's login), bob, carol,
dave, erin and two members whose posts came from an older forum (frank, grace: their profiles were
never updated by a post here, so `last_post_on` is empty); 5 categories; 52 topics (20 a page:
`/` has three pages, General two), 2-6 comments each, one topic with 24 comments (two pages); two
removed topics in Help; one topic title with a pasted `<script>`; alice has liked a few comments.
The text is ours and fixed, so every run explores the same site.
"""

import datetime
import os
import shutil
import sys

ROOT = sys.argv[1]
SITE = os.path.join(ROOT, "forumsite")
sys.path.insert(0, SITE)
os.chdir(SITE)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "forum.settings.dev")
if os.path.exists("db.sqlite3"):
    os.remove("db.sqlite3")
shutil.rmtree("st_search", ignore_errors=True)

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402
from django.utils.html import escape  # noqa: E402
from spirit.category.models import Category  # noqa: E402
from spirit.comment.like.models import CommentLike  # noqa: E402
from spirit.comment.models import Comment  # noqa: E402
from spirit.topic.models import Topic  # noqa: E402

call_command("migrate", verbosity=0, interactive=False)

User = get_user_model()
NOW = timezone.now().replace(microsecond=0)
WORDS = (
    "lantern harbour copper meadow thistle granite orchard willow cobalt ember falcon juniper "
    "marble nettle pepper quartz saffron tundra velvet walnut"
).split()


def make_user(name: str, posted: bool) -> object:
    user = User.objects.create_user(username=name, email=f"{name}@example.test", password=f"corpus-{name}-pw")
    st = user.st
    st.is_verified = True
    st.location = "" if name in ("dave", "grace") else "Lisbon"
    if posted:
        st.last_post_on = NOW - datetime.timedelta(hours=len(name))
    st.save()
    return user


users = {
    n: make_user(n, posted=n not in ("frank", "grace"))
    for n in "alice bob carol dave erin frank grace".split()
}
authors = list(users.values())

categories = []
for i, (title, description) in enumerate(
    [
        ("General", "Anything about the workshop"),
        ("Help", "Questions and answers"),
        ("Showcase", "Things members built"),
        ("Events", "Meetups and workshops"),
        ("Off-topic", "Everything else"),
    ]
):
    categories.append(Category.objects.create(title=title, description=description, sort=i + 2))
general, help_, showcase, events, offtopic = categories

# General holds 26 topics (two pages), the others fewer; 52 in all (three pages on `/`)
plan = [general] * 26 + [help_] * 9 + [showcase] * 7 + [events] * 5 + [offtopic] * 5
topics = []
for i, category in enumerate(plan):
    author = authors[(i * 3) % len(authors)]
    a, b = WORDS[i % len(WORDS)], WORDS[(i * 7 + 3) % len(WORDS)]
    title = f"{a.capitalize()} and {b}: notes {i + 1}"
    if i == 44:
        title = "Pasted from the old board <script>alert('spirit-xss')</script>"
    started = NOW - datetime.timedelta(days=60 - i, hours=i % 5)
    topic = Topic.objects.create(
        user=author, category=category, title=title, date=started, last_active=started
    )
    n_comments = 24 if i == 3 else 2 + (i % 5)
    for j in range(n_comments):
        who = author if j == 0 else authors[(i + j * 2) % len(authors)]
        text = f"Comment {j + 1} on {a} and {b}: the {WORDS[(i + j) % len(WORDS)]} part works for me."
        Comment.objects.create(
            user=who,
            topic=topic,
            comment=text,
            comment_html=f"<p>{escape(text)}</p>",
            date=started + datetime.timedelta(hours=j + 1),
        )
    topic.comment_count = n_comments
    topic.last_active = started + datetime.timedelta(hours=n_comments)
    topic.is_removed = category is help_ and i in (27, 31)
    topic.save()
    topics.append(topic)

for user in authors:
    st = user.st
    st.topic_count = Topic.objects.filter(user=user).count()
    st.comment_count = Comment.objects.filter(user=user).count()
    st.save()

alice = users["alice"]
for comment in Comment.objects.exclude(user=alice).order_by("pk")[5:200:9]:
    CommentLike.objects.create(user=alice, comment=comment)
    comment.likes_count = 1
    comment.save()

print(
    f"seeded {User.objects.count()} users, {Topic.objects.count()} topics, {Comment.objects.count()} comments"
)
