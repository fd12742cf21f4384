"""Mealie's front end for a corpus build (ours): `ho30_mealie_bundle.py ROOT`.

Runs the app's own `yarn generate` (`nuxt generate --spa`, as its Dockerfile does) once per distinct
`frontend/` source and keeps the result in `ROOT/.corpus-bundles/<hash>/`: the clean and the buggy build
differ in their Vue files, and a build takes minutes. `ROOT/.corpus-dist` is then pointed at the bundle
of the source in the checkout now (Mealie serves `STATIC_FILES` from there). Webpack 4 needs OpenSSL's
legacy provider on Node >= 17.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve()
FRONTEND = ROOT / "frontend"


def source_hash() -> str:
    """The front end's source as git sees it (tracked or new, not ignored): a build writes ignored files
    (`dist/`, `.nuxt/`, the PWA module's `static/sw.js`) that are no part of the source."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "frontend"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    digest = hashlib.sha256()
    for name in sorted(n for n in listed.decode().split("\0") if n):
        path = ROOT / name
        if path.is_file():
            digest.update(name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def main() -> None:
    bundle = ROOT / ".corpus-bundles" / source_hash()
    if not (bundle / "index.html").is_file():
        env = dict(os.environ, NODE_OPTIONS="--openssl-legacy-provider")
        subprocess.run(["yarn", "generate"], cwd=FRONTEND, env=env, check=True)
        shutil.rmtree(bundle, ignore_errors=True)
        shutil.copytree(FRONTEND / "dist", bundle)
    link = ROOT / ".corpus-dist"
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(bundle, target_is_directory=True)


if __name__ == "__main__":
    main()
