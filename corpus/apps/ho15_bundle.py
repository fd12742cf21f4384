"""Build a front end of held-out set 15 once per distinct source, kept in ROOT/.corpus-bundles/.

Usage: ho15_bundle.py ROOT OUT CMD... — hashes ROOT's src/ and its build configuration files (the
injected bugs live there), and if no bundle of that hash is kept, runs CMD in ROOT (the front end's
production build, which writes OUT) and keeps a copy of OUT; then OUT is the kept bundle. A run builds
the clean and the buggy bundle once each; later seeds copy.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

CONFIG_FILES = (
    "package.json",
    "svelte.config.js",
    "vite.config.js",
    "angular.json",
    "tsconfig.json",
    "tsconfig.app.json",
)


def source_hash(root: Path) -> str:
    digest = hashlib.sha256()
    files = sorted(p for p in (root / "src").rglob("*") if p.is_file())
    files += [root / name for name in CONFIG_FILES if (root / name).is_file()]
    for path in files:
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def main() -> None:
    root, out, cmd = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    kept = root / ".corpus-bundles" / source_hash(root)
    target = root / out
    if not kept.is_dir():
        shutil.rmtree(target, ignore_errors=True)
        subprocess.run(cmd, cwd=root, check=True)
        shutil.rmtree(kept, ignore_errors=True)
        shutil.copytree(target, kept)
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(kept, target)


if __name__ == "__main__":
    main()
