"""Seed of held-out set 15's two RealWorld front ends: a fresh Conduit database for ho15_conduit_api.

Usage: ho15_conduit_seed.py ROOT — writes ROOT/.corpus-conduit.sqlite (replacing any). Five users
(alice@example.com / corpus-alice-pw is the explorer's login; she follows bob, carol and dave), 50
articles (five pages of 10 on the global feed; 20 by alice, two pages on her profile), eight tags
(one on exactly 10 articles), favorites, and comments on the newest articles; one comment and one
article body hold pasted markup with an <img onerror>. Alice has no avatar (image null), as a user
who never set one.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ho15_conduit_api import connect, hash_password, slugify  # noqa: E402

USERS = [
    ("alice", "alice@example.com", "Writes about gardens and kitchens.", None),
    ("bob", "bob@example.com", "Bikes to work, writes on the way.", None),
    ("carol", "carol@example.com", "Notes from a small bakery.", None),
    ("dave", "dave@example.com", None, None),
    ("erin", "erin@example.com", "Reads more than she writes.", None),
]
SUBJECTS = [
    "Tomatoes",
    "Sourdough",
    "Compost",
    "Bicycles",
    "Rain barrels",
    "Pickles",
    "Beekeeping",
    "Seed saving",
    "Cast iron",
    "Herb spirals",
]
ANGLES = [
    "A first season with",
    "What I got wrong about",
    "Ten notes on",
    "Cheap tricks for",
    "Slow mornings and",
]
TAGS = ["gardening", "cooking", "cycling", "diy", "baking", "bees", "preserving", "tools"]
XSS = '<img src="x" onerror="document.title=\'pwned-conduit\'">'


def main() -> None:
    root = Path(sys.argv[1])
    path = root / ".corpus-conduit.sqlite"
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    db = connect(path)
    ids: dict[str, int] = {}
    for name, email, bio, image in USERS:
        cur = db.execute(
            "INSERT INTO users (username, email, password, bio, image) VALUES (?,?,?,?,?)",
            (name, email, hash_password(f"corpus-{name}-pw"), bio, image),
        )
        ids[name] = int(cur.lastrowid or 0)
    for followed in ("bob", "carol", "dave"):
        db.execute("INSERT INTO follows VALUES (?, ?)", (ids["alice"], ids[followed]))
    db.execute("INSERT INTO follows VALUES (?, ?)", (ids["bob"], ids["alice"]))
    start = datetime(2026, 11, 30, 18, 0, tzinfo=UTC)
    authors = ["alice", "bob", "carol", "alice", "dave", "alice", "bob", "erin", "alice", "carol"]
    for n in range(50):
        # n = 0 is the newest; alice wrote 20 of the 50, among them the newest.
        author = authors[n % 10]
        title = f"{ANGLES[n % 5]} {SUBJECTS[n % 10].lower()}" + (f" ({n // 10 + 1})" if n >= 10 else "")
        title = title[0].upper() + title[1:]
        body = (
            f"## {SUBJECTS[n % 10]}\n\nPart {n + 1} of a long-running series. Started in spring, "
            f"kept notes every week.\n\n- what worked\n- what did not\n- what to try next\n\n"
            f"*{author}*"
        )
        if n == 2:
            body += "\n\nPasted from the old forum:\n\n" + XSS
        stamp = (start - timedelta(hours=7 * n)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        cur = db.execute(
            "INSERT INTO articles (slug, title, description, body, author_id, created, updated) "
            "VALUES (?,?,?,?,?,?,?)",
            (
                slugify(title),
                title,
                f"Notes on {SUBJECTS[n % 10].lower()}, week {n + 1}.",
                body,
                ids[author],
                stamp,
                stamp,
            ),
        )
        aid = int(cur.lastrowid or 0)
        # "gardening" tags exactly 10 articles (every fifth); the others spread over the rest.
        tags = ["gardening"] if n % 5 == 0 else []
        tags += [TAGS[1 + (n % 7)], TAGS[1 + ((n * 3) % 7)]]
        for i, tag in enumerate(dict.fromkeys(tags)):
            db.execute("INSERT INTO tags VALUES (?, ?, ?)", (aid, tag, i))
        for j, fan in enumerate(USERS):
            if (n + j) % 3 == 0 and fan[0] != author:
                db.execute("INSERT INTO favorites VALUES (?, ?)", (ids[fan[0]], aid))
        if n < 12:
            for k in range(n % 4 + 1):
                who = USERS[(n + k + 1) % 5][0]
                text = f"Comment {k + 1}: tried this too, {['worked well', 'half worked', 'no luck', 'will retry'][k % 4]}."
                if n == 1 and k == 1:
                    text = "Copied from my notes app: " + XSS
                db.execute(
                    "INSERT INTO comments (article_id, author_id, body, created) VALUES (?,?,?,?)",
                    (aid, ids[who], text, (start - timedelta(hours=7 * n - k - 1)).isoformat()),
                )
    db.close()


if __name__ == "__main__":
    main()
