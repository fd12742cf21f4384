"""Which Chromium the browser engine drives, and how: Debian's `chromium` (or one the user names),
started with flags that keep it from reaching out to the network on its own. A browser is never
downloaded; when none is there, one clear line says how to get one."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from memgpt_lite.errors import UsageError

CHROMIUM_ARGS = [  # nothing of Chromium's own traffic (updates, sync, pings, DNS prefetch) leaves the machine
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--dns-prefetch-disable",
    "--no-pings",
    "--disable-domain-reliability",
]

CHROMIUM_ENV = "BUGHUNT_CHROMIUM"
"""Environment variable naming the Chromium executable (`--browser-path` wins over it)."""
_GET_CHROMIUM = "apt-get install chromium, or name one with --browser-path or " + CHROMIUM_ENV


def chromium_path(explicit: str | None = None) -> str:
    """The Chromium to drive: `explicit` (`--browser-path`), else `$BUGHUNT_CHROMIUM`, else Debian's
    `/usr/bin/chromium` or `chromium` on the PATH; one clear line saying how to get one when none is
    there (a browser is never downloaded). Also checks Playwright's client is importable."""
    import importlib.util

    if importlib.util.find_spec("playwright") is None:
        raise UsageError(
            "--engine browser needs Playwright's Python client, a dependency of this project: "
            "reinstall it (pip install -e .) or pip install playwright"
        )
    named = explicit or os.environ.get(CHROMIUM_ENV) or None
    if named is not None:
        where = "--browser-path" if explicit else CHROMIUM_ENV
        found = shutil.which(named) if os.sep not in named else named
        if found is None or not os.access(found, os.X_OK) or not Path(found).is_file():
            raise UsageError(f"{where} {named}: no Chromium executable there ({_GET_CHROMIUM})")
        return found
    found = next((p for p in ("/usr/bin/chromium", shutil.which("chromium")) if p and Path(p).exists()), None)
    if found is None:
        raise UsageError(f"--engine browser needs Chromium: /usr/bin/chromium not found ({_GET_CHROMIUM})")
    return found
