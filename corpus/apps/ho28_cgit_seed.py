"""Seed cgit (held-out set 28): fresh bare repositories and the cgitrc that serves them.

Usage: ho28_cgit_seed.py ROOT. Writes ROOT/.corpus-repos/*.git (made with `git fast-import`, so a
fresh set takes a second or two) and ROOT/.corpus-cgitrc (virtual root "/", no cache, ten
repositories a page on the index, fifty commits a page in the log, file and line counts in the
log). The repositories: `atlas`, a small C library with 140 commits on main (three log pages),
a `dev` and a `release-1.x` branch, annotated and lightweight tags, commits touching one to four
files; and 23 small ones (3 to 12 commits each: their first commit shows on their summary page),
with descriptions and owners, so the index takes three pages. Two texts quote HTML as developers
paste it: a commit message body and an annotated tag's release notes holding a <script> element.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

BASE_TS = 1767225600  # 2026-01-01 00:00 UTC
PEOPLE = [
    ("Ada Brook", "ada@example.org"),
    ("Bruno Costa", "bruno@example.org"),
    ("Chen Wei", "chen@example.org"),
    ("Dora Eklund", "dora@example.org"),
    ("Emil Frey", "emil@example.org"),
]
SMALL = [
    ("ci-scripts", "Shell helpers for the build farm"),
    ("dotfiles", "Shared editor and shell settings"),
    ("docs-site", "Sources of the project handbook"),
    ("fuzz-corpus", "Seed inputs for the parsers' fuzzers"),
    ("geo-tiles", "Tile cutter for the map viewer"),
    ("hello-plugin", "Minimal plugin example"),
    ("icons", "SVG icon set"),
    ("json-lite", "A tiny JSON reader in C"),
    ("kv-store", "Append-only key-value store"),
    ("log-rotate", "Log rotation daemon"),
    ("mail-bot", "Posts build results to the list"),
    ("net-probe", "Latency probe for the mirrors"),
    ("opt-parse", "Command line option parser"),
    ("pkg-meta", "Packaging metadata for distributions"),
    ("queue-worker", "Job queue worker"),
    ("rate-limit", "Token bucket rate limiter"),
    ("sched", "Cron-like scheduler"),
    ("templates", "Project templates"),
    ("unicode-tables", "Generated Unicode property tables"),
    ("vm-images", "Recipes for the test VM images"),
    ("web-hooks", "Receiver for repository web hooks"),
    ("xml-tools", "Small XML command line tools"),
    ("zip-util", "Archive helper"),
]
XSS_BODY = (
    "A title such as <script>alert(28)</script> used to reach the page unescaped;\n"
    "titles now go through html_escape() like every other field.\n"
)
XSS_TAG = "Release 1.2\n\nHighlights:\n- faster parser\n- <script>alert(28)</script> in titles is escaped\n"


class Stream:
    """A `git fast-import` stream under construction."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.mark = 0

    def data(self, text: str) -> None:
        raw = text.encode()
        self.parts.append(b"data %d\n" % len(raw) + raw + b"\n")

    def line(self, text: str) -> None:
        self.parts.append(text.encode() + b"\n")

    def commit(
        self, ref: str, who: int, ts: int, message: str, files: dict[str, str], parent: int | None
    ) -> int:
        self.mark += 1
        name, mail = PEOPLE[who % len(PEOPLE)]
        self.line(f"commit {ref}")
        self.line(f"mark :{self.mark}")
        self.line(f"author {name} <{mail}> {ts} +0000")
        self.line(f"committer {name} <{mail}> {ts} +0000")
        self.data(message)
        if parent is not None:
            self.line(f"from :{parent}")
        for path, content in files.items():
            self.line(f"M 100644 inline {path}")
            self.data(content)
        return self.mark

    def tag(self, name: str, target: int, who: int, ts: int, message: str) -> None:
        person, mail = PEOPLE[who % len(PEOPLE)]
        self.line(f"tag {name}")
        self.line(f"from :{target}")
        self.line(f"tagger {person} <{mail}> {ts} +0000")
        self.data(message)

    def light_tag(self, name: str, target: int) -> None:
        self.line(f"reset refs/tags/{name}")
        self.line(f"from :{target}")

    def bytes(self) -> bytes:
        return b"".join(self.parts) + b"done\n"


