"""Build Uptime Kuma's front end (Vue 3 + Vite, the checkout's `src/`) into `dist/`, which its server
serves, once per source: each distinct `src/` (the clean build's, the buggy build's with its
injections) is built once into `.corpus-bundles/<hash>/` and copied from there on the next seed of the
same source (a build takes a minute idle, several on a loaded machine). Usage: ho17_kuma_bundle.py ROOT.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path


def source_hash(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in (root / "src").rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    cache = root / ".corpus-bundles" / source_hash(root)
    if not (cache / "index.html").is_file():
        shutil.rmtree(cache, ignore_errors=True)
        vite = root / "node_modules" / ".bin" / "vite"
        # `npm run build` passes the version the front end compares with the server's (About page)
        version = json.loads((root / "package.json").read_text(encoding="utf-8"))["version"]
        subprocess.run(
            [
                str(vite),
                "build",
                "--config",
                "./config/vite.config.js",
                "--outDir",
                str(cache),
                "--emptyOutDir",
                "--logLevel",
                "error",
            ],
            cwd=root,
            check=True,
            env={**os.environ, "npm_package_version": version},
        )
    dist = root / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    shutil.copytree(cache, dist)


if __name__ == "__main__":
    main()
