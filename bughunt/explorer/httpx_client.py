"""httpx, imported without its command line: the one way the explorer imports it.

`httpx/__init__.py` imports `httpx._main` (the `httpx` console command) inside `try/except ImportError`,
and that module imports click, pygments and most of rich whenever they are installed — as they are in
any install of ours (click comes with huggingface_hub, dask and uvicorn; pygments with rich). That is
~70-80 ms of CPU at every start (about 40% of `import httpx`) for a command line we never run. Upstream
has not made it lazy (encode/httpx#3547, open). A `None` in `sys.modules` makes that one import raise
`ModuleNotFoundError` (the import system's documented behaviour), which httpx's own `except` takes;
`httpx.main` is then given back as a function that loads the command line when called.
"""

from __future__ import annotations

import importlib
import sys

_CLI = "httpx._main"
__all__ = ["httpx"]


def _import_without_cli() -> None:
    if "httpx" in sys.modules:
        return  # imported already (with its command line or not): nothing to save now
    sys.modules[_CLI] = None  # type: ignore[assignment]
    try:
        module = importlib.import_module("httpx")
    except ImportError:
        # an httpx whose __init__ no longer tolerates a missing command line: imported as it is
        del sys.modules[_CLI]
        importlib.import_module("httpx")
        return
    del sys.modules[_CLI]
    vars(module)["main"] = _cli_main  # in place of httpx's fallback, which says the CLI is not installed


def _cli_main() -> None:
    """`httpx.main`, the console command, loaded on its first call."""
    from httpx._main import main

    main()


_import_without_cli()
import httpx  # noqa: E402 (imported above; a name for the type checker, read from sys.modules)
