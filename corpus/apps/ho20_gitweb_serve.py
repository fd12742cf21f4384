"""Serve the checkout's gitweb as a CGI on loopback (ours, not git's): `ho20_gitweb_serve.py ROOT PORT`.

ROOT is the checkout's `gitweb/` folder. `gitweb.perl` runs as it is, one `perl` process per request,
as a web server runs `gitweb.cgi`: the CGI/1.1 environment, its configuration from
`ROOT/.corpus-gitweb/gitweb_config.perl` (written by the seed) through `GITWEB_CONFIG`, which takes the
place of the values `make gitweb` would substitute. `/static/` serves the checkout's static files, with
`gitweb.js` put together from its parts in the order gitweb's Makefile uses. GET and HEAD only (gitweb
has no forms that post); bound to 127.0.0.1.
"""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import urllib.parse
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve()
STATIC = ROOT / "static"
JS_PARTS = (
    "js/lib/common-lib.js",
    "js/lib/datetime.js",
    "js/lib/cookies.js",
    "js/javascript-detection.js",
    "js/adjust-timezone.js",
    "js/blame_incremental.js",
)
TYPES = {".css": "text/css", ".png": "image/png", ".js": "application/javascript"}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_HEAD(self) -> None:  # noqa: N802 (http.server's naming)
        self.handle_request(head=True)

    def do_GET(self) -> None:  # noqa: N802
        self.handle_request(head=False)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        sys.stderr.write(f"{self.log_date_time_string()} {format % args}\n")

    def handle_request(self, head: bool) -> None:
        path, _, query = self.path.partition("?")
        path = urllib.parse.unquote(path)
        if path.startswith("/static/"):
            self.send_static(path[len("/static/") :], head)
        elif path in ("/", "/gitweb.cgi"):
            self.run_cgi(query, head)
        else:
            self.send_error(404)

    def send_static(self, name: str, head: bool) -> None:
        if name == "gitweb.js":
            body = b"".join((STATIC / part).read_bytes() for part in JS_PARTS)
        else:
            target = (STATIC / name).resolve()
            if STATIC not in target.parents or not target.is_file():
                self.send_error(404)
                return
            body = target.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", TYPES.get(Path(name).suffix, "application/octet-stream"))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def run_cgi(self, query: str, head: bool) -> None:
        host, port = self.server.server_address[:2]
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "GATEWAY_INTERFACE": "CGI/1.1",
            "SERVER_SOFTWARE": "corpus-cgi",
            "SERVER_PROTOCOL": "HTTP/1.0",
            "SERVER_NAME": str(host),
            "SERVER_PORT": str(port),
            "REQUEST_METHOD": "HEAD" if head else "GET",
            "SCRIPT_NAME": "/",
            "REQUEST_URI": self.path,
            "QUERY_STRING": query,
            "REMOTE_ADDR": self.client_address[0],
            "HTTP_HOST": self.headers.get("Host", f"{host}:{port}"),
            "HTTP_ACCEPT": self.headers.get("Accept", "*/*"),
            "HTTP_USER_AGENT": self.headers.get("User-Agent", ""),
            "HTTP_IF_MODIFIED_SINCE": self.headers.get("If-Modified-Since", ""),
            "GITWEB_CONFIG": str(ROOT / ".corpus-gitweb" / "gitweb_config.perl"),
            "GITWEB_CONFIG_SYSTEM": str(ROOT / ".corpus-gitweb" / "none"),
            "GITWEB_CONFIG_COMMON": str(ROOT / ".corpus-gitweb" / "none"),
            "LANG": "C.UTF-8",
        }
        done = subprocess.run(
            ["perl", str(ROOT / "gitweb.perl")], env=env, capture_output=True, timeout=60, cwd=ROOT
        )
        if done.stderr:
            sys.stderr.write(done.stderr.decode("utf-8", "replace"))
        head_part, sep, body = done.stdout.partition(b"\r\n\r\n")
        if not sep:
            head_part, sep, body = done.stdout.partition(b"\n\n")
        if not sep:
            self.send_error(502, "gitweb printed no CGI header")
            return
        status, headers = 200, []
        for line in head_part.decode("latin-1").splitlines():
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.strip().split()[0])
            elif name:
                headers.append((name, value.strip()))
        if any(name.lower() == "location" for name, _ in headers) and status == 200:
            status = 302
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)


def main() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), Handler)
    server.serve_forever()


if __name__ == "__main__":
    main()
