"""The one HTTP server machinery both built-in sites run on: a request in, a `Response` out.

A site is an `App`: a function from a `Request` (method, target, headers, body) to a `Response`.
The 24-page site ignores headers and body (it keeps no state); the conduit-htmx variant reads
cookies, forms and the `HX-Request` header.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import MappingProxyType
from typing import NamedTuple, cast

from bughunt.webapp.pages import Response
from memgpt_lite.log import logger

MAX_REQUEST_BODY = 1_000_000


class Request(NamedTuple):
    method: str
    target: str
    headers: Mapping[str, str] = MappingProxyType({})
    """Header names lower-cased (read only: the default is shared)."""
    body: bytes = b""

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), "")


App = Callable[[Request], Response]


class _Handler(BaseHTTPRequestHandler):
    server: SiteServer
    server_version = "Conduit"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    # Headers and body leave in two writes; on a kept-alive connection Nagle's algorithm holds the body
    # until the client ACKs the headers, and the client delays that ACK ~40 ms: 44 ms a page, not 1.5.
    disable_nagle_algorithm = True

    def _answer(self, method: str) -> None:
        try:
            length = max(0, int(self.headers.get("Content-Length") or 0))
        except ValueError:
            length = 0  # a garbled length is no body (reading "until EOF" would hang the thread)
        body = self.rfile.read(min(length, MAX_REQUEST_BODY)) if length else b""
        request = Request(method, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        response = self.server.app(request)
        data = response.body.encode("utf-8")
        self.send_response(response.status)
        for name, value in response.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if method != "HEAD":
            self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802 — http.server's naming
        self._answer("GET")

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer("HEAD")

    def do_POST(self) -> None:  # noqa: N802
        self._answer("POST")

    def do_PUT(self) -> None:  # noqa: N802
        self._answer("PUT")

    def do_DELETE(self) -> None:  # noqa: N802
        self._answer("DELETE")

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        # http.server hands a %-style format; loguru formats with {}: format here, pass the result as data
        logger.debug("site {} {}", self.address_string(), format % args)


class SiteServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], app: App, config: object = None) -> None:
        self.app = app
        self.config = config
        super().__init__(address, _Handler)

    def handle_error(self, request: object, client_address: tuple[str, int]) -> None:
        # A client that hangs up (a crawler's timeout, a test's raw socket) is not a server error.
        if isinstance(sys.exc_info()[1], ConnectionError):
            logger.debug("site: client {} hung up", client_address)
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]

    @property
    def base_url(self) -> str:
        # a TCP server's address is (host, port[, ...]); typeshed's type also admits a Unix socket's path
        host, port = cast(tuple[str, int], self.server_address[:2])
        return f"http://{host}:{port}"


# How often a background server's loop looks for shutdown(): the block's end waits for the next look
# (socketserver's default 0.5 s cost a block shorter than that nearly all of it: every in-process
# exploration of a built-in site, every ablation task). A 20 Hz wake-up of an idle loop costs nothing.
STOP_POLL_SECONDS = 0.05


@contextmanager
def serving(server: SiteServer) -> Iterator[str]:
    """Serve in a background thread for the duration of the block; yields the base URL."""
    thread = threading.Thread(
        target=server.serve_forever,
        kwargs={"poll_interval": STOP_POLL_SECONDS},
        name="bughunt-site",
        daemon=True,
    )
    thread.start()
    try:
        yield server.base_url
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def serve(server: SiteServer) -> None:
    """Serve in the foreground until interrupted."""
    try:
        server.serve_forever()
    finally:
        server.server_close()
