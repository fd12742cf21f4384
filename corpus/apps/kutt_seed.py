"""Fresh seed data for Kutt (thedevs-network/kutt), run after its own knex migrations: an admin
(the login the corpus uses) and a second user, 36 short links of the admin's (four pages of the
links table at its default 10 a page) and 3 of the other user's.

Usage: python kutt_seed.py ROOT   (ROOT = the checkout; the database is ROOT/db/corpus.sqlite)

Passwords are hashed with the checkout's own bcryptjs (node), as Kutt stores them. Every third link
has no description; one link's description carries a <script> the templates must escape.
"""

import sqlite3
import subprocess
import sys
from pathlib import Path

ADMIN = ("alice@example.test", "corpus-alice-pw")
OTHER = ("bob@example.test", "corpus-bob-pw")
SCRIPT_DESCRIPTION = "Team wiki <script>document.title='pwned';alert(1)</script>"
TOPICS = [
    "quarterly report",
    "onboarding guide",
    "release notes",
    "design review",
    "hiring plan",
    "incident postmortem",
    "roadmap",
    "budget sheet",
    "press kit",
    "style guide",
    "api changelog",
    "support macros",
    "sales deck",
    "security policy",
    "retro notes",
    "office map",
    "holiday calendar",
    "benefits faq",
    "expense how-to",
    "vpn setup",
]


def bcrypt_hash(root: Path, password: str) -> str:
    script = "process.stdout.write(require('bcryptjs').hashSync(process.argv[1], 10))"
    done = subprocess.run(
        ["node", "-e", script, password], cwd=root, capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.strip()


def seed(root: Path) -> None:
    db = sqlite3.connect(root / "db" / "corpus.sqlite")
    users = [(ADMIN, "ADMIN"), (OTHER, "USER")]
    for (email, password), role in users:
        db.execute(
            "INSERT INTO users (email, password, role, verified, created_at, updated_at)"
            " VALUES (?, ?, ?, 1, '2025-01-02 09:00:00', '2025-01-02 09:00:00')",
            (email, bcrypt_hash(root, password), role),
        )
    for i in range(1, 40):
        owner = 2 if i % 13 == 0 else 1
        topic = TOPICS[i % len(TOPICS)]
        if i == 31:
            description = SCRIPT_DESCRIPTION
        elif i % 3 == 0:
            description = None
        else:
            description = f"{topic.capitalize()} ({2020 + i % 6})"
        db.execute(
            "INSERT INTO links (address, description, target, user_id, visit_count, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                f"go{i:02d}{topic.split()[0][:4]}",
                description,
                f"https://intranet.example.org/{topic.replace(' ', '-')}/{i}",
                owner,
                (i * 7) % 23,
                f"2025-{1 + i // 28:02d}-{1 + i % 28:02d} 10:00:00",
                f"2025-{1 + i // 28:02d}-{1 + i % 28:02d} 10:00:00",
            ),
        )
    db.commit()
    db.close()


if __name__ == "__main__":
    seed(Path(sys.argv[1]))
