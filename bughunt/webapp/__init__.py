"""The built-in test site: a RealWorld/Conduit imitation of the 24-page BugHunt site, over real HTTP.

`running_site(...)` starts it on loopback in a background thread and yields its base URL;
`serve(...)` runs it in the foreground (`bughunt serve-site`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bughunt import site
from bughunt.webapp.app import handle
from bughunt.webapp.pages import SiteConfig
from bughunt.webapp.server import Request, SiteServer, serve, serving

ACCOUNT_STATES: tuple[str, ...] = ("logged-in", "logged-out")
VARIANTS: tuple[str, ...] = ("24-page", "conduit-htmx")
"""The built-in sites: the 24-page site of the published figures (default) and the realistic one."""

__all__ = [
    "ACCOUNT_STATES",
    "VARIANTS",
    "Request",
    "SiteConfig",
    "SiteServer",
    "handle",
    "make_server",
    "running_site",
    "running_variant",
    "serve",
]


def make_config(
    app_version: str = "1.2", poison_text: str | None = None, account: str = "logged-in", fixed: bool = False
) -> SiteConfig:
    if app_version not in site.APP_VERSIONS:
        raise ValueError(
            f"unknown app version {app_version!r}; expected one of {', '.join(site.APP_VERSIONS)}"
        )
    if account not in ACCOUNT_STATES:
        raise ValueError(f"unknown account state {account!r}; expected one of {', '.join(ACCOUNT_STATES)}")
    return SiteConfig(app_version=app_version, poison_text=poison_text, account=account, fixed=fixed)


def make_server(
    app_version: str = "1.2",
    poison_text: str | None = None,
    account: str = "logged-in",
    host: str = "127.0.0.1",
    port: int = 0,
    fixed: bool = False,
) -> SiteServer:
    """A bound, not yet serving, site server (port 0 picks a free port); `fixed`: every bug fixed."""
    config = make_config(app_version, poison_text, account, fixed)
    return SiteServer((host, port), lambda request: handle(config, request.method, request.target), config)


@contextmanager
def running_site(
    app_version: str = "1.2",
    poison_text: str | None = None,
    account: str = "logged-in",
    host: str = "127.0.0.1",
    port: int = 0,
    fixed: bool = False,
) -> Iterator[str]:
    """Serve the site in a background thread for the duration of the block; yields its base URL."""
    with serving(make_server(app_version, poison_text, account, host, port, fixed)) as url:
        yield url


@contextmanager
def running_variant(
    variant: str = "24-page",
    *,
    app_version: str = "1.2",
    poison_text: str | None = None,
    account: str = "logged-in",
    debug: bool = True,
    fixed: bool = False,
) -> Iterator[str]:
    """Serve one of the built-in sites (`VARIANTS`) on a free loopback port; yields its base URL.

    The 24-page site takes `app_version`, `poison_text` and `account`; conduit-htmx has real logins
    (see `bughunt.webapp.conduit`) and takes `debug` (debug or production error pages); `fixed`
    serves either with every bug fixed."""
    if variant == "24-page":
        with running_site(
            app_version=app_version, poison_text=poison_text, account=account, fixed=fixed
        ) as url:
            yield url
        return
    if variant == "conduit-htmx":
        from bughunt.webapp.conduit import running_conduit

        with running_conduit(debug=debug, fixed=fixed) as url:
            yield url
        return
    raise ValueError(f"unknown built-in site {variant!r}; expected one of {', '.join(VARIANTS)}")
