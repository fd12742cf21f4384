"""Seed a fresh DokuWiki for the corpus: accounts, ACL, pages with revision histories, media.

DokuWiki keeps everything in files, so the seed writes them the way DokuWiki itself does: the
current text in ``data/pages``, older revisions in ``data/attic`` (uncompressed: ``compression`` is
off in our ``local.php``), one changelog line per revision in ``data/meta/<id>.changes`` and in the
global ``data/meta/_dokuwiki.changes``, each page's mtime equal to its last revision (else DokuWiki
would log an "external edit"). Every run starts from empty data folders.

Accounts (``conf/users.auth.php``, md5 hashes DokuWiki still verifies): alice (admin, the
explorer's login) ``corpus-alice-pw``; bob, carol, dave ``corpus-<name>-pw``. Anyone may read,
members may edit, create and upload (ACL 8); the admin may delete.

Pages: a start page, ``recipes`` (36 pages) and ``howto`` (10 pages) namespaces, ``team`` (4). Every
third recipe was once edited by an anonymous visitor (no user, an IP), as public wikis allow; the
start page has 45 revisions (the revisions list shows 20 a page: three pages); the global recent
changes list has more than 100 lines (20 a page). One recipe's last edit summary holds a pasted
``<script>``. Media: six files in ``recipes`` (one namespace listing), two in ``howto``.
"""

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

BASE = 1_780_000_000  # a fixed past moment, so runs are alike

USERS = {
    "alice": ("Alice Admin", "admin,user"),
    "bob": ("Bob Baker", "user"),
    "carol": ("Carol Cook", "user"),
    "dave": ("Dave Diner", "user"),
}

LOCAL_PHP = """<?php
$conf['title'] = 'Corpus Kitchen Wiki';
$conf['lang'] = 'en';
$conf['license'] = 'cc-by-sa';
$conf['useacl'] = 1;
$conf['authtype'] = 'authplain';
$conf['superuser'] = '@admin';
$conf['passcrypt'] = 'md5';
$conf['disableactions'] = 'register,resendpwd';
$conf['updatecheck'] = 0;
$conf['compression'] = 0;
$conf['userewrite'] = 0;
$conf['recent'] = 20;
$conf['recent_days'] = 36500;
$conf['sitemap'] = 0;
$conf['notify'] = '';
$conf['registernotify'] = '';
$conf['mailfrom'] = '';
$conf['htmlok'] = 0;
$conf['usedraft'] = 0;
$conf['plugin']['popularity']['autosubmit'] = 0;
"""

ACL = """# acl.auth.php
*\t@ALL\t1
*\t@user\t8
*\t@admin\t16
"""

RECIPES = [
    "apple crumble",
    "banana bread",
    "beef stew",
    "black bean soup",
    "blueberry muffins",
    "bread pudding",
    "butter chicken",
    "caesar salad",
    "carrot cake",
    "chicken curry",
    "chili con carne",
    "chocolate mousse",
    "cinnamon rolls",
    "coleslaw",
    "corn chowder",
    "couscous salad",
    "egg fried rice",
    "falafel",
    "fish pie",
    "focaccia",
    "french toast",
    "gazpacho",
    "granola",
    "greek salad",
    "guacamole",
    "hummus",
    "lasagne",
    "lemon tart",
    "lentil dal",
    "mac and cheese",
    "minestrone",
    "mushroom risotto",
    "onion soup",
    "pancakes",
    "pesto pasta",
    "potato gratin",
]
HOWTOS = [
    "sharpen a knife",
    "store herbs",
    "proof yeast",
    "clean cast iron",
    "make stock",
    "temper chocolate",
    "julienne carrots",
    "poach an egg",
    "brown butter",
    "zest a lemon",
]
TEAM = ["rota", "suppliers", "allergens", "equipment"]


def page_id(ns: str, title: str) -> str:
    return f"{ns}:{title.replace(' ', '_')}" if ns else title.replace(" ", "_")


def page_path(root: Path, folder: str, pid: str, suffix: str) -> Path:
    path = root / "data" / folder / (pid.replace(":", "/") + suffix)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


class Wiki:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.clock = BASE
        self.log: list[str] = []
        self.sizes: dict[str, int] = {}

    def revise(self, pid: str, text: str, user: str, summary: str, ip: str = "127.0.0.1") -> None:
        self.clock += 97
        rev = self.clock
        old = self.sizes.get(pid)
        kind = "C" if old is None else "E"
        size = len(text.encode())
        line = "\t".join([str(rev), ip, kind, pid, user, summary, "", str(size - (old or 0))])
        self.log.append(line)
        with page_path(self.root, "meta", pid, ".changes").open("a") as changes:
            changes.write(line + "\n")
        page_path(self.root, "attic", pid, f".{rev}.txt").write_text(text)
        current = page_path(self.root, "pages", pid, ".txt")
        current.write_text(text)
        os.utime(current, (rev, rev))
        self.sizes[pid] = size

    def finish(self) -> None:
        (self.root / "data" / "meta" / "_dokuwiki.changes").write_text(
            "".join(line + "\n" for line in self.log)
        )