def _source(module: str, version: int) -> str:
    return f'/* {module}.c: part of atlas */\n#include "{module}.h"\n\n' + "".join(
        f"int {module}_step_{k}(int x) {{ return x + {k * version}; }}\n" for k in range(1, 4 + version % 5)
    )


def _atlas(stream: Stream) -> None:
    modules = ["parse", "lexer", "buffer", "io", "hash", "utf8", "alloc", "cli"]
    ts = BASE_TS - 300 * 86400
    head = stream.commit(
        "refs/heads/main", 0, ts, "Initial import\n", {"README": "atlas: a small C library\n"}, None
    )
    tagged = {20: "v0.1", 45: "v0.2", 70: "v1.0", 95: "v1.1"}
    for n in range(1, 140):
        ts += 2 * 86400 + (n % 5) * 3600
        files: dict[str, str] = {}
        for k in range(1 + n % 4):  # one to four files a commit
            module = modules[(n + k * 3) % len(modules)]
            files[f"src/{module}.c"] = _source(module, n + k)
        if n % 7 == 0:
            files["docs/CHANGES"] = "".join(f"- change {k}\n" for k in range(n))
        message = f"{modules[n % len(modules)]}: {['fix', 'tidy', 'speed up', 'document'][n % 4]} step {n}\n"
        if n == 131:
            message = "html: escape titles\n\n" + XSS_BODY
        head = stream.commit("refs/heads/main", n, ts, message, files, head)
        if n in tagged:
            stream.tag(tagged[n], head, n, ts + 60, f"Release {tagged[n][1:]}\n")
        if n == 100:
            release = head
        if n == 120:
            stream.tag("v1.2", head, 2, ts + 60, XSS_TAG)
        if n == 125:
            fork = head
    stream.light_tag("nightly", head)
    branch = release
    for k in range(1, 6):
        branch = stream.commit(
            "refs/heads/release-1.x",
            k,
            BASE_TS - 60 * 86400 + k * 86400,
            f"release: backport fix {k}\n",
            {"src/parse.c": _source("parse", 300 + k)},
            branch,
        )
    branch = fork
    for k in range(1, 9):
        branch = stream.commit(
            "refs/heads/dev",
            k + 1,
            BASE_TS - 20 * 86400 + k * 86400,
            f"dev: experiment {k}\n",
            {"src/experimental.c": _source("experimental", k)},
            branch,
        )


def _small(stream: Stream, index: int) -> None:
    ts = BASE_TS - (200 - index * 5) * 86400
    head = None
    for n in range(3 + index % 10):
        ts += 86400 + index * 600
        files = {"README": f"commit {n}\n", f"src/file{n % 3}.txt": f"version {n}\n"}
        head = stream.commit(
            "refs/heads/main",
            index + n,
            ts,
            f"{'Initial commit' if n == 0 else f'Update {n}'}\n",
            files,
            head,
        )


def _repo(path: Path, stream: Stream, description: str, owner: str) -> None:
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    subprocess.run(["git", "fast-import", "--quiet"], cwd=path, input=stream.bytes(), check=True)
    (path / "description").write_text(description + "\n", encoding="utf-8")
    subprocess.run(["git", "--git-dir", str(path), "config", "gitweb.owner", owner], check=True)


def _cgitrc(root: Path, repos: Path) -> str:
    return f"""css=/cgit.css
logo=/cgit.png
virtual-root=/
root-title=Corpus Forge
root-desc=Public repositories of the corpus team
cache-size=0
enable-http-clone=0
enable-index-links=1
enable-index-owner=1
enable-git-config=1
enable-log-filecount=1
enable-log-linecount=1
enable-commit-graph=0
enable-blame=1
max-repo-count=10
max-commit-count=50
summary-log=10
summary-branches=10
summary-tags=10
max-stats=year
noplainemail=1
remove-suffix=1
scan-path={repos}
"""


def main(root: Path) -> None:
    repos = root / ".corpus-repos"
    shutil.rmtree(repos, ignore_errors=True)
    repos.mkdir()
    atlas = Stream()
    _atlas(atlas)
    _repo(repos / "atlas.git", atlas, "atlas: a small portable C library", "Ada Brook")
    for index, (name, description) in enumerate(SMALL):
        stream = Stream()
        _small(stream, index)
        _repo(repos / f"{name}.git", stream, description, PEOPLE[index % len(PEOPLE)][0])
    (root / ".corpus-cgitrc").write_text(_cgitrc(root, repos), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
