"""Serve Piccolo Admin's example app on loopback, for the corpus.

Usage: python piccolo_admin_serve.py ROOT PORT
  ROOT = the piccolo_admin checkout (its `piccolo_admin/dist` built by `vite build` from the injected
  `admin_ui` source), PORT = the loopback port.

The example's own `run` command rebuilds its data and serves on every interface with a reloader;
this serves the same `APP` on 127.0.0.1 only, over the data the seed script left.
"""

import sys
from pathlib import Path

root, port = Path(sys.argv[1]).resolve(), int(sys.argv[2])
sys.path.insert(0, str(root))

import uvicorn  # type: ignore[import-not-found]  # noqa: E402
from piccolo_admin.example.tables import set_engine  # type: ignore[import-not-found]  # noqa: E402

set_engine("sqlite")
from piccolo_admin.example.app import APP  # type: ignore[import-not-found]  # noqa: E402

uvicorn.run(APP, host="127.0.0.1", port=port, log_level="warning")
