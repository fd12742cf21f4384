"""The built-in sites an explorer ablation runs on, as task dimensions: their versions, start pages
and accounts.

On the 24-page site (the default) the accounts are the server's two views: `logged-out` and `user-a`
(alias `logged-in`, the name older configs use). On `conduit-htmx` they are `logged-out`, `user-a`
and `user-b`, two real users with their own content.
"""

from __future__ import annotations

from typing import Literal

from bughunt import site

Site = Literal["24-page", "conduit-htmx"]
Account = Literal["logged-out", "user-a", "user-b", "logged-in"]

ROUTES = frozenset(p.route for p in site.PAGES)
"""The 24-page site's routes: its start pages can be checked without starting it."""
ACCOUNT_ALIASES: dict[str, str] = {"logged-in": "user-a"}
"""Older names that stay valid: the 24-page site's logged-in view is user A."""
SITE_ACCOUNTS: dict[str, tuple[str, ...]] = {
    "24-page": ("logged-out", "user-a"),
    "conduit-htmx": ("logged-out", "user-a", "user-b"),
}
SITE_VERSIONS: dict[str, tuple[str, ...]] = {"24-page": site.APP_VERSIONS, "conduit-htmx": ("1.0",)}


def canonical_account(account: str) -> str:
    return ACCOUNT_ALIASES.get(account, account)


def check_conduit_starts(starts: list[str]) -> None:
    """Each start page must be a page of conduit-htmx (for some account): checked on a fresh copy,
    because its routes are only known by asking it. Raises ValueError naming the field."""
    # imported here: reading a config (and `bughunt --help`) should not load the HTTP stack
    from bughunt.explorer.http_engine import HttpEngine
    from bughunt.webapp.conduit import running_conduit

    with running_conduit() as url:
        probe = HttpEngine(url.rstrip("/") + "/")
        try:
            for start in starts:
                result = probe.fetch(start)
                if result.outcome not in ("page", "login_wall"):
                    raise ValueError(
                        f"tasks.starts: {start!r} is not a page of conduit-htmx ({result.detail})"
                    )
        finally:
            probe.close()
