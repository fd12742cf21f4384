"""Serve the Next.js dashboard (held-out set 24) on 127.0.0.1:PORT: start the checkout's PostgreSQL
cluster (seeded by ho24_nextdash_seed.py) on a free loopback port, wait until it accepts connections,
then exec `next start` on the production build the seed made. Both stay in this process group, so the
corpus's stop of the group stops the database too. Usage: ho24_nextdash_serve.py ROOT PORT.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# the seed script beside this one (run as a script, its folder is on the path)
from ho24_nextdash_seed import DB, free_port, start_postgres


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    port = sys.argv[2]
    pg_port = free_port()
    start_postgres(root / ".corpus-pg", pg_port, own_session=False)
    os.environ["POSTGRES_URL"] = f"postgres://postgres@127.0.0.1:{pg_port}/{DB}"
    os.chdir(root)
    next_bin = str(root / "node_modules" / ".bin" / "next")
    os.execv(next_bin, [next_bin, "start", "-H", "127.0.0.1", "-p", port])


if __name__ == "__main__":
    main()
