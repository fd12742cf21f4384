"""Build aiohttp-admin's react-admin bundle (`admin-js/` → `aiohttp_admin/static/admin.js`) with the Vite
that setup installed, once per source: the bundle of each distinct `admin-js/src` (the clean build's,
the buggy build's with its injections) is kept in the checkout's `.corpus-bundles/<hash>/` and copied
back for the next seed of the same source, so a run of both budgets builds each source once (a build
takes ~35 s, minutes on a loaded machine). Usage: ho13_aiohttp_admin_bundle.py ROOT (the checkout's
`aiohttp_admin` folder).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

OUTPUTS = ("admin.js", "admin.js.map")


def source_hash(js: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in js.rglob("*") if p.is_file() and "node_modules" not in p.parts):
        digest.update(str(path.relative_to(js)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    checkout = root.parent
    js = checkout / "admin-js"
    static = root / "static"
    cache = checkout / ".corpus-bundles" / source_hash(js)
    if not all((cache / name).is_file() for name in OUTPUTS):
        vite = checkout / "node_modules" / ".bin" / "vite"
        subprocess.run([str(vite), "build", str(js), "--logLevel", "error"], cwd=root, check=True)
        cache.mkdir(parents=True, exist_ok=True)
        for name in OUTPUTS:
            shutil.copy2(static / name, cache / name)
    else:
        for name in OUTPUTS:
            shutil.copy2(cache / name, static / name)


if __name__ == "__main__":
    main()
