"""Seed the corpus's hgweb (ours, not Mercurial's): `ho17_hgweb_seed.py ROOT`.

Makes three fresh repositories under ROOT/.corpus-hg with the checkout's own `hg` (pure-Python
modules, run in this one process through `mercurial.dispatch`, so 150 commits take seconds, not a
process each) and writes the hgweb configuration `hg serve --web-conf` reads:

- `widgets` — 133 changesets (three of them tags) by four authors over a small Python project (shortlog pages of 20,
  changelog pages of 10): files added, edited, clean-ups that only delete lines in their module, an empty
  `requirements.txt`, a binary logo, a named branch merged back, tags, bookmarks; 16 commit messages
  say "test", one pasted a `<script>` into its message;
- `docs` — 28 changesets of a documentation folder; `scratch` — 3 changesets.

Dates are fixed (2021-03-01 on, one commit an hour) so every seed gives the same hashes.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

AUTHORS = (
    "Alice Martin <alice@example.com>",
    "Bob Okafor <bob@example.com>",
    "Carol Nguyen <carol@example.com>",
    "Dave Larsen <dave@example.com>",
)
TOPICS = ("parser", "cache", "cli", "config", "logging", "storage", "http client", "scheduler")
BASE_DATE = 1614556800  # 2021-03-01 00:00 UTC


class Repo:
    def __init__(self, path: Path, hg) -> None:  # hg: the checkout's mercurial.dispatch
        self.path = path
        self.hg = hg
        self.when = BASE_DATE

    def run(self, *args: str) -> None:
        req = self.hg.request([b"-R", str(self.path).encode(), b"-y", *(a.encode() for a in args)])
        code = self.hg.dispatch(req)
        if code:
            raise SystemExit(f"hg {' '.join(args)} failed ({code}) in {self.path}")

    def write(self, name: str, text: str | bytes) -> None:
        target = self.path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text, encoding="utf-8")

    def commit(self, message: str, author: str) -> None:
        self.when += 3600
        self.run("commit", "-A", "-m", message, "-u", author, "-d", f"{self.when} 0")


def module_text(topic: str, version: int) -> str:
    lines = [f'"""The {topic} module."""', ""]
    for i in range(version):
        lines += [f"def step_{i}(value):", f"    return value + {i}", ""]
    return "\n".join(lines)


def seed_widgets(repo: Repo) -> None:
    repo.write("README.md", "# widgets\n\nA small widget toolkit.\n")
    repo.write("widgets/__init__.py", "")
    repo.write("requirements.txt", "")  # no runtime dependencies: an empty file at the top
    repo.write("setup.cfg", "[metadata]\nname = widgets\nversion = 0.1\n")
    repo.write("logo.png", bytes(range(256)) * 4)
    repo.commit("Initial import of the widget toolkit", AUTHORS[0])
    versions = {t: 1 for t in TOPICS}
    for n in range(1, 130):
        author = AUTHORS[n % len(AUTHORS)]
        topic = TOPICS[n % len(TOPICS)]
        name = f"widgets/{topic.replace(' ', '_')}.py"
        if n == 64:
            repo.run("branch", "stable")
            repo.write("CHANGES.txt", "0.2: stable branch opened\n")
            repo.commit("Open the stable branch for 0.2", AUTHORS[1])
            repo.run("update", "default")
            continue
        if n == 66:
            repo.run("merge", "stable")
            repo.commit("Merge stable into default", AUTHORS[2])
            continue
        if n == 118:
            repo.write(
                "widgets/render.py",
                '"""Rendering."""\n\ndef render(w):\n    return "<div>%s</div>" % w\n',
            )
            repo.commit(
                "Render widgets as <script>alert('hgweb-xss')</script> fragments (pasted from the issue)",
                author,
            )
            continue
        if n % 9 == 4 and versions[topic] > 2:
            # a clean-up: only deletions in the module, one line added to the changelog
            versions[topic] -= 1
            repo.write(name, module_text(topic, versions[topic]))
            with open(repo.path / "CHANGES.txt", "a", encoding="utf-8") as changes:
                changes.write(f"{n}: trimmed {topic}\n")
            repo.commit(f"Remove the unused last step of the {topic} module", author)
            continue
        versions[topic] += 1
        repo.write(name, module_text(topic, versions[topic]))
        if n % 7 == 0:
            repo.write(f"tests/test_{topic.replace(' ', '_')}.py", f"def test_{n}():\n    assert True\n")
            message = f"Add a test for the {topic} module (step {versions[topic]})"
        else:
            message = f"Extend the {topic} module with step {versions[topic]}"
        if n % 11 == 0:
            message += "\n\nThe longer explanation: callers of the previous step keep working."
        repo.commit(message, author)
        if n in (30, 90, 120):
            repo.run("tag", "-u", AUTHORS[0], "-d", f"{repo.when + 60} 0", f"v0.{n // 30}")
    repo.run("bookmark", "-r", "tip", "next")
    repo.run("bookmark", "-r", "120", "review")


def seed_docs(repo: Repo) -> None:
    for n in range(28):
        repo.write(f"docs/chapter{n % 6}.rst", f"Chapter {n % 6}\n==========\n\nRevision {n}.\n")
        repo.commit(f"Docs: revise chapter {n % 6} (pass {n // 6 + 1})", AUTHORS[(n + 1) % 4])


def seed_scratch(repo: Repo) -> None:
    for n in range(3):
        repo.write("notes.txt", f"note {n}\n")
        repo.commit(f"Scratch note {n}", AUTHORS[3])


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    os.environ.update({"HGMODULEPOLICY": "py", "HGRCPATH": "", "HGPLAIN": "1", "HGENCODING": "utf-8"})
    sys.path.insert(0, str(root))
    from mercurial import dispatch  # the checkout's

    base = root / ".corpus-hg"
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir()
    repos = {
        "widgets": ("A small widget toolkit: parser, cache, cli", seed_widgets),
        "docs": ("The widget toolkit's manual", seed_docs),
        "scratch": ("Scratch space", seed_scratch),
    }
    paths = []
    for name, (description, fill) in repos.items():
        path = base / name
        path.mkdir()
        repo = Repo(path, dispatch)
        if dispatch.dispatch(dispatch.request([b"init", str(path).encode()])):
            raise SystemExit(f"hg init {path} failed")
        (path / ".hg" / "hgrc").write_text(
            f"[web]\ndescription = {description}\ncontact = Alice Martin <alice@example.com>\n",
            encoding="utf-8",
        )
        fill(repo)
        paths.append(f"{name} = {path}")
    (base / "hgweb.config").write_text(
        "[paths]\n"
        + "\n".join(paths)
        + "\n\n[web]\nstyle = paper\nmaxshortchanges = 20\nmaxchanges = 10\n"
        + "allow_archive =\npush_ssl = false\nencoding = utf-8\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
