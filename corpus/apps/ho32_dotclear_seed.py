"""Seed Dotclear (PHP, SQLite) for the corpus: the app's own command-line installer on a fresh
`.corpus-db/dotclear.sqlite` (config file, tables, the admin account and the default blog), then
blog settings, sidebar widgets, 6 categories, 130 entries (9 of them drafts), 4 pages, tags and 150
comments (some pending) written straight into the tables, as the app would store them.
Usage: ho32_dotclear_seed.py ROOT. The blog's URL names a placeholder port that the serve script
(ho32_dotclear_serve.py) rewrites on every start.
"""

from __future__ import annotations

import datetime
import json
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

PASSWORD = "corpus-admin-pw1"
BASE = "http://127.0.0.1:8181"
CATEGORIES = ["Travel", "Kitchen", "Garden", "Books", "Workshop", "Announcements"]
WORDS = (
    "river morning lantern harbor meadow copper saffron pebble orchard canyon willow ember "
    "granite thistle compass marble lagoon juniper quarry beacon cobalt fennel glacier hazel"
).split()
AUTHORS = ["Maya Lind", "Tomás Ortega", "Ines Berg", "Kofi Mensah", "Lena Vogel", "Ravi Iyer"]


def install(root: Path, db: Path) -> None:
    args = [
        "php",
        "admin/install/index.php",
        "-n",
        "--dbdriver=pdosqlite",
        f"--dbname={db}",
        "--dbprefix=dc_",
        "--adminemail=admin@example.test",
        "--uemail=admin@example.test",
        "--ulogin=admin",
        f"--upassword={PASSWORD}",
        "--ufirstname=Ada",
        "--ulastname=Admin",
        f"--adminurl={BASE}/admin/index.php",
        f"--blogurl={BASE}/",
    ]
    # The first call writes inc/config.php, the second creates the tables, the account and the blog.
    for _ in range(2):
        subprocess.run(args, cwd=root, check=True, stdout=subprocess.DEVNULL, timeout=240)


