"""Seed the corpus's py4web seed library: copy the framework's `_scaffold` app to
`ROOT/corpus_apps/seeds` (fresh each time, so the checkout's injected `_scaffold` is what runs), put
our `ho8_py4web_app.py` in as its controllers and a grid template beside it, then fill a fresh
SQLite database through the app's own DAL: members alice and bob (`corpus-<name>-pw`), 9 suppliers,
64 varieties (7 catalogue pages of 10, 5 varieties pages of 15), three without a last-sown date (in
the catalogue's third page by name), three whose name holds "test", one whose notes hold pasted
markup (second page). Run by the corpus with the app's virtualenv: `python ho8_py4web_seed.py ROOT`."""

import datetime
import random
import shutil
import sys
from pathlib import Path

root = Path(sys.argv[1])
apps = root / "corpus_apps"
app = apps / "seeds"
shutil.rmtree(apps, ignore_errors=True)
apps.mkdir()
(apps / "__init__.py").write_text("")
shutil.copytree(
    root / "apps" / "_scaffold", app, ignore=shutil.ignore_patterns("databases", ".service", "uploads")
)
shutil.copy(Path(__file__).with_name("ho8_py4web_app.py"), app / "controllers.py")
# the scaffold reads its secrets from an optional settings_private.py; its cookie session wants one
(app / "settings_private.py").write_text('SESSION_SECRET_KEY = "corpus-Seed-Library-not-secret-4f9c2b7e"\n')
(app / "templates" / "grid.html").write_text(
    """[[extend "layout.html"]]
[[block page_left_menu]]<ul>[[for label, url in menu:]]<li><a href="[[=url]]">[[=label]]</a></li>[[pass]]</ul>[[end]]
<h1>[[=title]]</h1>
[[=grid.render()]]
"""
)

sys.path.insert(0, str(apps))
from pydal.validators import CRYPT  # noqa: E402
from seeds.common import db  # noqa: E402  (the app exists only now)

rng = random.Random(8)

for name, first in (("alice", "Alice"), ("bob", "Bob")):
    db.auth_user.insert(
        username=name,
        email=f"{name}@example.test",
        first_name=first,
        last_name="Gardener",
        password=str(CRYPT()(f"corpus-{name}-pw")[0]),
    )

SUPPLIERS = [
    ("Heritage Seed Co-op", "Ludlow"),
    ("Northfield Growers", "Alnwick"),
    ("Old Orchard Seeds", "Hereford"),
    ("Riverside Allotments", "Bath"),
    ("Sunny Bank Nursery", "Truro"),
    ("The Seed Box", "York"),
    ("Valley Heirlooms", "Brecon"),
    ("Westmarsh Farm", "Ely"),
    ("Willow Lane Plants", "Kendal"),
]
suppliers = [
    db.supplier.insert(name=name, town=town, website=f"https://{name.split()[0].lower()}.example.test")
    for name, town in SUPPLIERS
]

CROPS = {
    "Bean": ["Blue Lake", "Cobra", "Borlotto", "Painted Lady", "Scarlet Emperor", "Kentucky Wonder"],
    "Beetroot": ["Boltardy", "Chioggia", "Cylindra", "Detroit Dark Red", "Golden Burpee"],
    "Carrot": ["Autumn King", "Chantenay", "Nantes", "Purple Haze", "Early Market"],
    "Kale": ["Cavolo Nero", "Dwarf Green Curled", "Red Russian", "Pentland Brig"],
    "Lettuce": ["All Year Round", "Little Gem", "Lollo Rosso", "Tom Thumb", "Webbs Wonderful"],
    "Pea": ["Hurst Green Shaft", "Kelvedon Wonder", "Onward", "Oregon Sugar Pod", "Alderman"],
    "Squash": ["Butternut", "Crown Prince", "Uchiki Kuri", "Turk's Turban", "Sweet Dumpling"],
    "Tomato": ["Ailsa Craig", "Gardener's Delight", "Moneymaker", "Sungold", "San Marzano"],
    "Chard": ["Bright Lights", "Fordhook Giant", "Rhubarb Chard"],
    "Radish": ["Cherry Belle", "French Breakfast", "Sparkler"],
    "Onion": ["Red Baron", "Sturon", "Ailsa Craig Exhibition", "Bedfordshire Champion"],
    "Leek": ["Musselburgh", "Autumn Giant", "Lancelot"],
    "Parsnip": ["Gladiator", "Tender and True", "Hollow Crown"],
    "Spinach": ["Giant Winter", "Matador", "Perpetual"],
    "Cucumber": ["Marketmore", "Telegraph Improved"],
}
# three names the explorer's search word ("test") finds
CROPS["Tomato"].append("Contest Winner")
CROPS["Pea"].append("Latest Crop")
CROPS["Bean"].append("Protester's Pole")
rows = sorted((name, crop) for crop, names in CROPS.items() for name in names)
assert len(rows) == 64, len(rows)
DAY0 = datetime.date(2025, 3, 1)
for n, (name, crop) in enumerate(rows):
    notes = f"{crop} from the {2019 + n % 6} swap; germinates well in a cold frame."
    if n == 14:  # second catalogue page: someone pasted markup into the notes
        notes = "Great yields <script>alert('seeds')</script> on heavy clay."
    db.variety.insert(
        name=name,
        crop=crop,
        supplier=suppliers[n % len(suppliers)] if n % 11 else None,
        days_to_maturity=rng.randint(25, 140),
        packets=rng.randint(0, 30),
        # varieties 22-24 (the catalogue's third page by name) were never sown
        last_sown=None if n in (22, 23, 24) else DAY0 + datetime.timedelta(days=n * 3),
        notes=notes,
    )
db.commit()
print(f"seeded {db(db.variety).count()} varieties, {db(db.supplier).count()} suppliers")
