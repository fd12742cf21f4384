"""Seed FreshRSS for the corpus: a fresh install through its own CLI (`cli/do-install.php`: SQLite,
form login, anonymous reading of the default user's articles allowed; `cli/create-user.php`: alice,
`corpus-alice-pw`, who keeps the default "FreshRSS releases" subscription, never refreshed, so
empty), then alice's categories, feeds and articles written into her SQLite database the way a
refresh stores them (titles, authors and contents HTML-escaped/sanitised on the way in). Six more
feeds in three categories, 143 articles (the main stream pages by 20 with "Load more"), five
favourites plus two in an archived feed, a feed idle for two years, one author name holding pasted
markup. Run by the corpus: `python ho8_freshrss_seed.py ROOT PORT`."""

import html
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

root = Path(sys.argv[1])
port = sys.argv[2]
data = root / "data"

# what an install leaves behind (the tracked skeleton stays)
(data / "config.php").unlink(missing_ok=True)
(data / "applied_migrations.txt").unlink(missing_ok=True)
(data / "config.custom.php").unlink(missing_ok=True)
for user in (data / "users").iterdir() if (data / "users").exists() else []:
    if user.is_dir() and user.name != "_":
        shutil.rmtree(user)
for cached in (data / "cache").glob("*.spc"):
    cached.unlink()


def php(*args: str) -> None:
    subprocess.run(["php", *args], cwd=root, check=True, stdout=subprocess.DEVNULL)


# a test instance open to crawlers (the default asks them to keep out: meta robots noindex,nofollow)
(data / "config.custom.php").write_text("<?php\nreturn ['allow_robots' => true];\n")
php(
    "cli/do-install.php",
    "--default-user",
    "alice",
    "--auth-type",
    "form",
    "--environment",
    "production",
    "--base-url",
    f"http://127.0.0.1:{port}",
    "--language",
    "en",
    "--title",
    "FreshRSS",
    "--allow-anonymous",
    "--db-type",
    "sqlite",
)
php("cli/create-user.php", "--user", "alice", "--password", "corpus-alice-pw", "--language", "en")

db = sqlite3.connect(data / "users" / "alice" / "db.sqlite")
now = int(time.time())
DAY = 86400

CATEGORIES = ["Gardening", "Cooking", "Local news"]
cat_ids = {}
for name in CATEGORIES:
    cat_ids[name] = db.execute("INSERT INTO category (name) VALUES (?)", (name,)).lastrowid

# name, category, website, priority (10 main stream, -10 archived), articles, newest article (days ago)
FEEDS = [
    ("Allotment Diary", "Gardening", "https://allotment.example.test/", 10, 40, 0),
    ("Seed Savers Bulletin", "Gardening", "https://seedsavers.example.test/", 10, 25, 1),
    ("Weeknight Kitchen", "Cooking", "https://kitchen.example.test/", 10, 40, 0),
    ("Bread Notes", "Cooking", "https://bread.example.test/", 10, 20, 2),
    ("Town Council Minutes", "Local news", "https://council.example.test/", 10, 12, 730),
    ("Old Harbour Blog (archived)", "Local news", "https://harbour.example.test/", -10, 6, 400),
]
TOPICS = {
    "Allotment Diary": [
        "Sowing broad beans",
        "Netting the brassicas",
        "Compost turned",
        "First earlies lifted",
    ],
    "Seed Savers Bulletin": [
        "Tomato seed fermenting",
        "Bean swap results",
        "Isolation distances",
        "Drying pods",
    ],
    "Weeknight Kitchen": ["Lentil soup", "Sheet-pan gnocchi", "Quick dal", "Leek and potato pie"],
    "Bread Notes": ["Starter revived", "Rye ratios", "Overnight focaccia", "Scoring patterns"],
    "Town Council Minutes": ["Parking review", "Library hours", "Footpath repairs", "Budget consultation"],
    "Old Harbour Blog (archived)": ["Boat yard sale", "Tide tables", "Harbour wall", "Regatta photos"],
}
AUTHORS = ["Maud Pike", "Ravi Sen", "Ola Berg", "Tomasz Nowak", "June Abara"]

n = 0
for name, category, website, priority, count, newest in FEEDS:
    feed_id = db.execute(
        "INSERT INTO feed (url, category, name, website, description, lastUpdate, priority, ttl)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
        (
            website + "feed.xml",
            cat_ids[category],
            html.escape(name),
            website,
            f"News and notes from {name}.",
            now,
            priority,
        ),
    ).lastrowid
    for k in range(count):
        n += 1
        when = now - (newest * DAY) - k * (DAY // 2) - n * 37
        title = f"{TOPICS[name][k % 4]}, part {k // 4 + 1}"
        author = AUTHORS[(n + k) % len(AUTHORS)]
        if name == "Seed Savers Bulletin" and k == 12:
            # a contributor's display name with pasted markup, stored escaped as a refresh stores it
            author = "<script>alert('fresh')</script> Ivy Moss"
        favourite = (name in ("Allotment Diary", "Bread Notes") and k in (3, 9)) or (
            name == "Weeknight Kitchen" and k == 5
        )
        favourite = favourite or (priority < 0 and k in (1, 2))
        db.execute(
            "INSERT INTO entry (id, guid, title, author, content, link, date, lastSeen, is_read, is_favorite,"
            " id_feed, tags, attributes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', '{}')",
            (
                when * 1000000 + n,
                f"{website}posts/{k + 1}",
                html.escape(title),
                html.escape(author),
                f"<p>{html.escape(title)}: notes for the week, with photos to follow.</p>",
                f"{website}posts/{k + 1}",
                when,
                now,
                # favourites unread: the views show unread articles only while there are some
                0 if favourite else 1 if (k % 3 == 2 or newest > 300) else 0,
                1 if favourite else 0,
                feed_id,
            ),
        )
db.execute(
    "UPDATE feed SET cache_nbEntries = (SELECT COUNT(*) FROM entry e WHERE e.id_feed = feed.id),"
    " cache_nbUnreads = (SELECT COUNT(*) FROM entry e WHERE e.id_feed = feed.id AND e.is_read = 0)"
)
db.commit()
print(f"seeded {n} articles in {len(FEEDS)} feeds")
