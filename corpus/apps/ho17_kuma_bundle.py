"""Build Uptime Kuma's front end (Vue 3 + Vite, the checkout's `src/`) into `dist/`, which its server
serves, once per source: each distinct `src/` (the clean build's, the buggy build's with its
injections) is built once into `.corpus-bundles/<hash>/` and copied from there on the next seed of the
same source (a build takes a minute idle, 2–3 on a machine at load 20). Usage: ho17_kuma_bundle.py ROOT.
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


# The app's own Vite config without its two compression plugins and the bundle-size report: they
# only add .gz/.br copies (the server serves the plain files when those are absent) and a stats page,
# and they double a build's time, which must fit the corpus's seed deadline on a loaded machine.
CONFIG = """import base from "./config/vite.config.js";

export default {
    ...base,
    plugins: base.plugins.flat().filter((plugin) => !/compression|visualizer/.test(String(plugin && plugin.name))),
};
"""


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    cache = root / ".corpus-bundles" / source_hash(root)
    if not (cache / "index.html").is_file():
        shutil.rmtree(cache, ignore_errors=True)
        partial = cache.with_name(cache.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        config = root / ".corpus-vite.config.js"
        config.write_text(CONFIG, encoding="utf-8")
        vite = root / "node_modules" / ".bin" / "vite"
        # `npm run build` passes the version the front end compares with the server's (About page)
        version = json.loads((root / "package.json").read_text(encoding="utf-8"))["version"]
        subprocess.run(
            [
                str(vite),
                "build",
                "--config",
                str(config),
                "--outDir",
                str(partial),
                "--emptyOutDir",
                "--logLevel",
                "error",
            ],
            cwd=root,
            check=True,
            env={**os.environ, "npm_package_version": version},
        )
        partial.rename(cache)  # only a finished build is ever reused
    dist = root / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    shutil.copytree(cache, dist)


if __name__ == "__main__":
    main()
