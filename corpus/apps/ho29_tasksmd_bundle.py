"""Build Tasks.md's front end (SolidJS + Vite, the checkout's `frontend/src`) into `static/`, which its
Koa server serves from its working directory, once per source: each distinct `frontend/src` (the clean
build's, the buggy build's with its injections) is built once into `.corpus-bundles/<hash>/` and copied
from there on the next seed of the same source. Usage: ho29_tasksmd_bundle.py ROOT.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path


def source_hash(src: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(
        p for p in src.rglob("*") if p.is_file() and "node_modules" not in p.parts and ".git" not in p.parts
    ):
        digest.update(str(path.relative_to(src)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def main(root: Path) -> None:
    frontend = root / "frontend"
    bundle = root / ".corpus-bundles" / source_hash(frontend / "src")
    if not (bundle / "index.html").exists():
        dist = frontend / "dist"
        shutil.rmtree(dist, ignore_errors=True)
        # the app's own build, as its entrypoint runs it (base "/")
        subprocess.run(
            ["node", "node_modules/vite/bin/vite.js", "build", "--base=/"], cwd=frontend, check=True
        )
        shutil.rmtree(bundle, ignore_errors=True)
        bundle.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(dist, bundle)
    static = root / "static"
    shutil.rmtree(static, ignore_errors=True)
    shutil.copytree(bundle, static)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
