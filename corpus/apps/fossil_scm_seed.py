"""Build and seed the corpus's Fossil (ours, not Fossil's): `fossil_scm_seed.py ROOT [--configure]`.

ROOT is the checkout's `src/` folder (the app file's subdir: the mirror lacks the bundled SQLite
amalgamation, so the checkout is sparse and Fossil links Debian's libsqlite3). The build's edits are
compiled first (`make`, incremental: only the edited files), then a fresh repository is made under
ROOT/../.corpus-fossil with the binary's own commands:

- `widgets.fossil`, project "Widgets": 64 check-ins by four users over a small C project on trunk
  and a `parser-rewrite` branch merged back, two tags; fixed dates (2021-03-01 on, one an hour);
- 12 wiki pages (the home page among them), two of them with an attachment;
- 14 tickets of mixed type, status and severity, with "found in" versions, one whose title pasted a
  `<script>` from a bug report (no subsystem: the default ticket setup offers none, so its edit form
  could not hold one);
- a forum of 31 threads (the list pages 25 threads), five with replies;
- the user `alice` (password `corpus-alice-pw`), a developer (check-in, wiki, tickets, forum; not an
  administrator); the anonymous visitor (`nobody`) may read everything and follow links.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

USERS = ("alice", "bob", "carol", "dave")
TOPICS = ("parser", "cache", "cli", "config", "logging", "storage", "netio", "sched")
BASE = datetime(2021, 3, 1, tzinfo=UTC)
XSS_TITLE = "Crash on import: log shows <script>alert('fossil-xss')</script> in the name"


def run(cmd: list[str], cwd: Path) -> str:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(
            f"{' '.join(cmd)} failed ({done.returncode}) in {cwd}:\n{done.stdout}\n{done.stderr}"
        )
    return done.stdout


def stamp(hour: int) -> str:
    return (BASE + timedelta(hours=hour)).strftime("%Y-%m-%d %H:%M:%S")


def fossilize(text: str) -> str:
    """A card argument in Fossil's artifact encoding (space, newline, backslash escaped)."""
    return text.replace("\\", "\\\\").replace(" ", "\\s").replace("\n", "\\n")


def forum_artifact(
    title: str | None, body: str, user: str, when: str, reply_to: str | None, root: str | None
) -> str:
    """A forum post artifact (Fossil's file format: cards in order, Z the MD5 of what precedes it)."""
    cards = [f"D {when.replace(' ', 'T')}.000"]
    if root:
        cards.append(f"G {root}")
    if title:
        cards.append(f"H {fossilize(title)}")
    if reply_to:
        cards.append(f"I {reply_to}")
    cards.append("N text/x-markdown")
    cards.append(f"U {user}")
    text = "\n".join(cards) + "\n" + f"W {len(body.encode())}\n{body}\n"
    return text + f"Z {hashlib.md5(text.encode()).hexdigest()}\n"


class Repo:
    def __init__(self, fossil: Path, repo: Path, work: Path) -> None:
        self.fossil = str(fossil)
        self.repo = str(repo)
        self.work = work

    def f(self, *args: str, cwd: Path | None = None) -> str:
        return run([self.fossil, *args], cwd or self.work)

    def r(self, *args: str) -> str:
        return self.f(*args, "-R", self.repo)

    def put(self, artifact: Path) -> str:
        """Store an artifact as it is (crosslinked by the final `rebuild`); its hash."""
        rid = int(self.f("test-content-put", str(artifact), cwd=self.work / "checkout").split()[-1])
        return self.r("sql", f"SELECT uuid FROM blob WHERE rid={rid}").strip().strip("'")


def build(src: Path) -> Path:
    """Compile the checkout with its edits (configure ran at setup)."""
    run(["make", "-j2"], src)
    return src / "fossil"