def recipe_text(title: str, n: int, version: int) -> str:
    serves = 2 + n % 5
    minutes = 15 + (n * 7) % 60
    steps = "\n".join(f"  - Step {i}: keep going with the {title}." for i in range(1, 4 + version))
    return (
        f"====== {title.title()} ======\n\n"
        f"Serves {serves}. Takes about {minutes} minutes.\n\n"
        f"===== Ingredients =====\n\n  * {serves * 100} g of the main thing\n  * salt\n\n"
        f"===== Method =====\n\n{steps}\n\n"
        f"See also [[recipes:{RECIPES[(n + 1) % len(RECIPES)].replace(' ', '_')}]].\n"
    )


def seed(root: Path) -> None:
    for folder in (
        "pages",
        "attic",
        "meta",
        "media",
        "media_meta",
        "media_attic",
        "index",
        "cache",
        "locks",
        "tmp",
        "log",
    ):
        shutil.rmtree(root / "data" / folder, ignore_errors=True)
        (root / "data" / folder).mkdir(parents=True)
    for name in ("changes.log", "media.changes"):
        (root / "data" / name).unlink(missing_ok=True)

    conf = root / "conf"
    (conf / "local.php").write_text(LOCAL_PHP)
    (conf / "acl.auth.php").write_text(ACL)
    # offline: the extension manager and the popularity feedback talk to dokuwiki.org
    (conf / "plugins.local.php").write_text(
        "<?php\n$plugins['extension'] = 0;\n$plugins['popularity'] = 0;\n"
    )
    users = ["# users.auth.php"]
    for login, (name, groups) in USERS.items():
        digest = hashlib.md5(f"corpus-{login}-pw".encode()).hexdigest()
        users.append(f"{login}:{digest}:{name}:{login}@example.test:{groups}")
    (conf / "users.auth.php").write_text("\n".join(users) + "\n")

    wiki = Wiki(root)
    editors = ["alice", "bob", "carol", "dave"]
    for n, title in enumerate(RECIPES):
        pid = page_id("recipes", title)
        for version in range(1 + n % 3):
            if n % 3 == 0 and version == 0:
                wiki.revise(pid, recipe_text(title, n, version), "", "first draft", ip=f"10.0.0.{n + 1}")
            else:
                summary = "tidied the method" if version else "new recipe"
                wiki.revise(pid, recipe_text(title, n, version), editors[(n + version) % 4], summary)
    # a member pasted a snippet with a script into an edit summary
    pid = page_id("recipes", "gazpacho")
    wiki.revise(
        pid,
        recipe_text("gazpacho", 21, 3),
        "dave",
        "chill <script>alert('summary')</script> before serving",
    )
    for n, title in enumerate(HOWTOS):
        pid = page_id("howto", title)
        wiki.revise(
            pid,
            f"====== How to {title} ======\n\nA short guide, part {n + 1}.\n",
            editors[n % 4],
            "new guide",
        )
    for title in TEAM:
        pid = page_id("team", title)
        wiki.revise(pid, f"====== {title.title()} ======\n\nTeam notes.\n", "alice", "team page")
    links_recipes = "\n".join(f"  * [[recipes:{t.replace(' ', '_')}|{t.title()}]]" for t in RECIPES[:12])
    links_howto = "\n".join(f"  * [[howto:{t.replace(' ', '_')}|How to {t}]]" for t in HOWTOS)
    links_team = "\n".join(f"  * [[team:{t}]]" for t in TEAM)
    for version in range(45):
        text = (
            "====== Corpus Kitchen Wiki ======\n\n"
            f"Welcome to the kitchen's wiki (revision {version + 1}).\n\n"
            f"===== Favourite recipes =====\n\n{links_recipes}\n\n"
            f"===== How-tos =====\n\n{links_howto}\n\n"
            f"===== Team =====\n\n{links_team}\n"
        )
        wiki.revise("start", text, editors[version % 4], f"start page update {version + 1}")
    wiki.finish()

    media = root / "data" / "media"
    for ns, count in (("recipes", 6), ("howto", 2)):
        (media / ns).mkdir(parents=True, exist_ok=True)
        for i in range(count):
            target = media / ns / f"card_{i + 1}.txt"
            target.write_text(f"Printable card {i + 1} of the {ns} namespace.\n")
            os.utime(target, (BASE + i, BASE + i))

    # the search index DokuWiki would build page by page as they are viewed
    subprocess.run(["php", "bin/indexer.php", "-q"], cwd=root, check=True, timeout=300)


if __name__ == "__main__":
    seed(Path(sys.argv[1]))
