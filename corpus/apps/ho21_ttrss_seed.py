"""Seed Tiny Tiny RSS for the corpus: a fresh private PostgreSQL cluster, the schema, and reading matter.

The schema is Tiny Tiny RSS's own (`update.php --update-schema=force-yes`), the admin's password is
set through `update.php --user-set-password`; the rest goes straight into the tables: 4 categories,
14 feeds (every feed URL is on 127.0.0.1's discard port, and no updater runs, so nothing is fetched),
one of them with 130 articles (the headlines list loads 30 at a time), 330 articles in all, some
starred or read (some both), notes on two older ones (not among the
fresh articles the start page shows), 3 labels; the admin's full name and e-mail; the
feed tree shows feeds without category folders (the user preference). One article body carries the `<img onerror>` a hostile feed sends.

Usage: ho21_ttrss_seed.py ROOT   (env: the TTRSS_* settings of the app file)
"""

import datetime
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ho21_ttrss_pg as pg  # noqa: E402

CATEGORIES = ["News", "Technology", "Science", "Blogs"]
FEEDS = [
    ("World Desk", 0, 130),
    ("City Hall Notes", 0, 20),
    ("Weather Office", 0, 12),
    ("Kernel Changelog", 1, 40),
    ("Compiler Weekly", 1, 18),
    ("Database Digest", 1, 15),
    ("Open Hardware", 1, 9),
    ("Astronomy Picture Notes", 2, 25),
    ("Field Biology", 2, 14),
    ("Lab Methods", 2, 8),
    ("A Gardener's Log", 3, 11),
    ("Bread and Ovens", 3, 10),
    ("Night Trains", 3, 10),
    ("Uncategorized Finds", None, 8),
]
WORDS = [
    "river",
    "quiet",
    "signal",
    "harbour",
    "lantern",
    "meadow",
    "copper",
    "orbit",
    "ledger",
    "willow",
    "beacon",
    "granite",
]


def q(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def seed_sql() -> str:
    out = ["begin;"]
    for i, title in enumerate(CATEGORIES, 1):
        out.append(
            f"insert into ttrss_feed_categories (id, owner_uid, title, order_id) values ({i}, 1, {q(title)}, {i});"
        )
    now = datetime.datetime.now().replace(microsecond=0)
    entry = 0
    for f, (title, cat, count) in enumerate(FEEDS, 1):
        cat_sql = "null" if cat is None else str(cat + 1)
        slug = title.lower().replace(" ", "-").replace("'", "")
        out.append(
            "insert into ttrss_feeds (id, owner_uid, title, cat_id, feed_url, site_url, last_updated,"
            f" last_successful_update) values ({f}, 1, {q(title)}, {cat_sql},"
            f" {q(f'http://127.0.0.1:9/{slug}.xml')}, {q(f'http://127.0.0.1:9/{slug}/')}, {q(str(now))}, {q(str(now))});"
        )
        for n in range(count):
            entry += 1
            when = now - datetime.timedelta(hours=3 * n + f)
            w1, w2 = WORDS[(entry + f) % len(WORDS)], WORDS[(entry * 7) % len(WORDS)]
            head = f"{title}: the {w1} and the {w2}, part {n + 1}"
            body = (
                f"<p>Dispatch {n + 1} from {title}. The {w1} report covers the {w2} question "
                f"in some detail.</p><p>Second paragraph, entry {entry}.</p>"
            )
            if f == 2 and n == 10:
                body += (
                    '<p>Photo: <img src="/x-missing.png" onerror="document.body.dataset.xss=\'ttrss\'"></p>'
                )
            out.append(
                "insert into ttrss_entries (id, title, guid, link, updated, content, content_hash,"
                " date_entered, date_updated, author) values"
                f" ({entry}, {q(head)}, {q(f'corpus:{entry}')}, {q(f'http://127.0.0.1:9/{slug}/{n + 1}')},"
                f" {q(str(when))}, {q(body)}, {q(f'sha1:{entry:040d}')}, {q(str(when))}, {q(str(when))},"
                f" {q(['Ana Ruiz', 'Tom Berg', 'Mei Lin'][entry % 3])});"
            )
            unread = "false" if n % 4 == 3 else "true"
            marked = "true" if n % 6 == 3 else "false"
            note = (
                q(f"Check the figures against run {n + 1}.")
                if title == "Lab Methods" and n in (5, 7)
                else "null"
            )
            out.append(
                "insert into ttrss_user_entries (ref_id, uuid, feed_id, owner_uid, marked, tag_cache,"
                f" label_cache, unread, note) values ({entry}, '', {f}, 1, {marked}, '', '', {unread}, {note});"
            )
    for i, (caption, fg, bg) in enumerate(
        [
            ("Follow up", "#ffffff", "#d9534f"),
            ("Reference", "#000000", "#f0ad4e"),
            ("Share", "#ffffff", "#5bc0de"),
        ],
        1,
    ):
        out.append(
            f"insert into ttrss_labels2 (id, owner_uid, caption, fg_color, bg_color) values ({i}, 1, {q(caption)}, {q(fg)}, {q(bg)});"
        )
    out.append(
        "insert into ttrss_user_labels2 (label_id, article_id) select 1 + id % 3, id from ttrss_entries where id % 5 = 0;"
    )
    for table in ("ttrss_feed_categories", "ttrss_feeds", "ttrss_entries", "ttrss_labels2"):
        out.append(f"select setval(pg_get_serial_sequence('{table}', 'id'), (select max(id) from {table}));")
    # the feed tree without category folders: every feed one click from the start page
    out.append(
        "insert into ttrss_user_prefs2 (owner_uid, pref_name, profile, value)"
        " values (1, 'ENABLE_FEED_CATS', null, 'false');"
    )
    out.append(
        "update ttrss_users set full_name = 'Corpus Admin', email = 'admin@ttrss.test' where login = 'admin';"
    )
    out.append("commit;")
    return "\n".join(out)


def main(root: Path) -> None:
    pg.init(root)
    server = pg.start(root)
    try:
        pg.psql(root, "create database ttrss;", db="postgres")
        php = ["php", str(root / "update.php")]
        subprocess.run([*php, "--update-schema=force-yes"], cwd=root, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(
            [*php, "--user-set-password", "admin:corpus-admin-pw"],
            cwd=root,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        pg.psql(root, seed_sql())
    finally:
        pg.stop(server)


if __name__ == "__main__":
    os.umask(0o022)
    main(Path(sys.argv[1]).resolve())