def setting(con: sqlite3.Connection, ns: str, key: str, value: str, kind: str) -> None:
    con.execute(
        "DELETE FROM dc_setting WHERE setting_id = ? AND setting_ns = ? AND blog_id = 'default'", (key, ns)
    )
    con.execute(
        "INSERT INTO dc_setting (setting_id, blog_id, setting_ns, setting_value, setting_type, setting_label)"
        " VALUES (?, 'default', ?, ?, ?, '')",
        (key, ns, value, kind),
    )


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def main(root: Path) -> None:
    for name in ("inc/config.php", ".corpus-db", "cache", "var"):
        path = root / name
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)
    (root / ".corpus-db").mkdir()
    (root / "public").mkdir(exist_ok=True)  # the media folder: entry pages fail without it
    db = root / ".corpus-db" / "dotclear.sqlite"
    install(root, db)

    con = sqlite3.connect(db)
    rng = random.Random(32)
    con.execute(
        "UPDATE dc_blog SET blog_name = 'Field Notes', blog_desc = 'A shared notebook' WHERE blog_id = 'default'"
    )
    setting(con, "system", "nb_post_per_page", "8", "integer")
    setting(con, "system", "nb_post_for_home", "6", "integer")
    setting(con, "system", "store_plugin_url", "", "string")
    setting(con, "system", "store_theme_url", "", "string")
    nav = [
        {"id": "search", "order": 0},
        {"id": "categories", "order": 1, "title": "Categories", "postcount": 1},
        {"id": "lastposts", "order": 2, "title": "Last entries", "limit": 5},
    ]
    extra = [{"id": "tags", "order": 0, "title": "Tags"}, {"id": "pages", "order": 1, "title": "Pages"}]
    setting(con, "widgets", "widgets_nav", json.dumps(nav), "array")
    setting(con, "widgets", "widgets_extra", json.dumps(extra), "array")
    con.execute("DELETE FROM dc_post")
    con.execute("DELETE FROM dc_comment")
    con.execute("DELETE FROM dc_meta")

    for n, title in enumerate(CATEGORIES, start=1):
        con.execute(
            "INSERT INTO dc_category (cat_id, blog_id, cat_title, cat_url, cat_desc, cat_position, cat_lft, cat_rgt)"
            " VALUES (?, 'default', ?, ?, ?, ?, ?, ?)",
            (n, title, title, f"<p>Notes filed under {title.lower()}.</p>", n, 2 * n - 1, 2 * n),
        )

    tags = ["spring", "summer", "autumn", "winter", "howto", "review", "photos", "family"]
    post_id = 0
    comment_id = 0
    for n in range(130):
        post_id += 1
        cat = 6 if n % 26 == 0 else 1 + n % 5
        when = datetime.datetime(2025, 1, 3, 8) + datetime.timedelta(days=4 * n, minutes=37 * n)
        year, month, day = when.year, when.month, when.day
        dt = when.strftime("%Y-%m-%d %H:%M:00")
        title = f"{rng.choice(WORDS).capitalize()} {rng.choice(WORDS)} no. {n + 1}"
        slug = title.replace(" ", "-").replace(".", "")
        url = f"{year}/{month:02d}/{day:02d}/{slug}"
        body = "".join(f"<p>{sentence(rng, 18)}.</p>" for _ in range(3))
        status = 0 if n % 16 == 5 or n == 52 else 1
        con.execute(
            "INSERT INTO dc_post (post_id, blog_id, user_id, cat_id, post_dt, post_tz, post_creadt, post_upddt,"
            " post_type, post_format, post_url, post_lang, post_title, post_excerpt, post_excerpt_xhtml,"
            " post_content, post_content_xhtml, post_notes, post_words, post_status, post_firstpub,"
            " post_selected, post_position, post_open_comment, post_open_tb, nb_comment, nb_trackback)"
            " VALUES (?, 'default', 'admin', ?, ?, 'UTC', ?, ?, 'post', 'xhtml', ?, 'en', ?, '', '', ?, ?, '',"
            " ?, ?, ?, 0, 0, 1, 0, 0, 0)",
            (post_id, cat, dt, dt, dt, url, title, body, body, title.lower(), status, status),
        )
        for tag in rng.sample(tags, 2):
            con.execute(
                "INSERT INTO dc_meta (meta_id, meta_type, post_id) VALUES (?, 'tag', ?)", (tag, post_id)
            )
        if status == 1 and n % 3 == 0:
            published = 0
            for k in range(1 + n % 4):
                comment_id += 1
                pending = k == 2
                author = rng.choice(AUTHORS)
                site = "https://example.org/pat" if comment_id % 7 == 0 else ""
                con.execute(
                    "INSERT INTO dc_comment (comment_id, post_id, comment_dt, comment_tz, comment_upddt,"
                    " comment_author, comment_email, comment_site, comment_content, comment_words, comment_ip,"
                    " comment_status, comment_spam_status, comment_trackback)"
                    " VALUES (?, ?, ?, 'UTC', ?, ?, 'reader@example.test', ?, ?, '', '127.0.0.1', ?, '0', 0)",
                    (
                        comment_id,
                        post_id,
                        dt,
                        dt,
                        author,
                        site,
                        f"<p>{sentence(rng, 12)}.</p>",
                        -1 if pending else 1,
                    ),
                )
                published += 0 if pending else 1
            con.execute("UPDATE dc_post SET nb_comment = ? WHERE post_id = ?", (published, post_id))

    for n, title in enumerate(["About", "Contact", "Colophon", "House rules"]):
        post_id += 1
        slug = title.replace(" ", "-")
        body = f"<p>{sentence(rng, 25)}.</p>"
        con.execute(
            "INSERT INTO dc_post (post_id, blog_id, user_id, cat_id, post_dt, post_tz, post_creadt, post_upddt,"
            " post_type, post_format, post_url, post_lang, post_title, post_excerpt, post_excerpt_xhtml,"
            " post_content, post_content_xhtml, post_notes, post_words, post_status, post_firstpub,"
            " post_selected, post_position, post_open_comment, post_open_tb, nb_comment, nb_trackback)"
            " VALUES (?, 'default', 'admin', NULL, '2025-01-01 09:00:00', 'UTC', '2025-01-01 09:00:00',"
            " '2025-01-01 09:00:00', 'page', 'xhtml', ?, 'en', ?, '', '', ?, ?, '', ?, 1, 1, 0, ?, 0, 0, 0, 0)",
            (post_id, slug, title, body, body, title.lower(), n),
        )
    con.commit()
    con.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
