"""The conduit-htmx built-in site: a RealWorld/"Conduit"-like blog with the markup a field trial met
(HTMX pagers, a login with a session cookie and a CSRF token, Post/Redirect/Get forms, a delete on a
plain GET, a script-built hidden tags input, a debug 500 page whose only link is `#`, a section only
a script renders) and seven planted bugs described as data in `bugs.PLANTED`.

`running_conduit(...)` serves it on loopback in a background thread (tests, `bughunt explore`);
`make_conduit_server(...)` gives a bound server for `bughunt serve-site --variant conduit-htmx`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bughunt.webapp.conduit.app import ConduitApp, ConduitConfig
from bughunt.webapp.conduit.bugs import PLANTED, SIX_KINDS, PlantedBug, Score, planted_for, score
from bughunt.webapp.conduit.data import DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_USER, SECOND_PASSWORD, SECOND_USER
from bughunt.webapp.server import SiteServer, serving

__all__ = [
    "DEMO_ACCOUNTS",
    "DEMO_PASSWORD",
    "DEMO_USER",
    "PLANTED",
    "SECOND_PASSWORD",
    "SECOND_USER",
    "SIX_KINDS",
    "ConduitApp",
    "ConduitConfig",
    "PlantedBug",
    "Score",
    "make_conduit_server",
    "planted_for",
    "running_conduit",
    "score",
]


def make_conduit_server(
    host: str = "127.0.0.1", port: int = 0, *, debug: bool = True, fixed: bool = False
) -> SiteServer:
    """A bound, not yet serving, conduit-htmx server with fresh seed data (port 0: a free port);
    `fixed`: every planted bug fixed."""
    config = ConduitConfig(debug=debug, fixed=fixed)
    return SiteServer((host, port), ConduitApp(config), config)


@contextmanager
def running_conduit(
    host: str = "127.0.0.1", port: int = 0, *, debug: bool = True, fixed: bool = False
) -> Iterator[str]:
    """Serve a fresh conduit-htmx site for the duration of the block; yields its base URL."""
    with serving(make_conduit_server(host, port, debug=debug, fixed=fixed)) as url:
        yield url
