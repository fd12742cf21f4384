"""Seed a fresh Kallithea instance for the corpus: a configuration file, three Mercurial repositories
(one with 47 changesets: its changelog pages 20 at a time), the database with an admin, 28 more
accounts (all of whom follow the firmware repository: its followers list pages 20 at a time; six
also follow the admin), and 43 gists (37 public: the public gists list pages 10 at a time).

The first seed of a checkout takes minutes (Mercurial commits, one repository per gist); it keeps a
copy of the seeded folder beside it, named for this file's digest, and later seeds restore that copy
(the database holds the folder's absolute path, so the copy goes back to the same place).

Usage: ho18_kallithea_seed.py ROOT  (run with the app's venv python; everything goes to ROOT/.corpus-kallithea)
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ADMIN = ("admin", "corpus-admin-pw", "admin@example.com")
PEOPLE = [
    "Ada Lovelace",
    "Brook Tanaka",
    "Cyd Okafor",
    "Dana Ilves",
    "Eli Moreau",
    "Fern Lindqvist",
    "Gus Petrov",
    "Hana Novak",
    "Ivo Marsh",
    "Jade Kowalski",
    "Kai Brennan",
    "Lena Duarte",
    "Milo Haas",
    "Nora Quist",
    "Otto Ruiz",
    "Pia Sandoval",
    "Quin Abara",
    "Rosa Vidal",
    "Sami Larsen",
    "Tova Greer",
    "Umar Pike",
    "Vera Holm",
    "Wren Castillo",
    "Xena Ward",
    "Yuri Falk",
    "Zoe Adler",
    "Arlo Finch",
    "Bea Sorensen",
]
TOPICS = [
    "nginx reverse proxy for the build farm",
    "retry wrapper for flaky uploads",
    "bisect helper for the firmware tree",
    "udev rule for the serial adapters",
    "jq one-liners for the release notes",
    "sqlite vacuum cron",
    "pre-commit hook: no tabs",
    "makefile for the docs",
    "systemd unit for the worker",
    "python: chunked file reader",
    "bash: rotate backups",
    "awk: sum the second column",
    "sed: strip trailing spaces",
    "git-to-hg author map",
    "mercurial revset cheatsheet",
    "postgres: slow query log",
    "tmux layout for deploys",
]


def run(argv: list[object], cwd: Path | None = None) -> None:
    subprocess.run([str(a) for a in argv], cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def make_repo(hg: Path, path: Path, changesets: int, topic: str) -> None:
    run([hg, "init", path])
    for i in range(changesets):
        name = f"src/module_{i % 7}.py"
        target = path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("a", encoding="utf-8") as out:
            out.write(f"# {topic}: step {i}\nVALUE_{i} = {i * 3}\n")
        who = PEOPLE[i % len(PEOPLE)]
        user = f"{who} <{who.split()[0].lower()}@example.com>"
        run(
            [
                hg,
                "commit",
                "-A",
                "-q",
                "-u",
                user,
                "-d",
                f"{1767225600 + i * 86400} 0",
                "-m",
                f"{topic}: step {i} of the rework",
            ],
            cwd=path,
        )


def main(root: Path) -> None:
    home = root / ".corpus-kallithea"
    digest = hashlib.sha1(Path(__file__).read_bytes()).hexdigest()[:12]
    snapshot = root / f".corpus-kallithea-seeded-{digest}"
    if home.exists():
        shutil.rmtree(home)
    if snapshot.is_dir():
        shutil.copytree(snapshot, home, symlinks=True)
        return
    seed(home)
    partial = root / f".corpus-kallithea-seeding-{digest}"
    if partial.exists():
        shutil.rmtree(partial)
    shutil.copytree(home, partial, symlinks=True)
    partial.rename(snapshot)


def seed(home: Path) -> None:
    repos = home / "repos"
    repos.mkdir(parents=True)
    bin_dir = Path(sys.executable).parent
    ini = home / "kallithea.ini"
    run(
        [
            bin_dir / "kallithea-cli",
            "config-create",
            ini,
            "host=127.0.0.1",
            "port=5000",
            "database_engine=sqlite",
        ]
    )
    hg = bin_dir / "hg"
    make_repo(hg, repos / "printer-firmware", 47, "firmware")
    make_repo(hg, repos / "handbook", 12, "handbook")
    make_repo(hg, repos / "build-tools", 23, "tools")
    run(
        [
            bin_dir / "kallithea-cli",
            "db-create",
            "-c",
            ini,
            "--user",
            ADMIN[0],
            "--password",
            ADMIN[1],
            "--email",
            ADMIN[2],
            "--repos",
            repos,
            "--force-yes",
        ]
    )
    seed_models(ini)


def seed_models(ini: Path) -> None:
    """Accounts and gists through Kallithea's own models (as `kallithea-cli` initialises the app)."""
    import kallithea
    import kallithea.config.middleware
    import paste.deploy

    kallithea.CONFIG = paste.deploy.appconfig(f"config:{ini}")
    kallithea.config.middleware.make_app(kallithea.CONFIG.global_conf, **kallithea.CONFIG.local_conf)

    from kallithea.model.db import Gist, Repository, User
    from kallithea.model.gist import GistModel
    from kallithea.model.meta import Session
    from kallithea.model.scm import ScmModel
    from kallithea.model.user import UserModel

    users = []
    for person in PEOPLE:
        first, last = person.split()
        users.append(
            UserModel().create_or_update(
                username=first.lower(),
                password="corpus-user-pw",
                email=f"{first.lower()}@example.com",
                firstname=first,
                lastname=last,
            )
        )
    admin = User.get_by_username(ADMIN[0])
    admin.name, admin.lastname = "Corpus", "Admin"
    Session().commit()

    descriptions = {
        "printer-firmware": "Firmware for the shop's printers",
        "handbook": "The team handbook",
        "build-tools": "Scripts the build farm runs",
    }
    for name, text in descriptions.items():
        Repository.get_by_repo_name(name).description = text
    Session().commit()

    firmware = Repository.get_by_repo_name("printer-firmware")
    for i, user in enumerate(users):
        ScmModel().toggle_following_repo(firmware.repo_id, user.user_id)
        if i % 5 == 2:
            ScmModel().toggle_following_user(admin.user_id, user.user_id)
    Session().commit()

    for i in range(43):
        owner = admin if i % 4 == 0 else users[i % len(users)]
        if i in (5, 17, 29):
            description = ""  # gists made from the command line often have none
        elif i == 40:  # the newest public gist: first on the list
            description = "<img src=x onerror=alert(1)> markup in a description stays text"
        else:
            description = TOPICS[i % len(TOPICS)]
        public = i % 7 != 6
        GistModel().create(
            description=description,
            owner=owner,
            ip_addr="127.0.0.1",
            gist_mapping={
                f"snippet_{i}.txt": {"content": f"{description or 'untitled'}\nline {i}\n", "lexer": None}
            },
            gist_type=Gist.GIST_PUBLIC if public else Gist.GIST_PRIVATE,
            lifetime=-1,
        )
        Session().commit()


if __name__ == "__main__":
    os.environ.setdefault("HGPLAIN", "1")
    main(Path(sys.argv[1]))
