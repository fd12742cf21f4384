"""A tiny cookie-keeping HTTP client and crawler for the conduit-htmx tests (no engine needed).

It logs in through the site's own form (CSRF token and all), follows links *and* `hx-get` buttons,
never opens logout or destructive links, and runs the oracles on every page it reaches."""

from __future__ import annotations

import http.cookiejar
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import deque

from bughunt.oracles import Finding, OracleConfig, inspect_page
from bughunt.oracles.destructive_words import destructive_action
from bughunt.oracles.lists import targets
from bughunt.page import FetchedPage
from bughunt.urls import absolute, route_of, same_origin

_AVOID = re.compile(r"(?i)log-?out")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        return None


class Client:
    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect)
        self.requests = 0

    def _once(self, url: str, data: bytes | None = None) -> tuple[int, dict[str, str], str]:
        self.requests += 1
        request = urllib.request.Request(url, data=data)
        try:
            response = self.opener.open(request, timeout=10)
        except urllib.error.HTTPError as err:
            response = err
        with response:
            return response.status, dict(response.headers.items()), response.read().decode("utf-8", "replace")

    def fetch(self, url: str, data: bytes | None = None) -> FetchedPage:
        start = time.perf_counter()
        redirects: list[str] = []
        while True:
            status, headers, body = self._once(url, data)
            location = headers.get("Location", "")
            if status in (301, 302, 303) and location and len(redirects) < 5:
                redirects.append(url)
                url, data = urllib.parse.urljoin(url, location), None
                continue
            ctype = headers.get("Content-Type", "")
            return FetchedPage(
                url, route_of(url), status, headers, ctype, body, (time.perf_counter() - start) * 1000,
                redirects=tuple(redirects),
            )  # fmt: skip

    def login(self, username: str, password: str) -> FetchedPage:
        form = self.fetch(self.base + "/login")
        token = re.search(r'name="csrf_token" value="([0-9a-f]+)"', form.body)
        assert token, "login form without a CSRF token"
        data = urllib.parse.urlencode(
            {"csrf_token": token.group(1), "username": username, "password": password}
        )
        return self.fetch(self.base + "/login", data.encode())


def followable(url: str, page: FetchedPage) -> bool:
    return same_origin(url, page.url) and not _AVOID.search(url) and destructive_action(url) is None


def crawl(client: Client, limit: int = 120) -> dict[str, tuple[int, FetchedPage]]:
    """Breadth-first over links and hx-get buttons: route -> (click depth, page)."""
    seen: dict[str, tuple[int, FetchedPage]] = {}
    queue: deque[tuple[str, int]] = deque([(client.base + "/", 0)])
    queued = {client.base + "/"}
    while queue and len(seen) < limit:
        url, depth = queue.popleft()
        page = client.fetch(url)
        seen[route_of(url)] = (depth, page)
        if page.status >= 400 or "html" not in page.content_type:
            continue
        for _, href in targets(page.document):
            target = absolute(page.url, href)
            if target and target not in queued and followable(target, page):
                queued.add(target)
                queue.append((target, depth + 1))
    return seen


def sweep(client: Client, config: OracleConfig | None = None) -> list[tuple[int, Finding]]:
    pages = crawl(client)
    known = list(pages)
    config = config or OracleConfig(known_routes=lambda: known)
    found: list[tuple[int, Finding]] = []
    for _route, (depth, page) in pages.items():
        for finding in inspect_page(page, client.fetch, config):
            found.append((depth, finding))
    return found
