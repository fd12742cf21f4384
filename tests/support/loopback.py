"""The one loopback HTTP server of the tests: a request-handler class served on 127.0.0.1 (a free port
unless one is given) by a daemon thread, stopped and closed at the end."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar


class LoopbackServer(ThreadingHTTPServer):
    allow_reuse_address = True  # a test may start a server again on the port it has just closed
    daemon_threads = True  # a client that hangs never holds the test process open

    def get_request(self) -> tuple[socket.socket, tuple[str, int]]:
        # A reply's headers and body are two writes: with Nagle on, a kept-alive connection waits ~40 ms
        # for the client's delayed ACK between them (bughunt/webapp/server.py says the same).
        conn, address = super().get_request()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn, address


def start(handler: type[BaseHTTPRequestHandler], port: int = 0) -> LoopbackServer:
    server = LoopbackServer(("127.0.0.1", port), handler)
    # stop() waits for the loop's next look at shutdown(): 0.05 s, not socketserver's default 0.5
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
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


class QuietHandler(BaseHTTPRequestHandler):
    """A handler that logs nothing (a test's output stays its own) and answers with `reply`."""

    def reply(
        self, status: int, body: str | bytes, content_type: str = "text/html; charset=utf-8", **headers: str
    ) -> None:
        """Answer `status` with `body`; `headers` are more header fields (`Set_Cookie` sends `Set-Cookie`)."""
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        pass


class ShellPages(QuietHandler):
    """A single-page app's two static answers: `/` is the class's `shell`, `/app.js` its `script`; every
    other GET goes to `answer_get`, a 404 unless a subclass answers it (an app's API reads)."""

    shell: ClassVar[str] = ""
    script: ClassVar[str] = ""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/app.js":
            return self.reply(200, self.script, "application/javascript")
        if self.path == "/":
            return self.reply(200, self.shell)
        return self.answer_get()

    def answer_get(self) -> None:
        self.reply(404, "<html><head><title>Not found</title></head><body>none</body></html>")


def script_shell(app_js: str, title: str = "T", *, api: bool = False) -> type[QuietHandler]:
    """A single-page app of one script: `/app.js` is `app_js`, every other path the same shell (an empty
    `#app` the script fills), and no robots.txt. With `api`, `/api/…` answers an empty JSON object.
    Every write that reaches the server is kept in the class's `writes` ("DELETE /api/x") and refused."""

    class Shell(QuietHandler):
        writes: ClassVar[list[str]] = []

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            if self.path == "/app.js":
                self.reply(200, app_js, "application/javascript")
            elif self.path == "/robots.txt":
                self.reply(404, "", "text/plain")
            elif api and self.path.startswith("/api/"):
                self.reply(200, "{}", "application/json")
            else:
                self.reply(
                    200,
                    f'<html><head><title>{title}</title></head><body><div id="app"></div>'
                    '<script src="/app.js"></script></body></html>',
                )

        def _write(self) -> None:
            self.writes.append(f"{self.command} {self.path}")
            self.reply(405, "", "text/plain")

        do_POST = do_PUT = do_PATCH = do_DELETE = _write  # noqa: N815 (http.server's names)

    return Shell


@contextmanager
def raw_serving(handle: Callable[[socket.socket, threading.Event], None]) -> Iterator[str]:
    """A loopback socket server below HTTP, for servers that misbehave on purpose: `handle(conn, stopping)`
    answers each connection by hand in its own thread (the connection is closed after it; `stopping` is
    set when the block ends, so a handler that drips can give up). Yields the base URL."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    stopping = threading.Event()

    def one(conn: socket.socket) -> None:
        with conn:
            try:
                handle(conn, stopping)
            except OSError:
                return

    def serve() -> None:
        while not stopping.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                return
            threading.Thread(target=one, args=(conn,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stopping.set()
        server.close()


def send_json(handler: BaseHTTPRequestHandler, status: int, payload: Any) -> None:
    """Answer a request with `payload` as JSON, the way a Messages-API server does (no client retry)."""
    data = json.dumps(payload).encode()
    handler.send_response(status)
    handler.send_header("content-type", "application/json")
    handler.send_header("x-should-retry", "false")
    handler.send_header("content-length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)
