"""Fill ho24_nextdash's build cache outside the corpus's seed deadline: check out the app in WORK (from
MIRROR), make the clean or buggy tree exactly as `corpus run` does, and run the app's seed on it with
no deadline (a first `next build` takes 6-7 minutes at load 25-30, more than the corpus allows a seed).
After both builds, every seed of a run is a copy from `.corpus-builds/`.

Usage (from the repository root): python corpus/apps/ho24_nextdash_prebuild.py WORK MIRROR clean|buggy
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from corpus.build import build, checkout, set_up
from corpus.spec import load

APPS = Path(__file__).resolve().parent


def main() -> None:
    work, mirror, which = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    app = load(APPS / "ho24_nextdash.toml")
    co = checkout(app, work, mirror, False, print)
    set_up(co, work, print)
    build(co, which == "buggy")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")} | app.env
    subprocess.run([sys.executable, str(APPS / "ho24_nextdash_seed.py"), str(co.root)], check=True, env=env)


if __name__ == "__main__":
    main()