def seed_checkins(repo: Repo) -> int:
    co = repo.work / "checkout"
    co.mkdir()
    repo.f("open", repo.repo, "--workdir", str(co), "--force")
    hour = 0

    def commit(message: str, user: str, *extra: str) -> None:
        nonlocal hour
        hour += 1
        repo.f("addremove", cwd=co)
        repo.f(
            "commit",
            "-m",
            message,
            "--user-override",
            user,
            "--date-override",
            stamp(hour),
            "--no-warnings",
            *extra,
            cwd=co,
        )

    (co / "README.md").write_text("# Widgets\n\nA small C library of widgets.\n")
    (co / "Makefile").write_text("all:\n\tcc -o widgets src/*.c\n")
    commit("Initial import of the widgets library", "alice")
    for i in range(40):
        topic = TOPICS[i % len(TOPICS)]
        path = co / "src" / f"{topic}.c"
        path.parent.mkdir(exist_ok=True)
        lines = path.read_text().splitlines() if path.exists() else [f"/* The {topic} module. */"]
        lines.append(f"int {topic}_step{i}(int x) {{ return x + {i}; }}")
        path.write_text("\n".join(lines) + "\n")
        verb = ("Add", "Fix", "Refactor", "Document")[i % 4]
        commit(f"{verb} {topic}: step {i}", USERS[i % len(USERS)])
        if i == 12:
            repo.f("tag", "add", "--date-override", stamp(hour), "release", "current", cwd=co)
        if i == 30:
            repo.f("tag", "add", "--date-override", stamp(hour), "v1.0", "current", cwd=co)
    # a branch with eight check-ins, merged back into trunk
    for i in range(8):
        path = co / "src" / "parser.c"
        path.write_text(path.read_text() + f"/* rewrite {i} */\n")
        extra = ("--branch", "parser-rewrite") if i == 0 else ()
        commit(f"Parser rewrite, part {i + 1}", "bob", *extra)
    repo.f("update", "trunk", cwd=co)
    repo.f("merge", "parser-rewrite", cwd=co)
    commit("Merge the parser rewrite", "alice")
    for i in range(14):
        path = co / "docs" / f"guide{i % 5}.md"
        path.parent.mkdir(exist_ok=True)
        path.write_text((path.read_text() if path.exists() else "# Guide\n") + f"Section {i}.\n")
        commit(f"Guide: section {i}", USERS[(i + 1) % len(USERS)])
    return hour


WIKI = {
    "Widgets": "# Widgets\n\nWelcome to the Widgets project. See [BuildNotes](/wiki?name=BuildNotes) and the [timeline](/timeline).\n",
    "BuildNotes": "# Build notes\n\nRun `make`. The parser needs a C99 compiler.\n",
    "Roadmap": "# Roadmap\n\n* 1.1: faster cache\n* 1.2: new scheduler\n",
    "Contributing": "# Contributing\n\nSend patches to the forum.\n",
    "CodingStyle": "# Coding style\n\nFour spaces, no tabs.\n",
    "ReleaseChecklist": "# Release checklist\n\n1. Tag\n2. Announce\n",
    "FAQ": "# FAQ\n\n**Why C?** Because.\n",
    "Architecture": "# Architecture\n\nModules: parser, cache, cli.\n",
    "Testing": "# Testing\n\nRun `make test`.\n",
    "Glossary": "# Glossary\n\n*widget*: a thing.\n",
    "Sandbox": "# Sandbox\n\nTry the wiki here.\n",
    "Meetings": "# Meetings\n\nMonthly, first Tuesday.\n",
}

TICKETS = [
    ("Parser rejects empty input", "Code_Defect", "Open", "Critical", "1.0"),
    ("Cache grows without bound", "Code_Defect", "Open", "Severe", "1.0"),
    ("Document the CLI flags", "Documentation", "Open", "Minor", "0.9"),
    ("Scheduler skips the last job", "Code_Defect", "Fixed", "Important", "0.9"),
    ("Add a --quiet option", "Feature_Request", "Open", "Minor", "1.0"),
    ("Logging writes to stdout", "Code_Defect", "Closed", "Minor", "0.8"),
    ("Config file ignored on Windows", "Build_Problem", "Open", "Important", "1.0"),
    ("Storage leaks a file handle", "Code_Defect", "Review", "Severe", "1.0"),
    ("Netio times out too early", "Code_Defect", "Open", "Important", "0.9"),
    ("Speed up the cache lookup", "Incident", "Deferred", "Minor", "0.8"),
    ("Makefile needs an install target", "Build_Problem", "Fixed", "Cosmetic", "0.9"),
    (XSS_TITLE, "Code_Defect", "Open", "Important", "1.0"),
    ("Typo in the README", "Documentation", "Closed", "Cosmetic", "0.8"),
    ("Support UTF-8 widget names", "Feature_Request", "Open", "Important", "1.0"),
]

