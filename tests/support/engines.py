"""A browser engine on a test site served on loopback (one way for every browser test module)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any

from bughunt.explorer.factory import make_engine
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
