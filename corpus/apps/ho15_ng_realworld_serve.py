"""Serve ho15_ng_realworld: the built Angular app and the Conduit API on one loopback origin.

Usage: ho15_ng_realworld_serve.py ROOT PORT — /api/* is ho15_conduit_api over ROOT/.corpus-conduit.sqlite,
every other path a file of ROOT/dist/angular-conduit/browser or else its index.html (the app's routes are
real paths); stops on SIGTERM or SIGINT.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ho15_conduit_api import serve  # noqa: E402


def main() -> None:
    root, port = Path(sys.argv[1]), int(sys.argv[2])
    server = serve(
        root / ".corpus-conduit.sqlite", "127.0.0.1", port, root / "dist" / "angular-conduit" / "browser"
    )

    def stop(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()


if __name__ == "__main__":
    main()
