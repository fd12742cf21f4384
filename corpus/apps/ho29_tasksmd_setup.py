"""Set up Tasks.md (BaldissaraMatheus/Tasks.md) for the corpus, once per checkout: its front end imports
the Stacks-Editor sources from a git submodule (the author's fork), which a plain checkout leaves empty.
The fork is cloned from beside the checkout's own origin (the mirror's `<owner>+Stacks-Editor`, or
GitHub when the checkout came from GitHub) at the commit below — the fork's head, which the app's
Dockerfile clones (the submodule's recorded commit is no longer in the fork) — then the three npm
trees are installed: the editor's, the front end's and the Koa server's. Usage: ho29_tasksmd_setup.py ROOT.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FORK_COMMIT = "2159a4b406888e63793c4f1525915dce96279f2c"
NPM = ["npm", "--no-audit", "--no-fund", "--loglevel=error"]


def fork_origin(root: Path) -> str:
    origin = subprocess.run(
        ["git", "-C", str(root), "remote", "get-url", "origin"], check=True, capture_output=True, text=True
    ).stdout.strip()
    if origin.startswith(("https://", "git@")):
        return "https://github.com/BaldissaraMatheus/Stacks-Editor.git"
    # a mirror: <mirror>/<owner>+<name>[/repo]
    path = Path(origin)
    repo_dir = path.parent if path.name == "repo" else path
    sibling = repo_dir.parent / "BaldissaraMatheus+Stacks-Editor"
    return str(sibling / "repo") if (sibling / "repo").exists() else str(sibling)


def main(root: Path) -> None:
    editor = root / "frontend" / "src" / "components" / "Stacks-Editor"
    if not (editor / ".git").exists():
        editor.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "clone", "-q", fork_origin(root), str(editor)], check=True)
    subprocess.run(["git", "-C", str(editor), "checkout", "-q", FORK_COMMIT], check=True)
    subprocess.run([*NPM, "ci", "--ignore-scripts"], cwd=editor, check=True)
    # the front end's lock file is out of step with its package.json (npm ci refuses): install
    subprocess.run([*NPM, "install", "--omit=dev"], cwd=root / "frontend", check=True)
    subprocess.run([*NPM, "ci"], cwd=root / "backend", check=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
