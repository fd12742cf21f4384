"""Fresh database for the corpus's Redmine: a copy of the template `ho11_redmine_setup.py` built.

The template holds the migrated schema, Redmine's default data and `ho11_redmine_seed.rb`'s accounts,
projects, issues, news and wiki pages; copying it takes no Rails boot. Also drops the server's pid
file (a server killed by the runner leaves it, and `rails server` refuses to start over one) and the
file cache. Usage: ho11_redmine_seed.py ROOT
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    db = root / "db"
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(f"{db / 'corpus.sqlite3'}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(db / "corpus-template.sqlite3", db / "corpus.sqlite3")
    (root / "tmp" / "pids" / "corpus-server.pid").unlink(missing_ok=True)
    shutil.rmtree(root / "tmp" / "cache", ignore_errors=True)


if __name__ == "__main__":
    main()
