"""Seed isso for the corpus: a fresh database with one thread (the demo page, /demo/) full of comments.

Usage: ho10_isso_seed.py ROOT (run with the checkout's virtualenv). The comments are posted through
the app's own API in-process (werkzeug's test client), so what the app does to a new comment (escaping,
markup) is what the build does; then some are moved to the moderation queue and some deleted while
replied to (isso keeps those as "staled"), so the admin's three lists all have rows: 151 published
(two admin pages), 119 pending (two pages), 6 staled. A handful are anonymous, one author pasted an
<img onerror> into the name field.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

NAMES = ["Ada", "Grace", "Linus", "Barbara", "Ken", "Margaret", "Dennis", "Frances", "Alan", "Edsger"]
WORDS = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor".split()


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    sys.path.insert(0, str(root))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from ho10_isso_serve import config_text  # noqa: PLC0415 (ours, beside this file)
    from isso import config, make_app  # noqa: PLC0415 (the checkout)
    from werkzeug.test import Client  # noqa: PLC0415 (the app's virtualenv)

    db = root / "corpus-isso.db"
    db.unlink(missing_ok=True)
    cfg = root / "corpus-isso.cfg"
    cfg.write_text(config_text(root, 8080), encoding="utf-8")
    conf = config.load(config.default_file(), str(cfg))
    client = Client(make_app(conf))
    headers = {"Content-Type": "application/json", "Referer": "http://127.0.0.1:8080/demo/"}

    def post(n: int, author: str | None, parent: int | None = None) -> int:
        text = f"Comment {n}: " + " ".join(WORDS[(n + k) % len(WORDS)] for k in range(8 + n % 5))
        body = {"text": text, "author": author, "email": None, "website": None, "parent": parent}
        if n == 1:
            body["title"] = "Isso Demo"
        if author and n % 7 == 0:
            body["website"] = f"https://example.org/~{author.lower()}"
        answer = client.post("/new?uri=%2Fdemo%2F", data=json.dumps(body), headers=headers)
        if answer.status_code != 201:
            raise SystemExit(
                f"seed: comment {n} answered {answer.status_code}: {answer.get_data(as_text=True)[:200]}"
            )
        return int(json.loads(answer.get_data(as_text=True))["id"])

    ids = []
    for n in range(1, 277):
        author = None if n % 23 == 0 else NAMES[n % len(NAMES)]
        if n == 5:
            author = 'Mallory <img src=x onerror="window.__isso_pwned = 1">'
        parent = ids[n - 13] if n % 11 == 0 and 13 < n <= 165 else None
        ids.append(post(n, author, parent))
    con = sqlite3.connect(db)
    with con:
        # the newest 120 wait in the moderation queue; six replied-to comments were deleted (staled)
        con.execute("UPDATE comments SET mode = 2 WHERE id > 156 AND parent IS NULL")
        staled = [
            r[0]
            for r in con.execute(
                "SELECT DISTINCT parent FROM comments WHERE parent IS NOT NULL ORDER BY parent LIMIT 6"
            )
        ]
        con.executemany(
            "UPDATE comments SET mode = 4, text = '', author = NULL WHERE id = ?", [(i,) for i in staled]
        )
        counts = dict(con.execute("SELECT mode, COUNT(*) FROM comments GROUP BY mode").fetchall())
    print(f"seeded {len(ids)} comments on /demo/: modes {counts}")


if __name__ == "__main__":
    main()
