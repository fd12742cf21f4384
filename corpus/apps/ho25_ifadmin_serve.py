"""Serve the IF Archive admin tool on loopback for the corpus.

Usage: ho25_ifadmin_serve.py ROOT PORT. The app is a plain WSGI script (`admin.wsgi`, on its own
`tinyapp` framework) that production mounts under /admin with mod_wsgi; this mounts it the same
way on wsgiref's single-threaded server, with the stylesheet at /misc/admintool.css as its config
names it. The config is the seed's (ROOT/corpus-data/ifarch.config).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import io
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, make_server

Start = Callable[..., Any]


class QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


def load_app(root: Path) -> Callable[[dict[str, Any], Start], Iterable[bytes]]:
    sys.path.insert(0, str(root))
    loader = importlib.machinery.SourceFileLoader("_wsgiapp", str(root / "admin.wsgi"))
    spec = importlib.util.spec_from_loader("_wsgiapp", loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["_wsgiapp"] = module
    loader.exec_module(module)
    return module.application  # type: ignore[no-any-return]


def mounted(root: Path) -> Callable[[dict[str, Any], Start], Iterable[bytes]]:
    app = load_app(root)
    css = (root / "css").resolve()
    config = str(root / "corpus-data" / "ifarch.config")

    def application(environ: dict[str, Any], start_response: Start) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        environ["IFARCHIVE_CONFIG"] = config
        if path == "/admin" or path.startswith("/admin/"):
            environ["SCRIPT_NAME"] = "/admin"
            environ["PATH_INFO"] = path[len("/admin") :]
            # The app reads its input to the end, as mod_wsgi's is bounded; wsgiref's is the
            # socket itself, so bound it by the request's length.
            length = int(environ.get("CONTENT_LENGTH") or 0)
            environ["wsgi.input"] = io.BytesIO(environ["wsgi.input"].read(length) if length else b"")
            return app(environ, start_response)
        if path.startswith("/misc/"):
            file = (css / path[len("/misc/") :]).resolve()
            if file.is_file() and css in file.parents:
                kind = "text/css" if file.suffix == ".css" else "image/png"
                start_response("200 OK", [("Content-Type", kind)])
                return [file.read_bytes()]
        if path == "/":
            start_response("302 Found", [("Location", "/admin")])
            return [b""]
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found"]

    return application


def main() -> None:
    root, port = Path(sys.argv[1]).resolve(), int(sys.argv[2])
    with make_server("127.0.0.1", port, mounted(root), handler_class=QuietHandler) as server:
        server.serve_forever()


if __name__ == "__main__":
    main()
