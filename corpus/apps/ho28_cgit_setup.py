"""Set up cgit (held-out set 28): put the git sources cgit builds against into ROOT/git, then make.

Usage: ho28_cgit_setup.py ROOT. cgit's Makefile pins the git release it links with (GIT_VER) and
would download its tarball; here the sources come from a local bare mirror of git/git when there
is one (CORPUS_GIT_MIRROR, default /work/.mirror/git+git/repo: `git archive v<GIT_VER>`), else from
a shallow clone of that tag. The build needs gcc, make and zlib's headers (Debian: build-essential,
zlib1g-dev); Lua, curl, expat and gettext are left out.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path

MAKE_FLAGS = ["NO_LUA=1", "NO_CURL=1", "NO_EXPAT=1", "NO_GETTEXT=1", "NO_TCLTK=1", "NO_PERL=1", "NO_PYTHON=1"]


def _git_version(root: Path) -> str:
    found = re.search(r"^GIT_VER = (\S+)$", (root / "Makefile").read_text(encoding="utf-8"), re.M)
    if found is None:
        raise SystemExit("cgit's Makefile names no GIT_VER")
    return found.group(1)


def _sources(root: Path, version: str) -> None:
    target = root / "git"
    if (target / "Makefile").is_file():
        return  # already there (setup is re-run when the app file's setup changes)
    target.mkdir(exist_ok=True)
    mirror = Path(os.environ.get("CORPUS_GIT_MIRROR", "/work/.mirror/git+git/repo"))
    if mirror.is_dir():
        archive = subprocess.run(
            ["git", f"--git-dir={mirror}", "archive", f"v{version}"], capture_output=True, check=True
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(target, filter="data")
        return
    subprocess.run(
        [
            "git",
            "clone",
            "-q",
            "--depth",
            "1",
            "--branch",
            f"v{version}",
            "https://github.com/git/git",
            str(target),
        ],
        check=True,
    )


def main(root: Path) -> None:
    _sources(root, _git_version(root))
    subprocess.run(["make", "-j2", *MAKE_FLAGS], cwd=root, check=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
