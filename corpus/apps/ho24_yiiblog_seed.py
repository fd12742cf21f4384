"""Seed Yii 1.1's blog demo (held-out set 24): a fresh `protected/data/blog.db` from the demo's own
`schema.sqlite.sql` (its lookups, the user `demo`, two posts, one comment, three tags), then:

- the account the explorer uses, alice / corpus-alice-pw (a bcrypt hash from PHP's password_hash,
  which the demo's CPasswordHelper::verifyPassword accepts);
- 39 published posts and 2 drafts (with the demo's two, ten published posts a page: five pages),
  distinct times, tags
  drawn from six names, one of them with an apostrophe ("editor's pick", a name people type);
- on the newest post, 14 comments, 3 of them still pending approval, one with a URL; on every other
  fourth post two approved comments; one approved comment body holds a pasted `<script>` (stored as
  typed: the clean build shows it as text);
- `assets/` and `protected/runtime/` emptied (Yii publishes scripts and writes its log there).

Usage: ho24_yiiblog_seed.py ROOT.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

PASSWORD = "corpus-alice-pw"
TAGS = ["yii", "php", "tutorial", "release", "editor's pick", "community"]
BASE_TIME = 1_700_000_000  # 2023-11-14


def bcrypt(password: str) -> str:
    script = "echo password_hash($argv[1], PASSWORD_BCRYPT, ['cost' => 10]);"
    return subprocess.run(["php", "-r", script, password], check=True, capture_output=True, text=True).stdout


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    data = root / "protected" / "data"
    db_path = data / "blog.db"
    db_path.unlink(missing_ok=True)
    for folder in (root / "assets", root / "protected" / "runtime"):
        for child in folder.iterdir():
            if child.name != ".gitignore":
                shutil.rmtree(child) if child.is_dir() else child.unlink()
    db = sqlite3.connect(db_path)
    db.executescript((data / "schema.sqlite.sql").read_text(encoding="utf-8"))
    db.execute(
        "INSERT INTO tbl_user (username, password, email, profile) VALUES (?, ?, ?, ?)",
        ("alice", bcrypt(PASSWORD), "alice@example.com", "Writes the release notes."),
    )
    alice = db.execute("SELECT id FROM tbl_user WHERE username = 'alice'").fetchone()[0]
    tag_use: dict[str, int] = {}
    post_ids: list[int] = []
    for i in range(41):
        draft = i % 14 == 13
        tags = [TAGS[i % len(TAGS)], TAGS[(i * 5 + 1) % len(TAGS)]]
        tags = list(dict.fromkeys(tags))
        for tag in tags:
            tag_use[tag] = tag_use.get(tag, 0) + 1
        t = BASE_TIME + i * 86_400 + i * 37
        cur = db.execute(
            "INSERT INTO tbl_post (title, content, tags, status, create_time, update_time, author_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                f"{'Draft: ' if draft else ''}Release notes {i + 1}: what changed in week {i + 1}",
                f"Week {i + 1} brought *{3 + i % 5} fixes* and one new feature.\n\n"
                "Upgrade notes follow the usual pattern: back up, replace the framework folder, run the tests.",
                ", ".join(tags),
                1 if draft else 2,
                t,
                t,
                alice if i % 3 else 1,
            ),
        )
        post_ids.append(int(cur.lastrowid or 0))
    for tag, n in tag_use.items():
        row = db.execute("SELECT id FROM tbl_tag WHERE name = ?", (tag,)).fetchone()
        if row:
            db.execute("UPDATE tbl_tag SET frequency = frequency + ? WHERE id = ?", (n, row[0]))
        else:
            db.execute("INSERT INTO tbl_tag (name, frequency) VALUES (?, ?)", (tag, n))
    newest = post_ids[-1]  # the newest post, published
    for j in range(14):
        pending = j % 4 == 3
        content = f"Comment {j + 1}: thanks, the upgrade from week {j} went fine."
        if j == 5:
            content = "Nice release! <script>alert('corpus-xss')</script> see you next week"
        db.execute(
            "INSERT INTO tbl_comment (content, status, create_time, author, email, url, post_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                content,
                1 if pending else 2,
                BASE_TIME + 41 * 86_400 + j * 600,
                f"Reader {j + 1}",
                f"reader{j + 1}@example.com",
                "http://reader.example/blog" if j == 2 else None,
                newest,
            ),
        )
    for k, pid in enumerate(post_ids[:-1:4]):
        for j in range(2):
            db.execute(
                "INSERT INTO tbl_comment (content, status, create_time, author, email, post_id)"
                " VALUES (?, 2, ?, ?, ?, ?)",
                (f"Question {j + 1} about this release.", BASE_TIME + k * 86_400 + 3_600 + j, f"Visitor {k}-{j}",
                 f"visitor{k}{j}@example.com", pid),
            )  # fmt: skip
    db.commit()
    db.close()


if __name__ == "__main__":
    main()
