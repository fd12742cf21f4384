"""Serve the checkout's Bugzilla as CGI scripts on loopback (ours, not Bugzilla's): `ho30_bugzilla_serve.py ROOT PORT`.

Bugzilla's `.cgi` files run as a web server with mod_cgi runs them: one `perl -T` process per request,
the CGI/1.1 environment, the request body on standard input. Output without a CGI header (the script
died before printing one) is answered 500, as Apache answers "premature end of script headers". The
folders Bugzilla's `.htaccess` files leave readable (`skins/`, `js/`, `images/`, `data/assets/`) are
served as files; everything else outside a script is 404 (robots.txt too: it shuts crawlers out of
every page but the front page, and the explorer is the owner's test, not a crawler). `urlbase` in `data/params.json` is set to
this server's address first, since Bugzilla builds its redirects and some links from it. Bound to
127.0.0.1.
"""

from __future__ import annotations

import http.server
import json
import mimetypes
import subprocess
import sys
import urllib.parse
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve()
PORT = int(sys.argv[2])
STATIC_DIRS = ("skins/", "js/", "images/", "data/assets/")
FORWARDED = ("Cookie", "Referer", "User-Agent", "Accept", "Accept-Language", "Host", "Origin")


def set_urlbase() -> None:
    params = ROOT / "data" / "params.json"
    values = json.loads(params.read_text())
    values["urlbase"] = f"http://127.0.0.1:{PORT}/"
    params.write_text(json.dumps(values, indent=3, sort_keys=True))


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_HEAD(self) -> None:  # noqa: N802 (http.server's naming)
        self.handle_request("HEAD")

    def do_GET(self) -> None:  # noqa: N802
        self.handle_request("GET")

    def do_POST(self) -> None:  # noqa: N802
        self.handle_request("POST")

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        sys.stderr.write(f"{self.log_date_time_string()} {format % args}\n")

    def handle_request(self, method: str) -> None:
        raw_path, _, query = self.path.partition("?")
        path = urllib.parse.unquote(raw_path).lstrip("/") or "index.cgi"
        if "/" not in path and path.endswith(".cgi") and (ROOT / path).is_file():
            self.run_cgi(path, query, method)
        elif path.startswith(STATIC_DIRS) and ".." not in path.split("/"):
            self.send_file(ROOT / path, method == "HEAD")
        else:
            self.send_error(404)

    def send_file(self, target: Path, head: bool) -> None:
        if not target.is_file():
            self.send_error(404)
            return
        body = target.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", mimetypes.guess_type(target.name)[0] or "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def run_cgi(self, script: str, query: str, method: str) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body_in = self.rfile.read(length) if length else b""
        env = {
            "PATH": "/usr/bin:/bin",
            "GATEWAY_INTERFACE": "CGI/1.1",
            "SERVER_SOFTWARE": "corpus-cgi",
            "SERVER_PROTOCOL": "HTTP/1.0",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": str(PORT),
            "REQUEST_METHOD": method,
            "SCRIPT_NAME": "/" + script,
            "SCRIPT_FILENAME": str(ROOT / script),
            "REQUEST_URI": self.path,
            "QUERY_STRING": query,
            "REMOTE_ADDR": self.client_address[0],
            "LANG": "C.UTF-8",
        }
        if method == "POST":
            env["CONTENT_LENGTH"] = str(len(body_in))
            env["CONTENT_TYPE"] = self.headers.get("Content-Type", "")
        for name in FORWARDED:
            if self.headers.get(name):
                env["HTTP_" + name.upper().replace("-", "_")] = self.headers[name]
        done = subprocess.run(
            ["perl", "-T", script], input=body_in, env=env, capture_output=True, timeout=120, cwd=ROOT
        )
        if done.stderr:
            sys.stderr.write(done.stderr.decode("utf-8", "replace"))
        head_part, sep, body = done.stdout.partition(b"\r\n\r\n")
        if not sep:
            head_part, sep, body = done.stdout.partition(b"\n\n")
        if not sep or b":" not in head_part.split(b"\n", 1)[0]:
            self.send_error(500, "Premature end of script headers")
            return
        status, reason, headers = 200, "", []
        for line in head_part.decode("latin-1").splitlines():
            name, _, value = line.partition(":")
            if name.lower() == "status":
                code, _, reason = value.strip().partition(" ")
                status = int(code)
            elif name:
                headers.append((name, value.strip()))
        if any(name.lower() == "location" for name, _ in headers) and status == 200:
            status = 302
        self.send_response(status, reason or None)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if method != "HEAD":
            self.wfile.write(body)


def main() -> None:
    set_urlbase()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
    server.serve_forever()


if __name__ == "__main__":
    main()
