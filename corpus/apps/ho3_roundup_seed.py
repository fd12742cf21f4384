"""Seed a Roundup tracker (roundup-tracker/roundup, the classic template) for the corpus: held-out set 3.

Run by `python -m corpus run` before every start: `{python} ho3_roundup_seed.py {root}` (with
PYTHONPATH={root}, Roundup runs from its checkout: it needs nothing outside the standard library)
installs a fresh tracker in `{root}/corpus-tracker` from the checkout's classic template, on SQLite,
as `roundup/demo.py` does (the nosy-reaction detector removed: no mail; mail that would still go out
is written to a file), and fills it through Roundup's own database API. The data is ours and fixed:
alice (`corpus-alice-pw`, the explorer's account) and 11 more users with real names, organisations and
phones; 130 issues (the index shows 50 a page), 1-6 messages each, every fourth with a text
attachment (half of those stored without a content type, as mail attachments may be), every issue with a nosy list of
its own size; some issues unassigned; one title pasted with markup.
The web address (`[tracker] web`) is set by the serve script, which alone knows the port.
"""

import shutil
import sys
from pathlib import Path

root = Path(sys.argv[1])
sys.path.insert(0, str(root))

from roundup import configuration, date, init, instance, password  # noqa: E402

home = root / "corpus-tracker"
template_dir = root / "share" / "roundup" / "templates" / "classic"
if home.exists():
    shutil.rmtree(home)
init.install(str(home), str(template_dir))
# as roundup/demo.py: "don't have email flying around"
(home / "detectors" / "nosyreaction.py").unlink()

template_cfg = configuration.UserConfig(str(template_dir / "config_ini.ini"))
config = configuration.CoreConfig(settings={i.name: i.get() for i in template_cfg.items()})
config["TRACKER_HOME"] = str(home)
config["TRACKER_WEB"] = "http://127.0.0.1:8917/tracker/"
config["MAIL_DOMAIN"] = "corpus.example"
config["MAIL_HOST"] = "127.0.0.1"
config["MAIL_PORT"] = 9
config["MAIL_DEBUG"] = str(home / "mail.log")
config["DATABASE"] = "db"
config["RDBMS_BACKEND"] = "sqlite"
config.save(str(home / config.INI_FILE))

tracker = instance.open(str(home))
tracker.init(password.Password("corpus-admin-pw", config=config))
db = tracker.open("admin")

PEOPLE = [
    ("alice", "Alice Moreau", "Northwind Labs", "555-0101"),
    ("bob", "Bob Lind", "Northwind Labs", "555-0102"),
    ("carol", "Carol Eze", "Tailspin Toys", "555-0103"),
    ("dmitri", "Dmitri Novak", "Tailspin Toys", "555-0104"),
    ("elif", "Elif Kaya", "Contoso", "555-0105"),
    ("farah", "Farah Haddad", "Contoso", "555-0106"),
    ("goran", "Goran Horvat", "Fabrikam", "555-0107"),
    ("hana", "Hana Ito", "Fabrikam", "555-0108"),
    ("ines", "Ines Costa", "Litware", "555-0109"),
    ("jonas", "Jonas Berg", "Litware", "555-0110"),
    ("kaito", "Kaito Sato", "Adatum", "555-0111"),
    ("lena", "Lena Fischer", "Adatum", "555-0112"),
]
users = []
for login, name, org, phone in PEOPLE:
    users.append(
        db.user.create(
            username=login,
            password=password.Password(f"corpus-{login}-pw", config=db.config),
            realname=name,
            organisation=org,
            phone=phone,
            address=f"{login}@corpus.example",
            roles="User",
        )
    )
keywords = [db.keyword.create(name=k) for k in ("ui", "docs", "performance", "security", "packaging", "i18n")]
statuses = db.status.list()
priorities = db.priority.list()

SUBJECTS = [
    "Search ignores quoted phrases",
    "Login form forgets the user name",
    "Export to CSV drops the last column",
    "Typo in the German translation",
    "Slow index page with many keywords",
    "Attachment upload fails over 10 MB",
    "Date picker shows the wrong week",
    "Password reset mail has a broken link",
    "Sorting by priority is reversed",
    "Installer needs a newer Python",
    "History shows raw ids instead of names",
    "Nosy list loses entries on edit",
    "Keyboard shortcuts clash with the browser",
]
LINES = [
    "I can reproduce this on the current release.",
    "Attached a screenshot of what I see.",
    "This started after the last upgrade.",
    "Could someone from packaging have a look?",
    "Workaround: reload the page and try again.",
    "Fixed in my branch, needs review.",
    "Still happens for me, see the log below.",
]
day = date.Date("2026-09-01.09:00:00")
for n in range(130):
    title = f"{SUBJECTS[n % len(SUBJECTS)]} ({n + 1})"
    if n == 17:
        # pasted from a crash report page, markup and all
        title = "Crash report: <script>alert('corpus-xss')</script> in the editor"
    author = users[(n * 5) % len(users)]
    msgs = []
    for k in range(1 + n % 6):
        msgs.append(
            db.msg.create(
                content=f"{LINES[(n + k) % len(LINES)]}\n\n-- message {k + 1} on issue {n + 1}",
                author=users[(n + k * 3) % len(users)],
                date=day + date.Interval(f"+{n}d {k}h"),
            )
        )
    nosy = sorted({users[(n + j * 7) % len(users)] for j in range(2 + n % 4)} | {author})
    files = []
    if n % 4 == 1:
        # attachments; the mail gateway stores some without a content type
        typed = {"type": "text/plain"} if n % 8 == 1 else {}
        files.append(
            db.file.create(
                name=("traceback.txt", "settings.ini", "steps.txt")[n % 3],
                content=f"attachment of issue {n + 1}\nline 2\n",
                **typed,
            )
        )
    db.issue.create(
        title=title,
        messages=msgs,
        files=files,
        nosy=nosy,
        assignedto=None if n % 5 == 2 else users[(n * 3) % len(users)],
        priority=priorities[n % len(priorities)],
        status=statuses[n % len(statuses)],
        keyword=[keywords[n % len(keywords)]] if n % 3 else [],
    )
db.commit()
print(
    "roundup seeded:",
    len(db.user.list()),
    "users,",
    len(db.issue.list()),
    "issues,",
    len(db.msg.list()),
    "messages",
)
db.close()
