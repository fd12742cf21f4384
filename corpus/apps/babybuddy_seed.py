"""Seed Baby Buddy (babybuddy/babybuddy) for the corpus.

Run by `python -m corpus run` before every start, with the app's own virtualenv:
`{venv}/bin/python corpus/apps/babybuddy_seed.py {root}` (the settings module, SECRET_KEY and DB_NAME
come from the app file's `env`). A fresh migrated database (Baby Buddy's own `migrate` also makes its
default admin), the caregiver alice (`corpus-alice-pw`, the explorer's login: every permission on the
tracked data, not staff) with ten rows a page, two children and enough feedings, diaper changes,
sleep, tummy time and notes that every list pages. The text and times are ours and fixed, so every
run explores the same site.
"""

import os
import sys
from datetime import UTC, datetime, timedelta

ROOT = sys.argv[1]
sys.path.insert(0, ROOT)
os.chdir(ROOT)
database = os.environ["DB_NAME"]
if os.path.exists(database):
    os.remove(database)

import django  # noqa: E402

django.setup()

from core.models import Child, DiaperChange, Feeding, Note, Sleep, TummyTime  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Permission  # noqa: E402
from django.core.management import call_command  # noqa: E402

call_command("migrate", verbosity=0)

WORDS = (
    "calm fussy sleepy hungry giggly curious drowsy alert happy teething restless content "
    "playful quiet cuddly"
).split()
BASE = datetime(2026, 11, 20, 6, 0, tzinfo=UTC)

alice = get_user_model().objects.create_user(
    "alice", password="corpus-alice-pw", first_name="Alice", last_name="Okafor"
)
# a caregiver, not the site's operator: every permission on the tracked data, no staff pages (the
# user list, the Django admin of Baby Buddy's default `admin`)
alice.user_permissions.set(Permission.objects.filter(content_type__app_label="core"))
alice.settings.pagination_count = 10
alice.settings.save()

mira = Child.objects.create(first_name="Mira", last_name="Okafor", birth_date=datetime(2026, 6, 1).date())
teo = Child.objects.create(first_name="Teo", last_name="Okafor", birth_date=datetime(2024, 2, 10).date())

feed_types = ("breast milk", "formula", "breast milk", "solid food")
feed_methods = {"breast milk": "left breast", "formula": "bottle", "solid food": "self fed"}
for n in range(34):
    child = mira if n % 3 else teo
    start = BASE - timedelta(hours=3 * n + n % 2)
    kind = feed_types[n % 4] if child is mira else "solid food"
    Feeding.objects.create(
        child=child,
        start=start,
        end=start + timedelta(minutes=12 + n % 9),
        type=kind,
        method=feed_methods[kind]
        if n % 5
        else ("right breast" if kind == "breast milk" else feed_methods[kind]),
        # bottles and meals are measured; nursing is not, and one bottle went unmeasured
        amount=None if feed_methods[kind].endswith("breast") or n == 25 else float(60 + 10 * (n % 6)),
        notes=f"Seemed {WORDS[n % len(WORDS)]} afterwards." if n % 4 == 1 else None,
    )
for n in range(27):
    DiaperChange.objects.create(
        child=mira if n % 4 else teo,
        time=BASE - timedelta(hours=4 * n + 1),
        wet=n % 3 != 2,
        solid=n % 3 != 0,
        color=("yellow", "brown", "green", "")[n % 4] if n % 3 else "",
        notes=f"A {WORDS[(n * 3) % len(WORDS)]} change." if n % 5 == 0 else None,
    )
for n in range(23):
    start = BASE - timedelta(hours=7 * n + 2)
    Sleep.objects.create(
        child=mira if n % 3 else teo,
        start=start,
        end=start + timedelta(minutes=40 + 17 * (n % 7)),
        nap=n % 2 == 0,
        notes=f"Woke up {WORDS[(n * 5) % len(WORDS)]}." if n % 4 == 0 else None,
    )
for n in range(13):
    start = BASE - timedelta(hours=11 * n + 5)
    TummyTime.objects.create(
        child=mira,
        start=start,
        end=start + timedelta(minutes=4 + n % 6),
        milestone="Lifted her head" if n == 4 else "",
    )
for n in range(16):
    text = f"{WORDS[n % len(WORDS)].capitalize()} morning, {WORDS[(n * 7) % len(WORDS)]} evening."
    if n == 3:
        # pasted from a chat message as it was written
        text = 'Grandma said hi <script>alert("corpus-xss")</script>'
    Note.objects.create(child=mira if n % 2 else teo, note=text, time=BASE - timedelta(hours=9 * n + 3))
