"""Seed a fresh Jingo wiki for the corpus: its configuration, accounts and a git repository of pages.

Jingo keeps every page as a Markdown file in a git repository and reads titles, authors, dates and
messages from `git log`, so the seed makes the repository the way editors would have: one commit per
revision, each with its author, date and message (`GIT_AUTHOR_DATE`/`GIT_COMMITTER_DATE`), and each
file's mtime set to its last commit (the page list sorts by mtime). Every run starts from an empty
repository. The configuration (`corpus-config.yaml`) is the app's own format (`jingo -s` prints it):
local accounts only (Google sign-in off), no Gravatar images (another origin), anonymous reading;
`jingo_serve.py` writes the run's port into it.

Accounts: alice (``corpus-alice-pw``, the explorer's login) and bob (``corpus-bob-pw``); Jingo's
password hash is the SHA-1 hex of the password. Pages: Home and 44 more (the list shows 10 a page:
five pages), about a third with two to four revisions; six mention "test" (the explorer's search word);
one page's last commit message holds a pasted ``<script>``.
"""

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

BASE = 1_780_000_000  # a fixed past moment, so runs are alike

ACCOUNTS = {"alice": "Alice Admin", "bob": "Bob Baker"}
EDITORS = [
    ("Alice Admin", "alice@example.test"),
    ("Bob Baker", "bob@example.test"),
    ("Carol Cook", "carol@example.test"),
]

TOPICS = [
    "Onboarding", "Code Review", "Release Process", "Deploy Checklist", "Incident Response",
    "On Call", "Coding Style", "Branching", "Test Strategy", "Unit Tests", "Integration Tests",
    "Load Testing", "Security Policy", "Secrets", "Backups", "Monitoring", "Alerting", "Logging",
    "Dashboards", "Architecture", "Service Map", "Databases", "Migrations", "Caching", "Queues",
    "Feature Flags", "Accessibility", "Localisation", "Design System", "Frontend Build",
    "Mobile Apps", "API Guidelines", "Versioning", "Deprecations", "Support Rota", "Hiring",
    "Interviews", "Offboarding", "Holidays", "Meeting Notes", "Retrospectives", "Roadmap",
    "Glossary", "Contacts",
]  # fmt: skip

CONFIG = """---
application:
  title: Corpus Handbook
  logo: ''
  favicon: ''
  repository: '{repo}'
  docSubdir: ''
  remote: ''
  pushInterval: 30
  secret: corpus-not-secret
  git: git
  skipGitCheck: true
  loggingMode: 1
  pedanticMarkdown: true
  gfmBreaks: true
  staticWhitelist: '/\\.png$/i, /\\.jpg$/i, /\\.gif$/i'
  proxyPath: ''
  allowHtml: false
authentication:
  google:
    enabled: false
    clientId: ''
    clientSecret: ''
    redirectURL: ''
  github:
    enabled: false
    clientId: ''
    clientSecret: ''
    redirectURL: ''
  ldap:
    enabled: false
    url: 'ldap://example.org:389'
    bindDn: ''
    bindCredentials: ''
    searchBase: 'ou=people,dc=example,dc=org'
    searchFilter: '(uid={{{{username}}}})'
    searchAttributes: ''
  local:
    enabled: true
    accounts:
{accounts}
features:
  markitup: false
  codemirror: true
  gravatar: false
server:
  hostname: 127.0.0.1
  port: {port}
  localOnly: false
  baseUrl: 'http://127.0.0.1:{port}'
  CORS:
    enabled: false
    allowedOrigin: '*'
authorization:
  anonRead: true
  validMatches: .+
  emptyEmailMatches: false
pages:
  index: Home
  title:
    fromFilename: true
    fromContent: false
    asciiOnly: false
    lowercase: false
  itemsPerPage: 10
customizations:
  sidebar: _sidebar.md
  footer: _footer.md
  style: _style.css
  script: _script.js
"""


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=env, timeout=60)


class Repo:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.clock = BASE
        self.last: dict[str, int] = {}

    def commit(self, title: str, text: str, editor: tuple[str, str], message: str) -> None:
        self.clock += 3600
        name = title.replace(" ", "-") + ".md"
        (self.path / name).write_text(text)
        stamp = f"{self.clock} +0000"
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": editor[0],
            "GIT_AUTHOR_EMAIL": editor[1],
            "GIT_COMMITTER_NAME": editor[0],
            "GIT_COMMITTER_EMAIL": editor[1],
            "GIT_AUTHOR_DATE": stamp,
            "GIT_COMMITTER_DATE": stamp,
        }
        git(self.path, "add", name, env=env)
        git(self.path, "commit", "-q", "-m", message, env=env)
        self.last[name] = self.clock

    def finish(self) -> None:
        for name, when in self.last.items():
            os.utime(self.path / name, (when, when))


def page_text(title: str, n: int, version: int) -> str:
    test = " Every change here is checked by a test before it ships." if n % 7 == 3 else ""
    steps = "\n".join(f"{i}. Step {i} of the {title.lower()} guide." for i in range(1, 3 + version))
    return (
        f"Notes on **{title.lower()}** for the team (revision {version + 1}).{test}\n\n"
        f"## How we do it\n\n{steps}\n\nSee also [[{TOPICS[(n + 1) % len(TOPICS)]}]].\n"
    )


def seed(root: Path) -> None:
    repo = root / "corpus-wiki"
    shutil.rmtree(repo, ignore_errors=True)
    repo.mkdir()
    git(repo, "init", "-q", "-b", "master")
    wiki = Repo(repo)
    for n, title in enumerate(TOPICS):
        for version in range(1 + (n % 4 if n % 4 == 3 or n % 5 == 0 else 0)):
            editor = EDITORS[(n + version) % len(EDITORS)]
            message = f"{'Create' if version == 0 else 'Update'} {title}"
            wiki.commit(title, page_text(title, n, version), editor, message)
    # an editor pasted a snippet into a commit message, on the page edited last but one
    wiki.commit(
        "Glossary",
        page_text("Glossary", 42, 1),
        EDITORS[1],
        "Add the <script>alert('glossary')</script> terms",
    )
    home = "Welcome to the team handbook.\n\n" + "\n".join(f"* [[{t}]]" for t in TOPICS[:12]) + "\n"
    wiki.commit("Home", home, EDITORS[0], "Update the front page")
    wiki.finish()

    accounts = "\n".join(
        f"      - username: {login}\n"
        f"        passwordHash: {hashlib.sha1(f'corpus-{login}-pw'.encode()).hexdigest()}\n"
        f"        name: {name}\n"
        f"        email: {login}@example.test"
        for login, name in ACCOUNTS.items()
    )
    (root / "corpus-config.yaml").write_text(CONFIG.format(repo=repo, accounts=accounts, port=6067))


if __name__ == "__main__":
    seed(Path(sys.argv[1]))
