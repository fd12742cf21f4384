"""Seed FluxBB (Visman's edition) for the corpus: run the app's own installer on SQLite, then fill the
board straight into its tables. Run by the corpus: `python ho9_fluxbb_seed.py ROOT`.

The installer is the app's `install.php` form, posted to a short-lived `php -S` on another loopback
port; it writes `include/config.php` and the schema (the board's base URL is set to the serving port by
`ho9_fluxbb_serve.py`, which knows it). The rest is rows: two categories, three
forums (36, 24 and 8 topics: four, three and one pages of 10), a long topic of 27 posts (three
pages), members alice/bob/carol/dave/erin (`corpus-<name>-pw`; the explorer logs in as alice, who
started topics and wrote replies), a member who joined today without posting, two accounts awaiting
e-mail verification, and one topic whose subject someone pasted markup into. Post counts, last-post
columns and topic/forum totals are kept as the app keeps them, and its file caches are emptied."""

import json
import random
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

root = Path(sys.argv[1])
DB_NAME = "corpus-forum.sqlite"
PREFIX = "fx_"
NOW = int(time.time())
DAY = 86400
rng = random.Random(9)

for stale in [root / "include" / "config.php", root / DB_NAME, *(root / "cache").glob("cache_*.php")]:
    stale.unlink(missing_ok=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def install() -> None:
    """Post the installer's one form, as a person would, to a temporary server."""
    install_port = free_port()
    server = subprocess.Popen(
        ["php", "-S", f"127.0.0.1:{install_port}", "-t", str(root)],
        cwd=root,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{install_port}/install.php"
        for _ in range(50):
            try:
                urllib.request.urlopen(url, timeout=5).read()
                break
            except OSError:
                time.sleep(0.2)
        form = {
            "form_sent": "1",
            "install_lang": "English",
            "req_db_type": "sqlite3",
            "req_db_host": "localhost",
            "req_db_name": DB_NAME,
            "req_db_prefix": PREFIX,
            "req_username": "admin",
            "req_password1": "corpus-admin-pw",
            "req_password2": "corpus-admin-pw",
            "req_email": "admin@example.test",
            "req_title": "Corpus Forum",
            "desc": "<p><span>A board for people who fix things.</span></p>",
            "req_base_url": "http://127.0.0.1",
            "req_default_lang": "English",
            "req_default_style": "Air",
        }
        body = urllib.request.urlopen(url, urllib.parse.urlencode(form).encode(), timeout=120).read().decode()
        if "has been installed" not in body:
            raise SystemExit("FluxBB installer did not finish:\n" + body[:2000])
    finally:
        server.terminate()
        server.wait(timeout=10)


install()

MEMBERS = ["alice", "bob", "carol", "dave", "erin"]
hashes = json.loads(
    subprocess.run(
        [
            "php",
            "-r",
            "$o = []; foreach (array_slice($argv, 1) as $n) $o[$n] = password_hash('corpus-'.$n.'-pw', PASSWORD_DEFAULT);"
            " echo json_encode($o);",
            *MEMBERS,
            "newbie",
            "pending1",
            "pending2",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
)

db = sqlite3.connect(root / DB_NAME)
db.execute("PRAGMA foreign_keys = OFF")


def t(name: str) -> str:
    return PREFIX + name


# Settings: ten topics and ten posts a page (the defaults are 30 and 25), no form-name scrambling
# (the login form's field names change per request otherwise), members may edit and delete their
# own posts at any age.
for name, value in {
    "o_disp_topics_default": "10",
    "o_disp_posts_default": "10",
    "o_crypto_enable": "0",
    "o_regs_verify": "0",
    "o_show_post_count": "1",
}.items():
    db.execute(f"UPDATE {t('config')} SET conf_value=? WHERE conf_name=?", (value, name))
db.execute(f"UPDATE {t('groups')} SET g_deledit_interval=0 WHERE g_id=4")
db.execute(f"UPDATE {t('users')} SET disp_topics=NULL, disp_posts=NULL")

# The installer's sample category, forum, topic and post go; ours come instead.
for table in ("categories", "forums", "topics", "posts", "search_matches", "search_words"):
    db.execute(f"DELETE FROM {t(table)}")
# the administrator has run the board for a while
db.execute(
    f"UPDATE {t('users')} SET num_posts=0, last_post=NULL, registered=? WHERE id=2", (NOW - 500 * DAY,)
)

users: dict[str, int] = {"admin": 2}
for index, name in enumerate(MEMBERS):
    registered = NOW - (400 - index * 30) * DAY
    cursor = db.execute(
        f"INSERT INTO {t('users')} (group_id, username, password, email, registered, registration_ip, last_visit,"
        " language, style, location) VALUES (4, ?, ?, ?, ?, '127.0.0.1', ?, 'English', 'Air', ?)",
        (
            name,
            hashes[name],
            f"{name}@example.test",
            registered,
            NOW - DAY,
            ["Lyon", "Oslo", "Porto", "Graz", "Turku"][index],
        ),
    )
    users[name] = int(cursor.lastrowid or 0)
# joined today, has not posted yet
db.execute(
    f"INSERT INTO {t('users')} (group_id, username, password, email, registered, registration_ip, last_visit,"
    " language, style) VALUES (4, 'newbie', ?, 'newbie@example.test', ?, '127.0.0.1', ?, 'English', 'Air')",
    (hashes["newbie"], NOW - 3600, NOW - 3600),
)
# signed up, never confirmed their address: not members yet
for name in ("pending1", "pending2"):
    db.execute(
        f"INSERT INTO {t('users')} (group_id, username, password, email, registered, registration_ip, last_visit,"
        " language, style, activate_string, activate_key) VALUES (0, ?, ?, ?, ?, '127.0.0.1', 0, 'English', 'Air',"
        " ?, 'k3y')",
        (name, hashes[name], f"{name}@example.test", NOW - 2 * DAY, f"{name}@example.test"),
    )

db.execute(
    f"INSERT INTO {t('categories')} (id, cat_name, disp_position) VALUES (1, 'Community', 1), (2, 'Projects', 2)"
)
FORUMS = [
    (1, "General discussion", "Anything that is on your mind.", 1, 1, 36),
    (2, "Help and support", "Stuck? Ask here.", 1, 2, 24),
    (3, "Show and tell", "What you built this month.", 2, 1, 8),
]
for fid, fname, desc, cat, pos, _ in FORUMS:
    db.execute(
        f"INSERT INTO {t('forums')} (id, forum_name, forum_desc, cat_id, disp_position) VALUES (?, ?, ?, ?, ?)",
        (fid, fname, desc, cat, pos),
    )

SUBJECTS = [
    "Best way to learn soldering",
    "Bike chain keeps slipping",
    "Sourdough starter smells odd",
    "Which multimeter for a beginner",
    "Fixing a wobbly table",
    "Replacing a laptop hinge",
    "Garden hose connector leaks",
    "Old radio restoration tips",
    "Sharpening kitchen knives",
    "Patching a bicycle tube",
    "Resetting a stuck thermostat",
    "Squeaky door hinge",
    "Reupholstering a chair",
    "Cracked phone screen options",
    "Drill bits for tiles",
    "Oil for a sewing machine",
    "Lamp flickers at night",
    "Toaster only heats one side",
    "Tent pole snapped",
    "Headphones cut out on the left",
]
BODIES = [
    "I tried the usual things and it still happens. Any ideas?",
    "Same here, it turned out to be a loose screw in the end.",
    "Have you checked the manual? Page twelve covers this.",
    "A photo would help, hard to tell from the description.",
    "Thanks, that worked for me as well.",
    "I would replace the part, they are cheap these days.",
    "Careful with the power off first, learned that the hard way.",
    "Bumping this, I have the same question.",
]


def add_post(topic_id: int, poster: str, message: str, posted: int) -> int:
    cursor = db.execute(
        f"INSERT INTO {t('posts')} (poster, poster_id, poster_ip, message, posted, topic_id) VALUES (?, ?, '127.0.0.1', ?, ?, ?)",
        (poster, users[poster], message, posted, topic_id),
    )
    db.execute(
        f"UPDATE {t('users')} SET num_posts=num_posts+1, last_post=MAX(COALESCE(last_post, 0), ?) WHERE id=?",
        (posted, users[poster]),
    )
    return int(cursor.lastrowid or 0)


def add_topic(forum_id: int, subject: str, starter: str, posted: int, replies: list[str]) -> None:
    cursor = db.execute(
        f"INSERT INTO {t('topics')} (poster, subject, posted, forum_id, num_views) VALUES (?, ?, ?, ?, ?)",
        (starter, subject, posted, forum_id, rng.randint(3, 300)),
    )
    topic_id = int(cursor.lastrowid or 0)
    first = add_post(topic_id, starter, f"{subject}. {rng.choice(BODIES)}", posted)
    last_id, last_time, last_poster = first, posted, starter
    for offset, poster in enumerate(replies, start=1):
        last_time = posted + offset * 3600
        last_id = add_post(topic_id, poster, rng.choice(BODIES), last_time)
        last_poster = poster
    db.execute(
        f"UPDATE {t('topics')} SET first_post_id=?, last_post=?, last_post_id=?, last_poster=?, num_replies=? WHERE id=?",
        (first, last_time, last_id, last_poster, len(replies), topic_id),
    )


POSTERS = ["alice", "bob", "carol", "dave", "erin"]
start = NOW - 300 * DAY
for fid, _, _, _, _, count in FORUMS:
    for number in range(count):
        start += rng.randint(2, 5) * DAY // 3
        subject = SUBJECTS[number % len(SUBJECTS)]
        if number >= len(SUBJECTS):
            subject = f"{subject} (again)"
        if fid == 3:
            subject = (
                f"Project log {number + 1}: "
                + ["a shelf", "a lamp", "a clock", "a kite", "a stool", "a radio", "a planter", "a bird box"][
                    number
                ]
            )
        starter = POSTERS[(number + fid) % len(POSTERS)]
        if fid == 2 and number == 20:
            # someone pasted markup into a subject (a recent topic: the forum's first page); it must show as text
            subject = "Formatting help <script>alert('ho9-forum')</script> please"
        if fid == 1 and number == 20:
            # the board's long thread: 27 posts, three pages
            replies = [POSTERS[i % len(POSTERS)] for i in range(26)]
            add_topic(fid, "Show your workbench", "alice", start, replies)
            continue
        replies = [rng.choice(POSTERS) for _ in range(rng.randint(0, 4))]
        if starter != "alice" and number % 3 == 0:
            replies.append("alice")
        add_topic(fid, subject, starter, start, replies)

# the forums' totals and last posts, as FluxBB's update_forum() leaves them
for fid, *_ in FORUMS:
    topics, replies = db.execute(
        f"SELECT COUNT(*), COALESCE(SUM(num_replies), 0) FROM {t('topics')} WHERE forum_id=?", (fid,)
    ).fetchone()
    last = db.execute(
        f"SELECT last_post, last_post_id, last_poster, subject FROM {t('topics')} WHERE forum_id=? ORDER BY last_post DESC LIMIT 1",
        (fid,),
    ).fetchone()
    db.execute(
        f"UPDATE {t('forums')} SET num_topics=?, num_posts=?, last_post=?, last_post_id=?, last_poster=?, last_topic=? WHERE id=?",
        (topics, topics + replies, *last, fid),
    )
db.commit()
db.close()
for cache in (root / "cache").glob("cache_*.php"):
    cache.unlink()
print("seeded FluxBB: users", len(users) + 3, "forums", len(FORUMS))
