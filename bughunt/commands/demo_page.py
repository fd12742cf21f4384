"""`bughunt demo-page`: serve the interactive demo page on loopback, or export it as static files."""

from __future__ import annotations

import argparse
import json
import sys
import threading
import webbrowser
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from bughunt.demo.build import build_files, export
from bughunt.webapp.server import STOP_POLL_SECONDS
from memgpt_lite.cli_dispatch import port_number
from memgpt_lite.errors import UsageError

CONTENT_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}


def open_in_browser(url: str) -> None:
    """Open `url`; where no browser can be started (a server, a container) say where the page is."""
    try:
        opened = webbrowser.open(url)
    except webbrowser.Error:
        opened = False
    if not opened:
        print(f"no browser could be started here; open {url} yourself", file=sys.stderr, flush=True)


def _handler(files: dict[str, bytes]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        disable_nagle_algorithm = True  # headers and body are two writes (see bughunt/webapp/server.py)

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            name = self.path.split("?", 1)[0].lstrip("/") or "index.html"
            body = files.get(name)
            if body is None:
                self.send_error(404, "not found")
                return
            self.send_response(200)
            ctype = CONTENT_TYPES.get(Path(name).suffix, "application/octet-stream")
            self.send_header("Content-Type", f"{ctype}; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # quiet: this is a local viewer
            pass

    return Handler


def make_server(host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    files = {name: text.encode("utf-8") for name, text in build_files().items()}
    return ThreadingHTTPServer((host, port), _handler(files))


@contextmanager
def serving(host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve the page in a background thread; yields its URL."""
    server = make_server(host, port)
    # the built-in sites' shutdown poll: socketserver's 0.5 s default made every block end wait for it
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": STOP_POLL_SECONDS}, daemon=True
    )
    thread.start()
    try:
        yield f"http://{host}:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def run(args: argparse.Namespace) -> int:
    if args.export:
        try:
            written = export(Path(args.export))
        except OSError as e:
            raise UsageError(
                f"--export {args.export}: cannot write the page there ({e.strerror or e})"
            ) from None
        index = (Path(args.export) / "index.html").resolve()
        if args.json:
            print(json.dumps({"exported": [str(p) for p in written], "index": index.as_uri()}))
        else:
            print(
                f"wrote {len(written)} files to {args.export}: open {index.as_uri()} "
                "(works from disk or any static host)"
            )
        if args.open:
            open_in_browser(index.as_uri())
        return 0
    try:
        server = make_server(args.host, args.port)
    except OSError as e:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    url = f"http://{args.host}:{server.server_address[1]}/"
    if args.json:
        print(json.dumps({"url": url}), flush=True)
    else:
        print(f"demo page at {url}  (Ctrl-C to stop)", flush=True)
    if args.open:
        open_in_browser(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        server.server_close()
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "demo-page",
        help="serve or export the interactive demo page",
        description="Serve the interactive demo page (graph, stepping, 200-seed batch, exercises) on loopback, "
        "or write it as static files with --export DIR (they also work opened straight from disk).",
    )
    p.add_argument("--port", type=port_number, default=8765, help="port on loopback (0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    p.add_argument(
        "--open", action="store_true", help="open the page in a browser (says where it is when none starts)"
    )
    p.add_argument("--export", metavar="DIR", help="write the page as static files to DIR instead of serving")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)
