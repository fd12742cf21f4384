"""Seed a fresh Trac environment: `trac-admin initenv` with SQLite, the form login of
TracAccountManager (an htpasswd file), users and permissions, then milestones, components and
tickets with comments through Trac's own model.

Usage: python ho4_trac_seed.py ROOT   (ROOT = the checkout; the environment is ROOT/corpus-env)

Queries page at 20 tickets (the open ones: three pages); one milestone has no due date ("someday",
as many projects keep one); one ticket summary holds a pasted <script>; most tickets carry keywords.
alice (the explorer's login) administers tickets and the wiki.
"""

import shutil
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

USERS = ["alice", "bob", "carol", "dave"]
MILESTONES = {"1.0": -60, "1.1": 20, "1.2": 75, "someday": None}
COMPONENTS = {"core": "bob", "ui": "carol", "docs": "dave", "importer": "alice"}
TOPICS = (
    "export to CSV drops the last column|login page ignores the next parameter|timeline shows "
    "times in UTC|search misses words with accents|attachment size limit is not enforced|"
    "sidebar overlaps the footer on narrow screens|importer stops at empty lines|"
    "wrong plural in the report header|milestone dates shift by a day|keyboard shortcuts "
    "conflict with the browser"
).split("|")
KEYWORDS = ["regression", "ux", "performance", "i18n", "", "security", "needinfo"]


def main(root: Path) -> None:
    target = root / "corpus-env"
    shutil.rmtree(target, ignore_errors=True)
    venv_bin = Path(sys.executable).parent
    subprocess.run(
        [str(venv_bin / "trac-admin"), str(target), "initenv", "Corpus Tracker", "sqlite:db/trac.db"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    from acct_mgr.api import AccountManager
    from trac.env import Environment
    from trac.perm import PermissionSystem
    from trac.ticket.model import Component, Milestone, Ticket
    from trac.util.datefmt import utc

    env = Environment(str(target))
    config = env.config
    config.set("components", "acct_mgr.*", "enabled")
    config.set("components", "acct_mgr.register.*", "disabled")
    config.set("components", "trac.web.auth.loginmodule", "disabled")
    config.set("account-manager", "password_store", "HtPasswdStore")
    config.set("account-manager", "htpasswd_file", str(target / "htpasswd"))
    config.set("account-manager", "htpasswd_hash_type", "sha256")
    # no "initial setup" session: without it the first visit to /login becomes a setup admin
    config.set("account-manager", "auth_init", "false")
    config.set("query", "items_per_page", "20")
    config.set("query", "default_query", "status!=closed")
    config.set("query", "default_anonymous_query", "status!=closed")
    config.set("notification", "smtp_enabled", "false")
    # whole pages, not chunks: an error while rendering then answers 500, as behind most proxies
    config.set("trac", "use_chunked_encoding", "false")
    config.save()
    env = Environment(str(target))

    accounts = AccountManager(env)
    for name in USERS:
        accounts.set_password(name, f"corpus-{name}-pw")
    perms = PermissionSystem(env)
    for action in ("TICKET_ADMIN", "WIKI_ADMIN", "MILESTONE_VIEW"):
        perms.grant_permission("alice", action)

    with env.db_transaction as db:
        db("DELETE FROM milestone")
        db("DELETE FROM component")
    now = datetime(2026, 11, 20, 9, 0, tzinfo=utc)
    for name, days in MILESTONES.items():
        milestone = Milestone(env)
        milestone.name = name
        milestone.description = f"Work planned for {name}."
        if days is not None:
            milestone.due = now + timedelta(days=days)
        if days is not None and days < 0:
            milestone.completed = now + timedelta(days=days + 2)
        milestone.insert()
    for name, owner in COMPONENTS.items():
        component = Component(env)
        component.name = name
        component.owner = owner
        component.insert()

    milestones = list(MILESTONES)
    components = list(COMPONENTS)
    for number in range(1, 71):
        ticket = Ticket(env)
        topic = TOPICS[number % len(TOPICS)]
        ticket["summary"] = f"{topic.capitalize()} ({number})"
        if number == 17:
            ticket["summary"] = "Title <script>document.title='t17'</script> is shown raw in mails"
        ticket["description"] = (
            f"Steps to reproduce:\n 1. open the {components[number % 4]} page\n 2. {topic}"
        )
        ticket["reporter"] = USERS[(number + 1) % len(USERS)]
        ticket["owner"] = USERS[number % len(USERS)]
        ticket["type"] = ("defect", "enhancement", "task")[number % 3]
        ticket["priority"] = ("major", "minor", "critical", "trivial", "blocker")[number % 5]
        ticket["component"] = components[number % 4]
        ticket["milestone"] = milestones[(number // 3) % 4]
        ticket["keywords"] = KEYWORDS[number % len(KEYWORDS)]
        ticket["status"] = "new"
        ticket.insert(when=now - timedelta(days=90 - number))
        if number % 4 == 0:
            ticket["status"] = "closed"
            ticket["resolution"] = "fixed"
        if number % 3 == 0 or number % 4 == 0:
            ticket.save_changes(
                USERS[(number + 2) % len(USERS)],
                f"Seen again on build {number * 7}.",
                when=now - timedelta(days=80 - number),
            )


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
