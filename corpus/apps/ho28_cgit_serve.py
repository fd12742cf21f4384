"""Serve a built cgit (held-out set 28) as a CGI program on loopback, as a web server would.

Usage: ho28_cgit_serve.py ROOT PORT. Every request but cgit's own static files (cgit.css, cgit.js,
cgit.png, favicon.ico, robots.txt from ROOT) runs ROOT/cgit with the CGI/1.1 environment
(virtual-root "/", PATH_INFO the request path) and CGIT_CONFIG=ROOT/.corpus-cgitrc. The program's
`Status:` header becomes the response status, and a program that dies before it printed its
headers (a crash) answers 500, as Apache's "premature end of script headers" does. One program
run is bounded (60 s).
"""

from __future__ import annotations

import os
import subprocess
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

STATIC = {
    "/cgit.css": "text/css",
    "/cgit.js": "text/javascript",
    "/cgit.png": "image/png",
    "/favicon.ico": "image/x-icon",
    "/robots.txt": "text/plain",
}
RUN_TIMEOUT_S = 60.0


def _handler(root: Path, port: int) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "corpus-cgi/1"

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
            sys.stderr.write(f"{self.address_string()} {format % args}\n")

        def do_GET(self) -> None:
            self._serve()

        def do_HEAD(self) -> None:
            self._serve()

        def do_POST(self) -> None:
            self._serve()

        def _serve(self) -> None:
            url = urlsplit(self.path)
            if url.path in STATIC:
                self._static(url.path)
                return
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            env = {
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "CGIT_CONFIG": str(root / ".corpus-cgitrc"),
                "GATEWAY_INTERFACE": "CGI/1.1",
                "SERVER_SOFTWARE": self.server_version,
                "SERVER_PROTOCOL": self.request_version,
                "SERVER_NAME": "127.0.0.1",
                "SERVER_PORT": str(port),
                "REQUEST_METHOD": self.command,
                "REQUEST_URI": self.path,
                "SCRIPT_NAME": "",
                "PATH_INFO": url.path,
                "QUERY_STRING": url.query,
                "REMOTE_ADDR": self.client_address[0],
                "CONTENT_LENGTH": str(length),
                "CONTENT_TYPE": self.headers.get("Content-Type", ""),
                "HTTP_HOST": self.headers.get("Host", f"127.0.0.1:{port}"),
                "HTTP_USER_AGENT": self.headers.get("User-Agent", ""),
                "HTTP_COOKIE": self.headers.get("Cookie", ""),
                "HTTP_IF_MODIFIED_SINCE": self.headers.get("If-Modified-Since", ""),
            }
            try:
                done = subprocess.run(
                    [str(root / "cgit")],
                    input=body,
                    env=env,
                    capture_output=True,
                    timeout=RUN_TIMEOUT_S,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                self._error(504, "cgit took too long")
                return
            head, sep, payload = done.stdout.partition(b"\r\n\r\n")
            if not sep:
                head, sep, payload = done.stdout.partition(b"\n\n")
            if not sep or done.returncode < 0:
                sys.stderr.write(done.stderr.decode("utf-8", "replace"))
                self._error(500, "premature end of script headers")
                return
            status, headers = 200, []
            for line in head.decode("latin-1").splitlines():
                name, _, value = line.partition(":")
                if name.lower() == "status":
                    status = int(value.strip().split()[0])
                elif name:
                    headers.append((name.strip(), value.strip()))
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(payload)

        def _static(self, path: str) -> None:
            file = root / path.lstrip("/")
            if not file.is_file():
                self._error(404, "not found")
                return
            data = file.read_bytes()
            self.send_response(200)
            self.send_header("Content-Type", STATIC[path])
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        def _error(self, status: int, text: str) -> None:
            data = f"<html><body><h1>{status}</h1><p>{text}</p></body></html>".encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

    return Handler


def main(root: Path, port: int) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", port), _handler(root, port))
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), int(sys.argv[2]))
