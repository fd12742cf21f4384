"""Seed the corpus's gitweb (ours, not git's): `ho20_gitweb_seed.py ROOT`.

ROOT is the checkout's `gitweb/` folder. Makes four fresh bare repositories under
`ROOT/.corpus-gitweb/repos` with `git fast-import` (fixed dates and authors, so every seed gives the
same hashes) and writes the gitweb configuration the serve script hands gitweb through GITWEB_CONFIG:

- `widgets.git` — 266 commits by four authors over a small Python project (shortlog and log pages of
  100): modules added and edited, three commits that touch a dozen files or more (a licence header,
  a reformat, a header rewrite), an `examples/` folder added once and never changed, a `stable`
  branch, annotated and lightweight tags; 34 commit messages say "cache", one body pasted a
  `<script>` from a bug report;
- `docs.git` — 45 commits of a documentation folder; `website.git` — 12; `scratch.git` — 3.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

AUTHORS = (
    ("Alice Martin", "alice@example.com"),
    ("Bob Okafor", "bob@example.com"),
    ("Carol Nguyen", "carol@example.com"),
    ("Dave Larsen", "dave@example.com"),
)
TOPICS = (
    "parser",
    "cache",
    "cli",
    "config",
    "logging",
    "storage",
    "http_client",
    "scheduler",
    "render",
    "events",
    "plugins",
    "auth",
)
BASE_DATE = 1614556800  # 2021-03-01 00:00 UTC


class Stream:
    """A git fast-import stream with marks, one commit an hour."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.mark = 0
        self.when = BASE_DATE

    @staticmethod
    def data(text: str | bytes) -> bytes:
        raw = text.encode() if isinstance(text, str) else text
        return b"data %d\n%s\n" % (len(raw), raw)

    def commit(
        self,
        branch: str,
        author: tuple[str, str],
        message: str,
        files: dict[str, str | None],
        parent: int | None = None,
        merge: int | None = None,
    ) -> int:
        self.mark += 1
        self.when += 3600
        who = f"{author[0]} <{author[1]}> {self.when} +0000".encode()
        out = [
            b"commit refs/heads/%s\n" % branch.encode(),
            b"mark :%d\n" % self.mark,
            b"author " + who + b"\n",
            b"committer " + who + b"\n",
            self.data(message),
        ]
        if parent is not None:
            out.append(b"from :%d\n" % parent)
        if merge is not None:
            out.append(b"merge :%d\n" % merge)
        for path, content in files.items():
            if content is None:
                out.append(b"D %s\n" % path.encode())
            else:
                out.append(b"M 100644 inline %s\n" % path.encode())
                out.append(self.data(content))
        self.parts.append(b"".join(out) + b"\n")
        return self.mark

    def tag(self, name: str, mark: int, message: str | None) -> None:
        if message is None:
            self.parts.append(b"reset refs/tags/%s\nfrom :%d\n\n" % (name.encode(), mark))
        else:
            who = f"{AUTHORS[0][0]} <{AUTHORS[0][1]}> {self.when} +0000".encode()
            self.parts.append(
                b"tag %s\nfrom :%d\ntagger %s\n%s" % (name.encode(), mark, who, self.data(message))
            )

    def load(self, repo: Path, description: str, owner: str) -> None:
        subprocess.run(["git", "init", "-q", "--bare", "-b", "master", str(repo)], check=True)
        subprocess.run(
            ["git", "-C", str(repo), "fast-import", "--quiet"],
            input=b"".join(self.parts) + b"done\n",
            check=True,
        )
        (repo / "description").write_text(description + "\n", encoding="utf-8")
        subprocess.run(["git", "-C", str(repo), "config", "gitweb.owner", owner], check=True)


def module_text(topic: str, version: int, header: str = "") -> str:
    lines = [header + f'"""The {topic.replace("_", " ")} module."""', ""]
    for i in range(version):
        lines += [f"def step_{i}(value):", f"    return value + {i}", ""]
    return "\n".join(lines)


