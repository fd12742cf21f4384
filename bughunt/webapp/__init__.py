"""The built-in test site: a RealWorld/Conduit imitation of the 24-page BugHunt site, over real HTTP.

`running_site(...)` starts it on loopback in a background thread and yields its base URL;
`serve(...)` runs it in the foreground (`bughunt serve-site`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from loguru import logger

from bughunt import site
from bughunt.webapp.app import handle
from bughunt.webapp.pages import SiteConfig

ACCOUNT_STATES: tuple[str, ...] = ("logged-in", "logged-out")

__all__ = ["ACCOUNT_STATES", "SiteConfig", "SiteServer", "handle", "make_server", "running_site", "serve"]


class _Handler(BaseHTTPRequestHandler):
    server: SiteServer
    server_version = "Conduit"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def _answer(self, method: str) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(min(length, 1_000_000))  # read and drop: the site keeps no state
        response = handle(self.server.config, method, self.path)
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

    def __init__(self, address: tuple[str, int], config: SiteConfig) -> None:
        self.config = config
        super().__init__(address, _Handler)

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"


def make_config(
    app_version: str = "1.2", poison_text: str | None = None, account: str = "logged-in"
) -> SiteConfig:
    if app_version not in site.APP_VERSIONS:
        raise ValueError(
            f"unknown app version {app_version!r}; expected one of {', '.join(site.APP_VERSIONS)}"
        )
    if account not in ACCOUNT_STATES:
        raise ValueError(f"unknown account state {account!r}; expected one of {', '.join(ACCOUNT_STATES)}")
    return SiteConfig(app_version=app_version, poison_text=poison_text, account=account)


def make_server(
    app_version: str = "1.2",
    poison_text: str | None = None,
    account: str = "logged-in",
    host: str = "127.0.0.1",
    port: int = 0,
) -> SiteServer:
    """A bound, not yet serving, site server (port 0 picks a free port)."""
    return SiteServer((host, port), make_config(app_version, poison_text, account))


@contextmanager
def running_site(
    app_version: str = "1.2",
    poison_text: str | None = None,
    account: str = "logged-in",
    host: str = "127.0.0.1",
    port: int = 0,
) -> Iterator[str]:
    """Serve the site in a background thread for the duration of the block; yields its base URL."""
    server = make_server(app_version, poison_text, account, host, port)
    thread = threading.Thread(target=server.serve_forever, name="bughunt-site", daemon=True)
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
