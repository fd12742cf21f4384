"""A polite same-origin HTTP client for exploring sites nobody here wrote.

Every request goes through one place so the explorer's promises hold for every fetch, the oracles'
extra fetches included: same origin only, robots.txt respected (including its crawl delay), a minimum
delay between requests, non-HTML skipped, login walls recognised, and HTTP errors or timeouts returned
as outcomes instead of raised. The HTTP itself (same-origin redirects, size cap) is `bughunt.html`'s.
"""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.request
import urllib.robotparser
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urldefrag, urljoin, urlsplit

from loguru import logger

from bughunt.html import FetchedPage, fetch_page, read_within
from memgpt_lite.errors import UsageError

Outcome = Literal["page", "non_html", "login_wall", "http_error", "timeout", "network_error", "blocked"]

USER_AGENT = "bughunt/0.1 (+exploratory testing agent)"
# A login page is recognised by its address or by a login form; both are generic conventions.
_LOGIN_PATH = re.compile(r"(?i)/(log-?in|sign-?in|signin|auth|session/new|account/login)(/|$|\?)")
_PASSWORD_INPUT = re.compile(r"(?i)<input[^>]+type\s*=\s*[\"']?password")
_LOGIN_FORM = re.compile(r"(?i)<form[^>]+action\s*=\s*[\"']?[^\"'>]*(log-?in|sign-?in|signin|/auth|session)")
# Links that end the session or destroy data are never followed by the explorer.
DEFAULT_AVOID = r"(?i)(log-?out|sign-?out|/logoff|[?&](confirm|really)=|/(delete|destroy|remove)(/|$|\?))"


@dataclass(frozen=True, slots=True)
class FetchResult:
    """What one fetch produced. `page` is the response when one came back (also for walls and errors,
    as evidence); only outcome "page" is explored and inspected."""

    outcome: Outcome
    route: str
    url: str
    page: FetchedPage | None = None
    final_route: str | None = None
    status: int | None = None
    detail: str = ""


@dataclass(slots=True)
class FetchStats:
    requests: int = 0
    refused: int = 0
    waited_s: float = 0.0


