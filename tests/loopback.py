"""The one loopback HTTP server of the tests: a request-handler class served on 127.0.0.1 (a free port
unless one is given) by a daemon thread, stopped and closed at the end."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class LoopbackServer(ThreadingHTTPServer):
    allow_reuse_address = True  # a test may start a server again on the port it has just closed
    daemon_threads = True  # a client that hangs never holds the test process open


def start(handler: type[BaseHTTPRequestHandler], port: int = 0) -> LoopbackServer:
    server = LoopbackServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def stop(server: ThreadingHTTPServer) -> None:
    server.shutdown()
    server.server_close()  # connections are refused from now on


def base_url(server: ThreadingHTTPServer) -> str:
    """`http://127.0.0.1:PORT`, no trailing slash."""
    return f"http://127.0.0.1:{server.server_address[1]}"


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler], port: int = 0) -> Iterator[str]:
    """Serve `handler` for the block; yields the base URL (`http://127.0.0.1:PORT`, no trailing slash)."""
    server = start(handler, port)
    try:
        yield base_url(server)
    finally:
        stop(server)
