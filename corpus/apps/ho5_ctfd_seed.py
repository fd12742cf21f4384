"""Seed CTFd for the corpus: a fresh SQLite database with the setup wizard's configuration already
saved (user mode, public scoreboard and accounts, challenges for logged-in players), an admin, the
player alice whose profile is filled in, 80 more players (two pages of the users list, a few
hidden or banned, several whose names hold "test"), 26 challenges in five categories with solves,
awards, notifications and two API tokens of alice's. Run by the corpus with the app's virtualenv:
`python ho5_ctfd_seed.py ROOT` (DATABASE_URL and the rest come from the app file's env)."""

import datetime
import random
import shutil
import sys
from pathlib import Path

root = Path(sys.argv[1])
sys.path.insert(0, str(root))
for stale in (root / "corpus-ctfd.db", root / ".data", root / "corpus-uploads", root / "corpus-logs"):
    if stale.is_dir():
        shutil.rmtree(stale)
    elif stale.exists():
        stale.unlink()

from CTFd import create_app  # noqa: E402  (after the stale database is gone)
from CTFd.cache import cache  # noqa: E402
from CTFd.models import (  # noqa: E402
    Admins,
    Awards,
    Challenges,
    Fails,
    Flags,
    Notifications,
    Pages,
    Solves,
    Users,
    UserTokens,
    db,
)
from CTFd.utils import set_config  # noqa: E402
from CTFd.utils.crypto import hash_password  # noqa: E402

rng = random.Random(5)
START = datetime.datetime(2026, 11, 20, 9, 0, 0)

INDEX = """<div class="row">
  <div class="col-md-8 offset-md-2">
    <h3 class="text-center">Welcome to Loopback CTF</h3>
    <p class="text-center">A weekend of web, crypto, forensics, reversing and pwn puzzles for the
    reading group. Sign in to see the <a href="/challenges">challenges</a>, follow the
    <a href="/scoreboard">scoreboard</a>, or browse the <a href="/users">players</a>.</p>
  </div>
</div>"""

CATEGORIES = {
    "web": ["Cookie Jar", "Header Hunt", "Redirect Maze", "Template Trouble", "Robots Know", "Stale Session"],
    "crypto": ["Caesar Salad", "XOR Party", "Tiny RSA", "Padding Pains", "Hash Brown"],
    "forensics": ["Lost Partition", "Packet Picnic", "Meta Data", "Zip Within Zip", "Strings Attached"],
    "reversing": ["Crackme One", "Obfuscated Loop", "Keygen Kata", "Bytecode Bistro", "Ghidra Night"],
    "pwn": ["Stack Smash 101", "Format Frenzy", "Heap Of Trouble", "Return To Libc", "Shellcode Golf"],
}

FIRST = [
    "ana",
    "ben",
    "chen",
    "dara",
    "eli",
    "fatima",
    "goran",
    "hana",
    "ivan",
    "jules",
    "kofi",
    "lena",
    "mika",
    "noor",
    "omar",
    "priya",
    "quinn",
    "rosa",
    "sami",
    "tariq",
    "uma",
    "vera",
    "wei",
    "xena",
    "yusuf",
    "zoe",
]
SUFFIX = ["_sec", "0x", "_rev", "_pwn", "", "_cat", "_hax", "_b1t"]
AFFILIATIONS = [
    "Loopback University",
    "Harbour Polytechnic",
    "Null Byte Club",
    "Independent",
    "",
    "Riverside High School",
    "Team Segfault",
]
COUNTRIES = ["NZ", "DE", "BR", "IN", "JP", "CA", "FR", "KE", None]


