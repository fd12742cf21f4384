"""Serve the corpus's Yancy: its test application (`eg/test-app/myapp.pl`, Mojolicious::Lite with the
Yancy plugin, its password login and its Bootstrap 4 forms) under Debian's Perl, on loopback.

Debian's JSON::Validator ships without the JSON Schema draft-04 meta-schema that the OpenAPI spec
behind Yancy's editor refers to, and would fetch it from the web; the same public document comes
with PyPI's `jsonschema-specifications` (installed in the app's virtualenv by `setup`), so it is put
in a cache directory JSON::Validator reads first (file named by the MD5 of its URL, as the Store
names its cache). `MOJO_MODE=auth` merges `myapp.auth.conf` (the Auth plugin) into `myapp.conf`.
Usage: ho12_yancy_serve.py ROOT PORT
"""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import sys
from pathlib import Path

DRAFT4 = "http://json-schema.org/draft-04/schema"


def schema_cache(root: Path) -> Path:
    cache = root / ".corpus-jvcache"
    cache.mkdir(exist_ok=True)
    found = glob.glob(
        str(
            root
            / ".corpus-venv/lib/python3*/site-packages/jsonschema_specifications/schemas/draft4/metaschema.json"
        )
    )
    if not found:
        raise SystemExit("no draft-04 meta-schema: setup installs jsonschema-specifications")
    shutil.copyfile(found[0], cache / hashlib.md5(DRAFT4.encode()).hexdigest())
    return cache


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    port = sys.argv[2]
    env = dict(os.environ, JSON_VALIDATOR_CACHE_PATH=str(schema_cache(root)), MOJO_MODE="auth")
    app = root / "eg" / "test-app"
    os.chdir(app)
    os.execvpe("perl", ["perl", "myapp.pl", "daemon", "-l", f"http://127.0.0.1:{port}"], env)


if __name__ == "__main__":
    main()
