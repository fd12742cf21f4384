"""Build and seed the corpus's Miniflux: compile the checkout (with the build's edits), then a fresh
PostgreSQL cluster with Miniflux's own migrations, the admin account the explorer logs in as, and
feeds, categories and entries written straight into the tables (the feeds' addresses are on a
reserved domain: nothing is fetched). Usage: ho11_miniflux_seed.py ROOT

Miniflux compiles its templates into Go (`template/views.go`, `template/common.go`: the generator
needs a minifier the vendor folder lacks), so the app file's template edits are made to those files
too. The Go build cache stays in the checkout (untracked), so a rebuild after the edits is short.
"""

from __future__ import annotations

import hashlib
import html
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ho11_miniflux_serve as serve  # noqa: E402

ADMIN = ("admin", "corpus-admin-pw")
CATEGORIES = ["Engineering", "News", "Design", "Podcasts"]
# (title, category, entries): the first feed's entries fill several pages on their own
FEEDS = [
    ("Backend Weekly", "Engineering", 46),
    ("Frontend Notes", "Engineering", 24),
    ("Ops Diary", "Engineering", 12),
    ("City Gazette", "News", 18),
    ("World Briefing", "News", 9),
    ("Type & Grid", "Design", 8),
    ("Colour Theory", "Design", 6),
]
WORDS = [
    "Caching strategies",
    "Release checklist",
    "Incident review",
    "Schema migrations",
    "Queue backpressure",
    "Feature flags",
    "Log sampling",
    "Load testing",
    "API versioning",
    "Dependency updates",
]


def sql_str(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def build(root: Path) -> None:
    env = dict(
        os.environ,
        GOFLAGS="-mod=vendor",
        GOCACHE=str(root / ".corpus-gocache"),
        GOPATH=str(root / ".corpus-gopath"),
        CGO_ENABLED="0",
    )
    subprocess.run(["go", "build", "-o", "miniflux-corpus", "."], cwd=root, env=env, check=True)


def data_sql(user_id: int) -> str:
    now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    lines = ["BEGIN;"]
    for title in CATEGORIES:
        lines.append(f"INSERT INTO categories (user_id, title) VALUES ({user_id}, {sql_str(title)});")
    n = 0
    for f, (title, category, count) in enumerate(FEEDS, 1):
        slug = title.lower().replace(" & ", "-").replace(" ", "-")
        lines.append(
            "INSERT INTO feeds (user_id, category_id, title, feed_url, site_url, checked_at) VALUES"
            f" ({user_id}, (SELECT id FROM categories WHERE user_id={user_id} AND title={sql_str(category)}),"
            f" {sql_str(title)}, 'https://feeds.example.invalid/{slug}.xml',"
            f" 'https://{slug}.example.org/', {sql_str(str(now - timedelta(minutes=40 + f)))});"
        )
        for i in range(count):
            n += 1
            published = now - timedelta(hours=6 * n + f)
            entry_title = f"{WORDS[(n + f) % len(WORDS)]}, part {i + 1}"
            if f == 3 and i == 7:
                # a title as the feed sent it, markup and all
                entry_title = 'Widgets <script>alert("miniflux-title")</script> revisited'
            status = "read" if (n % 3 == 0 and not (f == 3 and i == 7)) else "unread"
            starred = "true" if n % 11 == 0 else "false"
            url = f"https://{slug}.example.org/posts/{i + 1}"
            content = (
                f"<p>{html.escape(entry_title)}: notes from the {title} team.</p>"
                f"<p>Item {i + 1} of {count}, with a <a href='{url}'>link</a>.</p>"
            )
            lines.append(
                "INSERT INTO entries (user_id, feed_id, hash, published_at, changed_at, title, url,"
                " author, content, status, starred, document_vectors) VALUES"
                f" ({user_id}, (SELECT id FROM feeds WHERE user_id={user_id} AND title={sql_str(title)}),"
                f" {sql_str(hashlib.sha256(url.encode()).hexdigest())}, {sql_str(str(published))},"
                f" {sql_str(str(published))}, {sql_str(entry_title)}, {sql_str(url)},"
                f" {sql_str('Sam Writer' if i % 2 else 'Alex Editor')}, {sql_str(content)},"
                f" '{status}', {starred},"
                f" to_tsvector({sql_str(entry_title)} || ' ' || {sql_str(content)}));"
            )
    lines.append("COMMIT;")
    return "\n".join(lines) + "\n"


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    build(root)
    serve.init_cluster(root)
    db = subprocess.Popen(serve.postgres_argv(root), cwd=serve.pg_dir(root), **serve.AS_POSTGRES)
    try:
        serve.wait_ready(root)
        psql = [
            "psql",
            "-h",
            str(serve.pg_dir(root)),
            "-p",
            serve.PG_PORT,
            "-U",
            "postgres",
            "-q",
            "-v",
            "ON_ERROR_STOP=1",
        ]
        subprocess.run([*psql, "-c", "CREATE DATABASE miniflux"], check=True)
        env = dict(
            os.environ,
            DATABASE_URL=serve.database_url(root),
            ADMIN_USERNAME=ADMIN[0],
            ADMIN_PASSWORD=ADMIN[1],
        )
        binary = str(root / "miniflux-corpus")
        subprocess.run([binary, "-migrate"], env=env, check=True, stdout=subprocess.DEVNULL)
        subprocess.run([binary, "-create-admin"], env=env, check=True)
        user_id = subprocess.run(
            [*psql, "-d", "miniflux", "-tA", "-c", f"SELECT id FROM users WHERE username='{ADMIN[0]}'"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        subprocess.run([*psql, "-d", "miniflux"], input=data_sql(int(user_id)), text=True, check=True)
    finally:
        db.terminate()  # smart shutdown once the sessions above have closed
        db.wait(30)


if __name__ == "__main__":
    main()