def seed_widgets(path: Path) -> None:
    s = Stream()
    files = {
        "README.md": "# widgets\n\nA small widget toolkit.\n",
        "setup.cfg": "[metadata]\nname = widgets\n",
        "widgets/__init__.py": "",
    }
    last = s.commit("master", AUTHORS[0], "Initial import of the widget toolkit\n", files)
    versions = {t: 0 for t in TOPICS}
    header = ""
    stable_from = None
    for n in range(1, 262):
        author = AUTHORS[n % len(AUTHORS)]
        topic = TOPICS[n % len(TOPICS)]
        if n in (90, 170, 230):
            # one commit over every module: a dozen files or more in one change
            header = {
                90: "# SPDX-License-Identifier: MIT\n",
                170: "# SPDX-License-Identifier: MIT\n# widgets\n",
                230: "# widgets: a small widget toolkit\n",
            }[n]
            message = {
                90: "Add a licence header to every module\n",
                170: "Reformat every module after the style change\n\nNo behaviour changes.\n",
                230: "Rewrite the module headers for the 1.0 documentation\n",
            }[n]
            change = {f"widgets/{t}.py": module_text(t, max(versions[t], 1), header) for t in TOPICS}
            change["CHANGES.txt"] = f"change {n}: headers\n"
            change["README.md"] = f"# widgets\n\nA small widget toolkit (revision {n}).\n"
            last = s.commit("master", author, message, change, last)
            continue
        if n == 120:
            # a folder added once and never touched again
            last = s.commit(
                "master",
                author,
                "Add usage examples\n",
                {
                    "examples/hello.py": "import widgets\n\nprint(widgets)\n",
                    "examples/README.md": "# Examples\n\nRun them from the checkout.\n",
                },
                last,
            )
            continue
        versions[topic] += 1
        if n % 19 == 0:
            subject = f"Fix the {topic.replace('_', ' ')} cache invalidation"
        elif n % 7 == 0:
            subject = f"Clean up the {topic.replace('_', ' ')} module"
        else:
            subject = f"{('Add', 'Extend', 'Tidy', 'Document')[n % 4]} step {versions[topic]} of the {topic.replace('_', ' ')} module"
        body = f"Part of the {('spring', 'summer', 'autumn', 'winter')[n // 70 % 4]} milestone.\n"
        if n == 147:
            body = (
                "The crash report pasted into the tracker was:\n\n"
                "    TypeError: <script>alert('widgets-147')</script> is not a function\n\n"
                "Guard the renderer against it.\n"
            )
        last = s.commit(
            "master",
            author,
            f"{subject}\n\n{body}",
            {f"widgets/{topic}.py": module_text(topic, versions[topic], header)},
            last,
        )
        if n % 30 == 0:
            s.tag(f"v0.{n // 30}", last, f"Release 0.{n // 30}\n" if n % 60 == 0 else None)
        if n == 200:
            stable_from = last
    s.parts.append(b"reset refs/heads/stable\nfrom :%d\n\n" % stable_from)
    branch = stable_from
    for k in range(4):
        branch = s.commit(
            "stable",
            AUTHORS[(k + 1) % 4],
            f"Backport fix {k + 1} to stable\n",
            {"CHANGES.txt": f"stable fix {k + 1}\n"},
            branch,
        )
    s.tag("v0.8.1", branch, "Stable release 0.8.1\n")
    s.load(path, "widgets: a small widget toolkit for terminal programs", "Alice Martin")


def seed_simple(path: Path, count: int, folder: str, description: str, owner: str) -> None:
    s = Stream()
    last = None
    for n in range(count):
        author = AUTHORS[(n + 2) % len(AUTHORS)]
        page = f"{folder}/page-{n % 9 + 1}.md"
        last = s.commit(
            "master",
            author,
            f"{'Write' if n < 9 else 'Revise'} {page}\n",
            {page: f"# Page {n % 9 + 1}\n\nRevision {n}.\n"},
            last,
        )
        if n and n % 15 == 0:
            s.tag(f"r{n // 15}", last, None)
    s.load(path, description, owner)


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    base = root / ".corpus-gitweb"
    if base.exists():
        shutil.rmtree(base)
    repos = base / "repos"
    repos.mkdir(parents=True)
    seed_widgets(repos / "widgets.git")
    seed_simple(repos / "docs.git", 45, "docs", "docs: the widget toolkit's user guide", "Carol Nguyen")
    seed_simple(repos / "website.git", 12, "site", "website: the project's home page", "Bob Okafor")
    seed_simple(repos / "scratch.git", 3, "notes", "scratch: experiments", "Dave Larsen")
    (base / "gitweb_config.perl").write_text(
        "\n".join(
            [
                "# written by ho20_gitweb_seed.py: what `make gitweb` would substitute",
                'our $version = "2.39.5";',
                'our $GIT = "git";',
                f'our $projectroot = "{repos}";',
                f'our $projects_list = "{repos}";',
                "our $project_maxdepth = 2007;",
                'our $home_link_str = "projects";',
                'our $site_name = "corpus gitweb";',
                'our $site_html_head_string = "";',
                'our $site_header = "";',
                'our $home_text = "";',
                'our $site_footer = "";',
                'our @stylesheets = ("static/gitweb.css");',
                'our $logo = "static/git-logo.png";',
                'our $favicon = "static/git-favicon.png";',
                'our $javascript = "static/gitweb.js";',
                'our $export_ok = "";',
                'our $strict_export = "";',
                "our @git_base_url_list = ();",
                'our $highlight_bin = "highlight";',
                "1;",
                "",
            ]
        ),
        encoding="utf-8",
    )
    print(f"seeded 4 repositories into {repos}")


if __name__ == "__main__":
    main()
