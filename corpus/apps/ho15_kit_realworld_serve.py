"""Serve ho15_kit_realworld: the Conduit API on a free loopback port, the SvelteKit server on PORT.

Usage: ho15_kit_realworld_serve.py ROOT PORT — starts ho15_conduit_api over ROOT/.corpus-conduit.sqlite
in a thread, then the app's adapter-node build (`node build`) with HOST/PORT/ORIGIN set and CONDUIT_API
pointing at the API; stops both on SIGTERM or SIGINT.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ho15_conduit_api import serve  # noqa: E402


def main() -> None:
    root, port = Path(sys.argv[1]), int(sys.argv[2])
    api = serve(root / ".corpus-conduit.sqlite", "127.0.0.1", 0)
    threading.Thread(target=api.serve_forever, daemon=True).start()
    env = dict(
        os.environ,
        HOST="127.0.0.1",
        PORT=str(port),
        ORIGIN=f"http://127.0.0.1:{port}",
        CONDUIT_API=f"http://127.0.0.1:{api.server_address[1]}/api",
    )
    node = subprocess.Popen(["node", "build"], cwd=root, env=env)

    def stop(signum: int, frame: FrameType | None) -> None:
        node.terminate()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    code = node.wait()
    api.shutdown()
    sys.exit(code)


if __name__ == "__main__":
    main()
