"""Seed Corey Schafer's Django blog (CoreyMSchafer/code_snippets, Django_Blog) for the corpus.

Run by `python -m corpus run` before every start, with the app's own virtualenv:
`{venv}/bin/python corpus/apps/django_blog_seed.py {root}`. A fresh database (the checkout's own
db.sqlite3 is replaced), migrated, with three authors and enough posts that the lists paginate
(five a page). The text is ours and fixed, so every run explores the same site.
"""

import os
import sys
from datetime import UTC, datetime, timedelta

ROOT = sys.argv[1]
sys.path.insert(0, ROOT)
os.chdir(ROOT)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "django_project.settings")
if os.path.exists("db.sqlite3"):
    os.remove("db.sqlite3")

import django  # noqa: E402

django.setup()

from blog.models import Post  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402

call_command("migrate", verbosity=0)

WORDS = (
    "kettle summit lichen harbour pewter orchard cinder meadow quill basalt "
    "fennel lagoon tinder walnut gravel saffron heron cobble"
).split()


def sentence(n: int, length: int) -> str:
    return " ".join(WORDS[(n * 5 + k * 7) % len(WORDS)] for k in range(length)).capitalize() + "."


authors = {}
for name in ("alice", "bob", "carol"):
    authors[name] = User.objects.create_user(name, f"{name}@example.test", f"corpus-{name}-pw")

# Oldest first: 22 by alice, 13 by carol, 3 by bob; the five newest (the first page) are by
# alice, carol, bob, alice, carol, newest first.
older = ["alice"] * 21 + ["carol"] * 11 + ["bob"] * 2
order = [older[(k * 13) % len(older)] for k in range(len(older))]
order += ["carol", "alice", "bob", "carol", "alice"]
start = datetime(2024, 3, 1, 8, 0, tzinfo=UTC)
for n, name in enumerate(order):
    content = f"{sentence(n, 28)} {sentence(n + 3, 20)}"
    if n == len(order) - 2:
        # an author pasted markup; the template must show it as text
        content = f"Brewing notes for the week. <script>alert('corpus-xss')</script> {sentence(n, 12)}"
    Post.objects.create(
        title=f"{WORDS[n % len(WORDS)].capitalize()} {WORDS[(n * 3) % len(WORDS)]} notes {n + 1}",
        content=content,
        author=authors[name],
        date_posted=start + timedelta(hours=n * 5),
    )
print("django_blog seeded:", Post.objects.count(), "posts")
