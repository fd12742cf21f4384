"""Serve Nagios Core from its build tree: the daemon plus its CGIs and web files, on loopback only.

Usage: ho19_nagios_serve.py ROOT PORT

Runs the checkout's own `base/nagios` daemon in the foreground on ROOT/.corpus-nagios/etc/nagios.cfg
(written by ho19_nagios_seed.py) and an HTTP server on 127.0.0.1:PORT that does what the Apache
configuration Nagios installs does: /nagios/cgi-bin/NAME.cgi runs ROOT/cgi/NAME.cgi as a CGI (CGI/1.1
environment, the script's Status/Content-Type headers; a script that dies or prints no header block is
answered 500, as Apache answers "premature end of script headers"), everything else under /nagios/ is a
file of ROOT/html. The CGIs read their configuration from NAGIOS_CGI_CONFIG. No PHP: the frames page and
side menu (index.php, side.php) are not served; the Tactical Overview is the entry page.
"""

from __future__ import annotations

import mimetypes
import os
import shutil
import signal
import subprocess
import sys
import urllib.parse
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CGI_SECONDS = 60
PREFIX = "/nagios/"
CGI_PREFIX = "/nagios/cgi-bin/"


class NagiosHandler(BaseHTTPRequestHandler):
    root: Path
    server_version = "corpus-nagios"

    def log_message(self, format: str, *args: object) -> None:
        sys.stderr.write(f"{self.log_date_time_string()} {format % args}\n")

    def do_GET(self) -> None:
        self._handle(b"")

    def do_HEAD(self) -> None:
        self._handle(b"")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self._handle(self.rfile.read(length) if length > 0 else b"")

    def _handle(self, body: bytes) -> None:
        path, _, query = self.path.partition("?")
        path = urllib.parse.unquote(path)
        if path in ("/", "/nagios"):
            self.send_response(HTTPStatus.FOUND)
            self.send_header("Location", CGI_PREFIX + "tac.cgi")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if path.startswith(CGI_PREFIX):
            self._cgi(path[len(CGI_PREFIX) :], query, body)
        elif path.startswith(PREFIX):
            self._file(path[len(PREFIX) :])
        else:
            self.send_error(HTTPStatus.NOT_FOUND)

    def _file(self, relative: str) -> None:
        base = (self.root / "html").resolve()
        target = (base / relative).resolve()
        if relative.endswith("/") or relative == "":
            target = target / "index.html"
        if base not in target.parents or not target.is_file():
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        data = target.read_bytes()
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", mimetypes.guess_type(target.name)[0] or "application/octet-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _cgi(self, name: str, query: str, body: bytes) -> None:
        script = self.root / "cgi" / name
        if "/" in name or not name.endswith(".cgi") or not script.is_file():
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "TZ", "NAGIOS_CGI_CONFIG")}
        env.update(
            GATEWAY_INTERFACE="CGI/1.1",
            SERVER_SOFTWARE=self.server_version,
            SERVER_NAME="127.0.0.1",
            SERVER_PORT=str(self.server.server_address[1]),
            SERVER_PROTOCOL="HTTP/1.1",
            REQUEST_METHOD=self.command,
            SCRIPT_NAME=CGI_PREFIX + name,
            SCRIPT_FILENAME=str(script),
            QUERY_STRING=query,
            REMOTE_ADDR=self.client_address[0],
            CONTENT_LENGTH=str(len(body)),
            CONTENT_TYPE=self.headers.get("Content-Type", ""),
            HTTP_HOST=self.headers.get("Host", ""),
            HTTP_COOKIE=self.headers.get("Cookie", ""),
            HTTP_USER_AGENT=self.headers.get("User-Agent", ""),
            HTTP_REFERER=self.headers.get("Referer", ""),
        )
        try:
            done = subprocess.run(
                [str(script)],
                input=body,
                env=env,
                cwd=script.parent,
                capture_output=True,
                timeout=CGI_SECONDS,
            )
        except subprocess.TimeoutExpired:
            self.send_error(HTTPStatus.GATEWAY_TIMEOUT, "CGI timed out")
            return
        output = done.stdout
        head, sep, rest = output.partition(b"\r\n\r\n")
        if not sep:
            head, sep, rest = output.partition(b"\n\n")
        headers = []
        for line in head.decode("latin-1").splitlines() if sep else []:
            key, colon, value = line.partition(":")
            if colon:
                headers.append((key.strip(), value.strip()))
        if done.returncode < 0 or not headers:
            sys.stderr.write(f"{name}: premature end of script headers (exit {done.returncode})\n")
            sys.stderr.write(done.stderr.decode("utf-8", "replace")[-2000:])
            self.send_error(HTTPStatus.INTERNAL_SERVER_ERROR, "Premature end of script headers")
            return
        status = HTTPStatus.OK.value
        reason = "OK"
        for key, value in headers:
            if key.lower() == "status":
                code, _, reason = value.partition(" ")
                status = int(code)
            elif key.lower() == "location" and status == HTTPStatus.OK.value:
                status, reason = HTTPStatus.FOUND.value, "Found"
        self.send_response(status, reason or None)
        for key, value in headers:
            if key.lower() not in ("status", "content-length"):
                self.send_header(key, value)
        self.send_header("Content-Length", str(len(rest)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(rest)
        self.close_connection = True


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root, port = Path(sys.argv[1]).resolve(), int(sys.argv[2])
    etc = root / ".corpus-nagios" / "etc"
    if not (etc / "nagios.cfg").is_file() or not (root / "base" / "nagios").is_file():
        sys.exit(
            f"{etc / 'nagios.cfg'} or {root / 'base' / 'nagios'} is missing: run ho19_nagios_seed.py first"
        )
    os.environ["NAGIOS_CGI_CONFIG"] = str(etc / "cgi.cfg")
    os.environ["TZ"] = "UTC"
    daemon = subprocess.Popen([str(root / "base" / "nagios"), str(etc / "nagios.cfg")], cwd=root)
    NagiosHandler.root = root
    httpd = ThreadingHTTPServer(("127.0.0.1", port), NagiosHandler)

    def finish(signum: int, frame: object) -> None:
        daemon.terminate()
        try:
            daemon.wait(timeout=20)
        except subprocess.TimeoutExpired:
            daemon.kill()
        sys.exit(0)

    signal.signal(signal.SIGTERM, finish)
    signal.signal(signal.SIGINT, finish)
    try:
        httpd.serve_forever()
    finally:
        if daemon.poll() is None:
            daemon.terminate()
        shutil.rmtree(root / ".corpus-nagios" / "var" / "rw", ignore_errors=True)


if __name__ == "__main__":
    main()
