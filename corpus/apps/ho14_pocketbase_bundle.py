"""Build PocketBase's superuser UI (Svelte 4 + Vite, the checkout's `ui/`) into `.corpus-dist/`, which the
server serves as its public folder, once per source: each distinct `ui/src` (the clean build's, the buggy
build's with its injections) is built once into `.corpus-bundles/<hash>/` and copied from there on the
next seed of the same source (a build takes ~30 s idle, minutes on a loaded machine). The committed
`ui/dist` is never touched. Usage: ho14_pocketbase_bundle.py ROOT (the checkout's `ui` folder).
"""

from __future__ import annotations

import hashlib
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
        subprocess.run(
            [str(vite), "build", "--outDir", str(cache), "--emptyOutDir", "--logLevel", "error"],
            cwd=root,
            check=True,
        )
    dist = root / ".corpus-dist"
    shutil.rmtree(dist, ignore_errors=True)
    shutil.copytree(cache, dist)


if __name__ == "__main__":
    main()