def main() -> None:
    app = create_app()
    with app.app_context():
        for key, value in {
            "ctf_name": "Loopback CTF",
            "ctf_description": "The reading group's practice CTF",
            "user_mode": "users",
            "challenge_visibility": "private",
            "account_visibility": "public",
            "score_visibility": "public",
            "registration_visibility": "public",
            "verify_emails": False,
            "ctf_theme": "core",
            "start": None,
            "end": None,
            "freeze": None,
            "social_shares": False,
            "setup": True,
        }.items():
            set_config(key, value)
        db.session.add(Pages(title="Loopback CTF", route="index", content=INDEX, draft=False, format="html"))

        db.session.add(
            Admins(
                name="admin",
                email="admin@example.test",
                password="corpus-admin-pw",
                type="admin",
                hidden=True,
                verified=True,
            )
        )
        alice = Users(
            name="alice",
            email="alice@example.test",
            password="corpus-alice-pw",
            verified=True,
            affiliation="Loopback University",
            website="https://alice.example.test",
            country="NZ",
        )
        db.session.add(alice)
        db.session.commit()
        # the other players never log in: one password hash for all (bcrypt per row took half a minute)
        shared_hash = hash_password("corpus-player-pw")
        # a player whose affiliation someone pasted markup into: it must show as text
        rows = [
            dict(
                name="mallory",
                email="mallory@example.test",
                affiliation="<script>alert('ctf')</script>",
                country="FR",
            )
        ]
        names = ["pentester_ana", "testudo", "contestant_42", "attestor", "latest_zoe"]
        for n in range(75):
            names.append(f"{FIRST[n % len(FIRST)]}{SUFFIX[n % len(SUFFIX)]}{n // len(FIRST) or ''}")
        for n, name in enumerate(names):
            rows.append(
                dict(
                    name=name,
                    email=f"{name}@example.test",
                    affiliation=AFFILIATIONS[n % len(AFFILIATIONS)] or None,
                    website=f"https://{name.replace('_', '-')}.example.test" if n % 3 == 0 else None,
                    country=COUNTRIES[n % len(COUNTRIES)],
                )
            )
        # accounts the public lists must not show
        rows.append(dict(name="tester_hidden", email="th@example.test", hidden=True))
        rows.append(dict(name="banned_tester", email="bt@example.test", banned=True))
        for row in rows:
            row.setdefault("hidden", False)
            row.setdefault("banned", False)
            db.session.execute(
                Users.__table__.insert().values(type="user", verified=True, password=shared_hash, **row)
            )
        db.session.commit()

        challenges = []
        for category, titles in CATEGORIES.items():
            for n, title in enumerate(titles):
                challenge = Challenges(
                    name=title,
                    description=f"{title}: find the flag. Category {category}, level {n + 1}.",
                    value=100 * (n + 1),
                    category=category,
                    state="visible",
                    type="standard",
                )
                challenges.append(challenge)
        db.session.add_all(challenges)
        db.session.commit()
        for challenge in challenges:
            db.session.add(
                Flags(
                    challenge_id=challenge.id,
                    type="static",
                    content=f"flag{{{challenge.name.lower().replace(' ', '_')}}}",
                )
            )
        db.session.commit()

        # about two players in three solved something; the rest only tried
        visible = Users.query.filter_by(type="user", hidden=False, banned=False).order_by(Users.id).all()
        for n, player in enumerate(visible):
            if n % 3 == 2:
                db.session.add(
                    Fails(
                        user_id=player.id,
                        challenge_id=challenges[0].id,
                        ip="127.0.0.1",
                        provided="flag{nope}",
                        date=START,
                    )
                )
                continue
            solved = rng.sample(challenges, rng.randint(1, 9))
            for k, challenge in enumerate(solved):
                db.session.add(
                    Solves(
                        user_id=player.id,
                        challenge_id=challenge.id,
                        ip="127.0.0.1",
                        provided="flag{...}",
                        date=START + datetime.timedelta(minutes=37 * n + 11 * k),
                    )
                )
        db.session.commit()
        for n, player in enumerate(visible[:6]):
            db.session.add(
                Awards(
                    user_id=player.id,
                    name=f"Writeup of the day #{n + 1}",
                    value=50,
                    category="writeups",
                    icon="shield",
                    date=START + datetime.timedelta(hours=n),
                )
            )
        for n in range(4):
            db.session.add(
                Notifications(
                    title=f"Announcement {n + 1}",
                    content=f"Hint released for round {n + 1}.",
                    date=START + datetime.timedelta(hours=6 * n),
                )
            )
        for n, what in enumerate(["laptop scripts", "ci runner"]):
            db.session.add(
                UserTokens(
                    user_id=alice.id,
                    value=f"ctfd_corpus_token_{n}_" + "a" * 40,
                    description=what,
                    expiration=datetime.datetime(2027, 12, 31),
                )
            )
        db.session.commit()
        cache.clear()


if __name__ == "__main__":
    main()
