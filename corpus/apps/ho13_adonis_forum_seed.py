"""Seed the corpus's AdonisJS forum: a fresh SQLite database (`database/corpus.sqlite`) made by the app's
own migrations (`node ace migration:run`), then filled directly: 6 users (alice, bob, carol, dave,
erin, frank; `corpus-<name>-pw`, bcrypt hashed by the app's own bcryptjs; the explorer logs in as
alice@example.com), 3 tags, 34 topics (4 a page: 9 pages on the home list) with 0–5 replies each —
every fourth topic unanswered (the Unanswered tab: 2 pages), 9 of them alice's (Your Posts: 3 pages),
some with a best answer; one reply pasted from a browser console with an `<img onerror>`.
Usage: ho13_adonis_forum_seed.py ROOT
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

USERS = ["alice", "bob", "carol", "dave", "erin", "frank"]
TAGS = [("help-wanted", "Help Wanted"), ("feature-request", "Feature request"), ("bug", "Bug")]
SUBJECTS = [
    "Migrations fail on a fresh database",
    "How do I paginate a relation",
    "Session cookie not kept",
    "Route names in nested groups",
    "Validator messages in another language",
    "Edge partials and layouts",
    "Upload size limit",
    "Hashing passwords with argon2",
    "Serving files from a subfolder",
    "Query scopes with arguments",
    "Eager loading nested relations",
    "CSRF token on AJAX requests",
    "Custom exception handler",
    "Testing controllers",
    "Environment variables in production",
    "Dark mode for the admin",
    "Websocket channels",
    "Mail templates",
    "Seeding large tables",
    "Timezones in timestamps",
    "Soft deletes",
    "Rate limiting login",
    "Caching views",
    "Static assets with webpack",
    "Deploying behind nginx",
    "Events after save",
    "Many to many pivot data",
    "Ordering by a relation",
    "Flash messages disappear",
    "Health check route",
    "Localised dates",
    "Ace commands with options",
    "Redis sessions",
    "Transactions across models",
]
PASTED = 'Same here, console says: <img src="data:," onerror="document.title=\'pwned\'"> after the upgrade'


def slugify(title: str, n: int) -> str:
    return "-".join("".join(ch for ch in w.lower() if ch.isalnum()) for w in title.split()) + f"-{n}"


def hashes(root: Path) -> dict[str, str]:
    script = (
        "const b=require('bcryptjs');"
        "for (const n of process.argv.slice(1)) console.log(n + ' ' + b.hashSync('corpus-' + n + '-pw', 8))"
    )
    out = subprocess.run(
        ["node", "-e", script, *USERS], cwd=root, check=True, capture_output=True, text=True
    ).stdout
    return dict(line.split(" ", 1) for line in out.splitlines())


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    db = root / "database" / "corpus.sqlite"
    db.unlink(missing_ok=True)
    subprocess.run(["node", "ace", "migration:run", "--force"], cwd=root, check=True)
    pw = hashes(root)
    base = datetime(2026, 3, 1, 9, 0, 0)

    def ts(minutes: int) -> str:
        return (base + timedelta(minutes=minutes)).strftime("%Y-%m-%d %H:%M:%S")

    con = sqlite3.connect(db)
    for n, name in enumerate(USERS, start=1):
        con.execute(
            "insert into users (id, username, email, password, created_at, updated_at) values (?,?,?,?,?,?)",
            (n, name, f"{name}@example.com", pw[name], ts(n), ts(n)),
        )
    for n, (slug, name) in enumerate(TAGS, start=1):
        con.execute(
            "insert into tags (id, slug, name, created_at, updated_at) values (?,?,?,?,?)",
            (n, slug, name, ts(0), ts(0)),
        )
    post_id = 0
    topics = []
    for n, subject in enumerate(SUBJECTS, start=1):
        post_id += 1
        author = 1 if n % 4 == 1 else (n % len(USERS)) + 1
        created = n * 90
        topics.append(post_id)
        con.execute(
            "insert into posts (id, title, slug, body, user_id, tag_id, parent_id, last_reply_at, created_at, updated_at)"
            " values (?,?,?,?,?,?,NULL,?,?,?)",
            (
                post_id,
                subject,
                slugify(subject, post_id),
                f"{subject}: what I tried so far, and what happened.",
                author,
                (n % len(TAGS)) + 1,
                ts(created),
                ts(created),
                ts(created),
            ),
        )
        topic = post_id
        replies = 0 if n % 4 == 0 else (n % 4) + (n % 3)
        last = created
        first_reply = None
        for r in range(replies):
            post_id += 1
            last = created + 10 * (r + 1)
            body = f"Reply {r + 1}: have you checked the {subject.split()[0].lower()} settings?"
            if n == 6 and r == 1:
                body = PASTED
            replier = ((n + r) % len(USERS)) + 1
            con.execute(
                "insert into posts (id, title, slug, body, user_id, tag_id, parent_id, last_reply_at, created_at, updated_at)"
                " values (?,NULL,NULL,?,?,NULL,?,NULL,?,?)",
                (post_id, body, replier, topic, ts(last), ts(last)),
            )
            first_reply = first_reply or post_id
        if replies:
            con.execute("update posts set last_reply_at = ? where id = ?", (ts(last), topic))
        if first_reply and n % 5 == 1:
            con.execute("update posts set answer_id = ? where id = ?", (first_reply, topic))
    con.commit()
    con.close()


if __name__ == "__main__":
    main()