@dataclass
class Fetcher:
    """Fetches routes of one origin. `base_url` fixes the origin; `delay` is the minimum gap in seconds."""

    base_url: str
    delay: float = 0.0
    timeout: float = 10.0
    respect_robots: bool = True
    avoid: str = DEFAULT_AVOID
    stats: FetchStats = field(default_factory=FetchStats)

    def __post_init__(self) -> None:
        try:
            parts = urlsplit(self.base_url)
            valid = parts.scheme in ("http", "https") and bool(parts.hostname) and parts.port != -1
        except ValueError:  # an unclosed [IPv6 bracket, a port outside 0-65535
            valid = False
        if not valid:
            raise UsageError(
                f"--url: expected an http(s) URL like http://127.0.0.1:8000/, got {self.base_url!r}"
            )
        if self.delay < 0 or self.timeout <= 0:
            raise UsageError("--delay must be >= 0 and --timeout > 0")
        self.origin = f"{parts.scheme}://{parts.netloc}".lower()
        self._avoid = re.compile(self.avoid) if self.avoid else None
        self._last_request = 0.0
        self._robots: urllib.robotparser.RobotFileParser | None = None
        self._robots_loaded = False

    # -- addresses -------------------------------------------------------------------------------
    def route_of(self, url: str) -> str | None:
        """Route (path + query) of `url` if it is on this origin, else None."""
        absolute, _ = urldefrag(urljoin(self.origin + "/", url))
        parts = urlsplit(absolute)
        if f"{parts.scheme}://{parts.netloc}".lower() != self.origin:
            return None
        return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")

    def url_of(self, route: str) -> str:
        return self.origin + route

    def start_route(self) -> str:
        return self.route_of(self.base_url) or "/"

    def followable(self, route: str) -> bool:
        """May the explorer click this route: not avoided as destructive, and allowed by robots.txt."""
        if self._avoid is not None and self._avoid.search(route):
            return False
        return self.allowed(route)

    def allowed(self, route: str) -> bool:
        if not self.respect_robots:
            return True
        robots = self._load_robots()
        return robots is None or robots.can_fetch(USER_AGENT, self.url_of(route))

    def _load_robots(self) -> urllib.robotparser.RobotFileParser | None:
        if self._robots_loaded:
            return self._robots
        self._robots_loaded = True
        self._wait()
        try:
            deadline = time.monotonic() + self.timeout
            with urllib.request.urlopen(self.url_of("/robots.txt"), timeout=self.timeout) as resp:
                ctype = resp.headers.get("Content-Type", "")
                text = read_within(resp, deadline, self.timeout, 500_000).decode("utf-8", errors="replace")
        except (OSError, ValueError) as exc:
            # 404 or no answer: the site states no rules, so every path is allowed.
            logger.info("robots.txt unavailable ({}); every path allowed", exc)
            return None
        if "html" in ctype:
            return None
        parser = urllib.robotparser.RobotFileParser()
        parser.parse(text.splitlines())
        self._robots = parser
        crawl_delay = parser.crawl_delay(USER_AGENT)
        if crawl_delay is not None and float(crawl_delay) > self.delay:
            self.delay = float(crawl_delay)
        return parser

    # -- fetching --------------------------------------------------------------------------------
    def fetch(self, route: str) -> FetchResult:
        """Fetch one route; never raises for anything the site or the network does."""
        route = self.route_of(route) or route
        url = self.url_of(route)
        if not self.allowed(route):
            self.stats.refused += 1
            return FetchResult("blocked", route, url, detail="disallowed by robots.txt")
        self._wait()
        try:
            page = fetch_page(url, timeout=self.timeout, user_agent=USER_AGENT)
        except TimeoutError as exc:
            return FetchResult("timeout", route, url, detail=f"no answer within {self.timeout:g}s ({exc})")
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                return FetchResult("timeout", route, url, detail=f"no answer within {self.timeout:g}s")
            return FetchResult("network_error", route, url, detail=f"{exc.reason}")
        except (OSError, ValueError, UnicodeError) as exc:
            return FetchResult("network_error", route, url, detail=f"{type(exc).__name__}: {exc}")
        return self.classify(route, page)

    def classify(self, route: str, page: FetchedPage) -> FetchResult:
        final = self.route_of(page.url) or page.route
        status = page.status
        common: dict[str, Any] = {"final_route": final, "status": status, "page": page}
        if 300 <= status < 400:
            where = page.header("location")
            target = self.route_of(where) if where else None
            if target is not None and _LOGIN_PATH.search(target) and not _LOGIN_PATH.search(route):
                return FetchResult(
                    "login_wall", route, page.url, detail=f"redirected to login {target}", **common
                )
            return FetchResult("blocked", route, page.url, detail=f"redirect not followed: {where}", **common)
        if page.redirects and _LOGIN_PATH.search(final) and not _LOGIN_PATH.search(route):
            return FetchResult("login_wall", route, page.url, detail=f"redirected to login {final}", **common)
        if status in (401, 403, 407):
            return FetchResult("login_wall", route, page.url, detail=f"HTTP {status}", **common)
        if not page.is_html:
            ctype = page.content_type.split(";")[0].strip() or "unknown"
            return FetchResult("non_html", route, page.url, detail=f"content-type {ctype}", **common)
        if 400 <= status < 500:
            # "Not here" from the site: recorded and skipped, not explored past.
            return FetchResult("http_error", route, page.url, detail=f"HTTP {status}", **common)
        if (
            not _LOGIN_PATH.search(route)
            and _PASSWORD_INPUT.search(page.body)
            and _LOGIN_FORM.search(page.body)
        ):
            # The page answered in place with a login form (no redirect): a wall all the same.
            return FetchResult(
                "login_wall", route, page.url, detail="login form instead of content", **common
            )
        return FetchResult("page", route, page.url, **common)

    def fetch_page(self, url: str) -> FetchedPage:
        """The oracles' `Fetch`: a response of this origin; OSError when there is none to be had."""
        route = self.route_of(url)
        if route is None:
            raise OSError(f"{url}: not on {self.origin}; not fetched")
        result = self.fetch(route)
        if result.page is None:
            raise OSError(f"{url}: {result.outcome} ({result.detail})")
        return result.page

    def _wait(self) -> None:
        wait = self._last_request + self.delay - time.monotonic()
        if wait > 0:
            self.stats.waited_s += wait
            time.sleep(wait)
        self._last_request = time.monotonic()
        self.stats.requests += 1
