"""Serve the NiceGUI website (the project's own documentation and examples site) on loopback.

Usage: ho32_nicegui_serve.py ROOT PORT. The site is `main.py` at the checkout's root; it imports the
`nicegui` library, which the checkout also holds as its own folder. The mirror lacks some of that
folder's bundled front-end files (`absent` in the app file), so the library is the released wheel of
the same version in the virtualenv, and the checkout's root goes to the end of `sys.path` (the site's
own `website` package is found there, `nicegui` in site-packages first). `main.py` reads the port from
PORT (a patch of its `ui.run` call).
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path


def main() -> None:
    root = Path(sys.argv[1]).resolve()
    os.environ["PORT"] = sys.argv[2]
    os.chdir(root)
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != root] + [str(root)]
    sys.argv = [str(root / "main.py")]
    runpy.run_path(str(root / "main.py"), run_name="__main__")


if __name__ == "__main__":
    main()
