"""Seed django-wiki's testproject (django-wiki/django-wiki) for the corpus.

Run by `python -m corpus run` before every start, with the app's own virtualenv:
`{venv}/bin/python corpus/apps/django_wiki_seed.py {root}`. A fresh migrated database (the
testproject's `testproject/db.sqlite3` is replaced) with a small cooking wiki: a root article, 45 articles below
it (the directory shows 30 a page), one of them, Recipes, with 9 sub-articles of which one is marked
deleted and one has a title with pasted markup; every third article was once edited anonymously
(the wiki allowed it before; now only signed-in users write). The text is ours and fixed, so every
run explores the same site.
"""

import os
import sys
from datetime import UTC, datetime, timedelta

ROOT = sys.argv[1]
PROJECT = os.path.join(ROOT, "testproject")
sys.path.insert(0, PROJECT)
os.chdir(PROJECT)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "testproject.settings")
DB = os.path.join(PROJECT, "testproject", "db.sqlite3")  # settings.base: next to the settings package
if os.path.exists(DB):
    os.remove(DB)

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from wiki.models import ArticleRevision, URLPath  # noqa: E402

call_command("migrate", verbosity=0)

WORDS = (
    "kettle summit lichen harbour pewter orchard cinder meadow quill basalt "
    "fennel lagoon tinder walnut gravel saffron heron cobble"
).split()
START = datetime(2024, 3, 1, 8, 0, tzinfo=UTC)


def sentence(n: int, length: int) -> str:
    return " ".join(WORDS[(n * 5 + k * 7) % len(WORDS)] for k in range(length)).capitalize() + "."


def body(n: int) -> str:
    return f"# Notes {n}\n\n{sentence(n, 24)}\n\n{sentence(n + 3, 18)}\n\n* {sentence(n + 5, 6)}\n* {sentence(n + 7, 5)}\n"


def revise(urlpath: URLPath, user: User | None, content: str, message: str, when: datetime) -> None:
    """A later revision of an article, as the edit view makes it (user None: an anonymous edit)."""
    article = urlpath.article
    revision = ArticleRevision()
    revision.inherit_predecessor(article)
    revision.content = content
    revision.user_message = message
    revision.user = user
    revision.ip_address = None if user else "192.0.2.17"
    article.add_revision(revision)
    ArticleRevision.objects.filter(pk=revision.pk).update(created=when, modified=when)


users = {
    name: User.objects.create_user(name, f"{name}@example.test", f"corpus-{name}-pw")
    for name in ("alice", "bob")
}
admin = User.objects.create_superuser("admin", "admin@example.test", "corpus-admin-pw")
root = URLPath.create_root(
    title="Kitchen Wiki",
    content="# Kitchen Wiki\n\nShared notes of our kitchen: techniques, tools and [recipes](/recipes/).\n",
    user=admin,
)

made = []
for n in range(44):
    slug = f"{WORDS[n % len(WORDS)]}-{WORDS[(n * 3 + 1) % len(WORDS)]}-{n + 1}"
    title = f"{WORDS[n % len(WORDS)].capitalize()} {WORDS[(n * 3 + 1) % len(WORDS)]} notes {n + 1}"
    author = users["alice"] if n % 2 == 0 else users["bob"]
    made.append(URLPath.create_urlpath(root, slug, title=title, content=body(n), user=author))
recipes = URLPath.create_urlpath(
    root,
    "recipes",
    title="Recipes",
    content="# Recipes\n\nWhat we cook, one page a dish.\n",
    user=users["alice"],
)
made.append(recipes)

dishes = [
    "Walnut bread",
    "Fennel soup",
    "Saffron rice",
    "Heron Bay chowder",
    "Grandma's <script>alert('corpus-xss')</script> scones",  # a contributor pasted markup into a title
    "Cobble pie",
    "Orchard crumble",
    "Pewter pot stew",
    "Lagoon fish cakes",
]
for n, title in enumerate(dishes):
    slug = [
        "walnut-bread",
        "fennel-soup",
        "saffron-rice",
        "chowder",
        "scones",
        "cobble-pie",
        "crumble",
        "stew",
        "fish-cakes",
    ][n]
    dish = URLPath.create_urlpath(recipes, slug, title=title, content=body(100 + n), user=users["bob"])
    made.append(dish)
    if slug == "stew":
        # marked deleted (a normal delete: only moderators still see it listed)
        article = dish.article
        revision = ArticleRevision()
        revision.inherit_predecessor(article)
        revision.deleted = True
        revision.user = users["alice"]
        article.add_revision(revision)

for n, urlpath in enumerate(made):
    when = START + timedelta(hours=n * 7)
    ArticleRevision.objects.filter(article=urlpath.article).update(created=when, modified=when)
    if n % 3 == 1 and urlpath.article.current_revision and not urlpath.article.current_revision.deleted:
        revise(urlpath, None, body(n) + "\nFixed a typo.\n", "typo", when + timedelta(days=2))
    if n % 4 == 0 and not urlpath.article.current_revision.deleted:
        author = users["bob"] if n % 8 == 0 else users["alice"]
        revise(urlpath, author, body(n) + "\nAdded a tip.\n", "tip", when + timedelta(days=3))

print("django_wiki seeded:", URLPath.objects.count(), "pages,", ArticleRevision.objects.count(), "revisions")
