"""A browser engine on a test site served on loopback (one way for every browser test module)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_engine, make_policy
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from tests.support.loopback import serving


@contextmanager
def browser_on(handler: type[BaseHTTPRequestHandler], **options: Any) -> Iterator[Any]:
    """`handler` served on loopback and a browser engine at its root (timeout 10 s unless given),
    closed when the block ends."""
    with serving(handler) as url:
        engine, _ = make_engine("browser", url + "/", **{"timeout": 10, **options})
        try:
            yield engine
        finally:
            engine.close()


@contextmanager
def explored_in_browser(
    handler: type[BaseHTTPRequestHandler], store_dir: Path, budget: int
) -> Iterator[tuple[ExplorerStore, Any]]:
    """`handler` explored in the browser by the planner for `budget` clicks (robots.txt not read, no
    retries); the block reads the store, the engine still open (to replay a state). Both closed after."""
    store = ExplorerStore(store_dir)
    try:
        with browser_on(handler, respect_robots=False) as engine:
            with make_policy("planner", store=store) as policy:
                Explorer(store, engine, policy, SessionConfig(budget=budget, retries=0)).run()
            yield store, engine
    finally:
        store.close()
