"""Routing: a request (method, path, query) becomes a `Response`. Pure, so tests need no socket."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from urllib.parse import parse_qs, urlsplit

from bughunt import site
from bughunt.webapp import account, pages
from bughunt.webapp import content as c
from bughunt.webapp.layout import document
from bughunt.webapp.pages import Response, SiteConfig

HTML = "text/html; charset=utf-8"
ROBOTS = "User-agent: *\nAllow: /\n"

_RENDERERS: dict[int, Callable[[SiteConfig], str]] = {
    0: pages.home,
    1: account.login,
    2: account.register,
    3: account.settings,
    4: account.new_article,
    5: account.my_profile,
    6: account.my_articles,
    7: account.my_favorites,
    8: lambda cfg: pages.feed(cfg, 2),
    9: lambda cfg: pages.feed(cfg, 3),
    10: lambda cfg: pages.tag(cfg, "qa"),
    11: lambda cfg: pages.tag(cfg, "agent"),
    12: lambda cfg: pages.article(cfg, "a"),
    13: pages.comments_of_a,
    14: lambda cfg: pages.article(cfg, "b"),
    15: account.edit_b,
    16: lambda cfg: pages.article(cfg, "c"),
    17: pages.share_c,
    18: pages.author,
    19: pages.followers,
    20: account.change_password,
    21: account.delete_account,
}
assert set(_RENDERERS) | {22, 23} == set(range(site.N_PAGES))

# Where each form posts to, and where the (stateless) site sends the browser afterwards.
_POST_TARGETS: dict[str, str] = {
    "/login": "/",
    "/register": "/",
    "/settings": "/settings",
    "/settings/password": "/settings",
    "/editor": "/article/b",
    "/editor/b": "/article/b",
    "/article/a/comments": "/article/a/comments",
    "/settings/delete-account": "/",
}


def _headers(cfg: SiteConfig, content_type: str = HTML, **extra: str) -> tuple[tuple[str, str], ...]:
    base = {"Content-Type": content_type, "X-App-Version": cfg.app_version, "Cache-Control": "no-store"}
    return tuple({**base, **{k.replace("_", "-"): v for k, v in extra.items()}}.items())


def not_found(cfg: SiteConfig, path: str) -> Response:
    body = document(
        "Page not found",
        f'<div class="container"><h1>Page not found</h1><p>Nothing lives at <code>{escape(path)}</code>.</p></div>',
        current=None,
        version=cfg.app_version,
    )
    return Response(404, body, _headers(cfg))


def handle(cfg: SiteConfig, method: str, target: str) -> Response:
    """Answer one request. Only GET/HEAD/POST exist; the site keeps no state between requests."""
    parts = urlsplit(target)
    path = parts.path.rstrip("/") or "/"
    query = parse_qs(parts.query).get("q", [c.SEARCH_QUERY])[0]
    if path == "/robots.txt":
        return Response(200, ROBOTS, _headers(cfg, "text/plain; charset=utf-8"))
    if method == "POST":
        if path not in _POST_TARGETS:
            return Response(
                405, "Method Not Allowed\n", _headers(cfg, "text/plain; charset=utf-8", Allow="GET, HEAD")
            )
        if cfg.account == "logged-out" and path not in ("/login", "/register"):
            return Response(303, "", _headers(cfg, Location="/login"))
        return Response(303, "", _headers(cfg, Location=_POST_TARGETS[path]))
    if method not in ("GET", "HEAD"):
        return Response(
            405, "Method Not Allowed\n", _headers(cfg, "text/plain; charset=utf-8", Allow="GET, HEAD, POST")
        )
    page = site.ROUTE_TO_PAGE.get(path)
    if page is None:
        return not_found(cfg, path)
    if cfg.account == "logged-out" and page in account.ACCOUNT_PAGES:
        return Response(302, "", _headers(cfg, Location="/login"))
    if page == 23 and cfg.has_bug(23):
        return Response(500, pages.search_error(cfg, query), _headers(cfg))
    if page in (22, 23):
        return Response(200, pages.search(cfg, 1 if page == 22 else 2, query), _headers(cfg))
    return Response(200, _RENDERERS[page](cfg), _headers(cfg))
