"""Seed linkding (sissbruecker/linkding) for the corpus: held-out set 3.

Run by `python -m corpus run` before every start, with the checkout's virtualenv and
DJANGO_SETTINGS_MODULE=bookmarks.settings.prod: `{venv}/bin/python ho3_linkding_seed.py {root}`
migrates a fresh `data/db.sqlite3` and fills it through linkding's own models. The data is ours and
fixed: alice (`corpus-alice-pw`, the explorer's account, the instance's superuser) with 75 bookmarks (the list shows 30 a page)
under 14 tags, notes on some, two imported from a browser (a Firefox `place:` query and a mailto link,
as browser exports have them), one description pasted with markup; bob and carol with bookmarks and tags
of their own; alice and bob share some bookmarks publicly (the public shared list pages too).
"""

import os
import sys
from datetime import timedelta
from pathlib import Path

root = Path(sys.argv[1])
sys.path.insert(0, str(root))
os.chdir(root)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bookmarks.settings.prod")
data = root / "data"
data.mkdir(exist_ok=True)
for name in ("db.sqlite3", "tasks.sqlite3"):
    (data / name).unlink(missing_ok=True)
# a fixed key: sessions survive nothing but one start, yet the log-in cookie stays valid for it
(data / "secretkey.txt").write_text("corpus-not-secret-" + "k" * 40, encoding="utf-8")

import django  # noqa: E402

django.setup()
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

call_command("migrate", verbosity=0)
from bookmarks.models import Bookmark, Tag  # noqa: E402

start = timezone.now() - timedelta(days=400)
users = {}
for name in ("alice", "bob", "carol"):
    # alice is the instance's owner: linkding's setup makes the first user a superuser
    # (LD_SUPERUSER_NAME in its Docker image, `createsuperuser` in its docs)
    create = User.objects.create_superuser if name == "alice" else User.objects.create_user
    user = create(name, f"{name}@corpus.example", f"corpus-{name}-pw")
    users[name] = user
    profile = user.profile
    profile.enable_sharing = name in ("alice", "bob")
    profile.enable_public_sharing = name in ("alice", "bob")
    profile.save()

TAGS = {
    "alice": "python django css design recipes travel reading tools linux security music hiking "
    "photography work".split(),
    "bob": "rust golang kubernetes cooking cycling books chess gardening climbing".split(),
    "carol": "history maps poetry statistics knitting astronomy opera film birding".split(),
}
tags = {}
for owner, names in TAGS.items():
    tags[owner] = [Tag.objects.create(name=t, owner=users[owner], date_added=start) for t in names]

SITES = [
    ("Writing idiomatic {t} code", "docs.{t}.org/guide", "A long read on style, naming and tests."),
    (
        "{t}: ten things I wish I had known",
        "blog.example.org/{t}-tips",
        "Collected advice from a year of use.",
    ),
    ("The {t} weekly newsletter", "weekly.example.net/{t}", "Links and news, every Friday."),
    ("Ask the community: {t}", "forum.example.com/c/{t}", "Questions and answers, searchable."),
    ("A field guide to {t}", "guides.example.org/{t}", ""),
]


def add(owner: str, n: int, **extra: object) -> Bookmark:
    owner_tags = tags[owner]
    tag = owner_tags[n % len(owner_tags)]
    title, path, description = SITES[n % len(SITES)]
    values = {
        "url": f"https://{path.format(t=tag.name)}/{n}",
        "title": title.format(t=tag.name.capitalize()),
        "description": description,
        "notes": f"Read on {n % 28 + 1}. Worth a second look.\n\n- point one\n- point two"
        if n % 4 == 0
        else "",
        "owner": users[owner],
        "date_added": start + timedelta(days=n, hours=n % 7),
        "date_modified": start + timedelta(days=n, hours=n % 7),
        "unread": n % 6 == 0,
        "shared": n % 2 == 0,
    }
    values.update(extra)
    bookmark = Bookmark.objects.create(**values)
    bookmark.tags.add(tag)
    if n % 3 == 0:
        bookmark.tags.add(owner_tags[(n + 5) % len(owner_tags)])
    return bookmark


for n in range(72):
    add("alice", n)
# imported from a browser's bookmark file: Firefox's "Most Visited" query and a mail link, as kept
add("alice", 72, url="place:sort=8&maxResults=10", title="Most Visited", description="", shared=False)
add("alice", 73, url="mailto:team@corpus.example", title="Mail the team", description="", shared=False)
# pasted from a web page, markup and all (the app must show it as text)
add(
    "alice",
    74,
    title="Conference talk notes",
    description="Slides: https://talks.example.org/42 <script>alert('corpus-xss')</script> (ask for the recording)",
    shared=True,
)
for n in range(30):
    add("bob", 200 + n, shared=True)
for n in range(12):
    add("carol", 300 + n)
print(
    "linkding seeded:",
    User.objects.count(),
    "users,",
    Bookmark.objects.count(),
    "bookmarks,",
    Tag.objects.count(),
    "tags",
)
