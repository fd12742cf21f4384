"""A benchmark's site that writes down every request it answers: `METHOD target`, one a line.

    python -m benchmarks.recorded_site --site builtin|conduit-htmx|scale --record FILE [--port 0]

The same sites as `bughunt serve-site --variant 24-page|conduit-htmx` and `python -m
benchmarks.scale_site`, served the same way, each request appended to FILE (flushed at once) before it
is answered. What a client asked of the site is then known from the site's side, exactly — every page
load of the explorer's steps, its oracles' fetches, robots.txt and the login — without the explorer
keeping a log of its own. One JSON line on stdout says where the site is (and, for conduit-htmx, its
demo account, as `bughunt serve-site --json` does).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path
from typing import Any, TextIO

from bughunt.webapp.server import App, Request, SiteServer, serve

SITES: tuple[str, ...] = ("builtin", "conduit-htmx", "scale")


class Recording:
    """An `App` that appends each request's method and target to a file, then answers as `app` does."""

    def __init__(self, app: App, out: TextIO) -> None:
        self._app = app
        self._out = out
        self._lock = threading.Lock()  # the server answers each connection in a thread of its own

    def __call__(self, request: Request) -> Any:
        with self._lock:
            self._out.write(f"{request.method} {request.target}\n")
            self._out.flush()
        return self._app(request)


def read_requests(record: Path, offset: int) -> tuple[list[tuple[str, str]], int]:
    """The (method, target) pairs written to `record` after byte `offset`, and the offset after them."""
    with record.open("rb") as f:
        f.seek(offset)
        data = f.read()
    lines = data.decode("utf-8", "replace").splitlines()
    pairs = [(m, t) for m, _, t in (line.partition(" ") for line in lines) if t]
    return pairs, offset + len(data)


def make(site: str, port: int) -> tuple[SiteServer, dict[str, Any]]:
    """The server of `site` (bound, not serving) and what the benchmark is told about it."""
    if site == "builtin":
        from bughunt import site as builtin
        from bughunt.webapp import make_server

        server = make_server(port=port)
        return server, {"pages": builtin.N_PAGES}
    if site == "conduit-htmx":
        from bughunt.webapp.conduit import DEMO_PASSWORD, DEMO_USER, make_conduit_server

        server = make_conduit_server(port=port)
        return server, {
            "login_url": server.base_url + "/login",
            "username": DEMO_USER,
            "password": DEMO_PASSWORD,
        }
    from benchmarks.scale_data import FULL, Catalog
    from benchmarks.scale_site import Site, routes

    catalog = Catalog(FULL)
    return SiteServer(("127.0.0.1", port), Site(catalog)), {"pages": sum(1 for _ in routes(catalog))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.recorded_site", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--site", choices=SITES, required=True)
    parser.add_argument("--record", type=Path, required=True, help="append each request's METHOD target here")
    parser.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (0 picks a free one)")
    args = parser.parse_args(argv)
    server, info = make(args.site, args.port)
    with args.record.open("a", encoding="utf-8") as out:
        server.app = Recording(server.app, out)
        print(json.dumps({"url": server.base_url, "site": args.site, **info}), flush=True)
        try:
            serve(server)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