THREADS = [
    "Welcome to the Widgets forum",
    "How do I build on macOS?",
    "Release 1.0 is out",
    "Cache tuning tips",
    "Parser error messages",
    "Windows build fails",
    "Proposal: a plugin API",
    "Logging levels",
    "Is the scheduler thread-safe?",
    "Benchmark results",
    "Packaging for Debian",
    "CLI colour output",
    "Config file format",
    "Storage backends",
    "Netio and proxies",
    "Meeting notes, March",
    "Documentation gaps",
    "Code review guidelines",
    "Test coverage",
    "Memory usage",
    "Naming conventions",
    "Using widgets from Python",
    "Static linking",
    "Cross compiling",
    "Error handling style",
    "Roadmap for 1.1",
    "Contributor licence",
    "Bug triage",
    "Old compilers",
    "Thanks!",
    "Mirror on GitHub?",
]


def seed(root: Path) -> None:
    src = root.parent
    fossil = build(src)
    work = src / ".corpus-fossil"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    repo = Repo(fossil, work / "widgets.fossil", work)
    repo.f("init", repo.repo, "--admin-user", "admin", "--date-override", "2021-03-01 00:00:00")
    repo.r("user", "default", "admin")  # the corpus's environment has no USER
    repo.r("user", "password", "admin", "corpus-admin-unused-pw")
    for user in USERS:
        repo.r("user", "new", user, f"{user}@example.com", f"corpus-{user}-pw")
        repo.r("user", "capabilities", user, "bcdefghijkmnortwz2345")
    # anonymous readers may read, follow links and read the forum and ticket reports
    repo.r("user", "capabilities", "nobody", "ghjorz2t")
    repo.r(
        "sql",
        "REPLACE INTO config(name, value, mtime) VALUES ('project-name', 'Widgets', now()), ('index-page', '/home', now())",
    )
    hour = seed_checkins(repo)
    pages = work / "pages"
    pages.mkdir()
    for name, text in WIKI.items():
        path = pages / f"{name}.md"
        path.write_text(text)
        repo.r("wiki", "create", name, str(path), "--mimetype", "text/x-markdown")
    for name in ("BuildNotes", "Roadmap"):
        att = pages / f"{name.lower()}-notes.txt"
        att.write_text(f"Notes attached to {name}.\n")
        repo.r("attachment", "add", name, str(att))
    for i, (title, kind, status, severity, found) in enumerate(TICKETS):
        repo.r(
            "ticket", "add", "title", title, "type", kind, "status", status, "severity", severity,
            "priority", ("Immediate", "High", "Medium", "Low")[i % 4], "foundin", found,
            "comment", f"Reported by {USERS[i % len(USERS)]}: {title}.",
        )  # fmt: skip
    posts = work / "forum"
    posts.mkdir()
    for i, title in enumerate(THREADS):
        hour += 1
        when = stamp(hour)
        art = forum_artifact(title, f"{title}: what do you think?", USERS[i % len(USERS)], when, None, None)
        path = posts / f"post{i}.txt"
        path.write_text(art)
        root_hash = repo.put(path)
        for j in range(2 if i % 6 == 0 else 0):
            hour += 1
            reply = forum_artifact(
                None,
                f"Reply {j + 1}: agreed.",
                USERS[(i + j + 1) % len(USERS)],
                stamp(hour),
                root_hash,
                root_hash,
            )
            rpath = posts / f"post{i}-{j}.txt"
            rpath.write_text(reply)
            repo.put(rpath)
    repo.f("close", "--force", cwd=work / "checkout")
    repo.r("rebuild")


def configure(src: Path) -> None:
    """Once per commit (the app file's setup): Debian's SQLite, no OpenSSL (served on loopback)."""
    run(["./configure", "--disable-internal-sqlite", "--with-sqlite=auto", "--with-openssl=none"], src)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3) or sys.argv[2:] not in ([], ["--configure"]):
        raise SystemExit("usage: fossil_scm_seed.py ROOT [--configure]")
    if sys.argv[2:]:
        configure(Path(sys.argv[1]).resolve().parent)
    else:
        seed(Path(sys.argv[1]).resolve())
