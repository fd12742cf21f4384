"""The HTTP engine: a polite same-origin client for exploring sites nobody here wrote (`Engine`).

Every request goes through one place so the explorer's promises hold for every fetch, the oracles'
extra fetches included: same origin only, robots.txt respected (RFC 9309, through the same HTTP client,
its crawl delay capped), a minimum delay between requests, non-HTML skipped, login walls recognised,
and HTTP errors or timeouts returned as outcomes instead of raised. The HTTP itself (one deadline per
response, same-origin redirects, size cap) is `transport`'s. The browser engine (`browser.py`) is this
engine with its page loads, clicks and form login done by Chromium.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal
from urllib.parse import urljoin, urlsplit

from bughunt.actions import Action, extract_actions
from bughunt.explorer.httpx_client import httpx
from bughunt.oracles.base import Finding
from bughunt.oracles.destructive_words import destructive_action, names_account, operation_action
from bughunt.oracles.guarded_gets import guarded_get
from bughunt.oracles.request_action import marked_action
from bughunt.page import FetchedPage, KeptTrees
from bughunt.record_repr import field_repr
from bughunt.urls import MAX_ROUTE_CHARS, route_of
from memgpt_lite.errors import UsageError
from memgpt_lite.log import logger

from .engine import MAX_RELOGINS, FetchResult, FetchStats, LoginLost, Outcome
from .login import (
    Credentials,
    LoginFailed,
    LoginUnreachable,
    SiteStopped,
    StillLoggedIn,
    http_login,
    refused_login,
)
from .login_wall import LoginShape, shows_login_form
from .secrets import site_cookie_secrets
from .transport import USER_AGENT, fetch_page

if TYPE_CHECKING:
    from protego import Protego

# A login page is recognised by its address or by a login form (`login_wall`); both are generic conventions.
# A script's page is named with its file's extension (PHP's `/login.php`, ASP.NET's `/Login.aspx`, Struts'
# `/login.do`, a CGI's `/login.cgi`): a redirect there is the login wall as much as one to `/login`.
_LOGIN_PATH = re.compile(
    r"(?i)/(log-?in|sign-?in|signin|auth|session/new|account/login)(\.[a-z]{2,5})?(/|$|\?)"
)
MAX_ORACLE_FETCHES = 8
"""Requests the oracles may make between two steps (a page with 300 forms makes at most this many)."""
MAX_CRAWL_DELAY_S = 30.0
"""A robots.txt `Crawl-delay` above this is capped to it (with one warning): a site cannot stall a session."""
ROBOTS_RETRY_S = 60.0
"""An unreachable robots.txt disallows everything (RFC 9309 §2.3.1.4) and is asked again after this long."""
ROBOTS_MAX_BYTES = 500_000  # RFC 9309 §2.5: at least 500 KiB must be parsed
_MEDIA_TYPE = re.compile(r"[a-z0-9][a-z0-9.+-]{0,40}/[a-z0-9][a-z0-9.+-]{0,60}")
LOGIN_OPTIONS = "--login-url/--username/--password-env, --cookie NAME=VALUE or --header 'Name: value'"
REUSED_PAGES = 64
REUSED_BYTES = 8_000_000
"""The pages (and their bodies' characters) an HTTP session keeps for its oracles to reuse, most
recently loaded first: the related pages they ask for (a list's previous page, the resource behind an
edit form) are mostly pages the walk just loaded."""
KEPT_ANSWERS = 50_000
"""`route_of` and `followable` answers an engine keeps (a step asks again for every link of its page
and the choice for every link it weighs); past it they are forgotten at once and asked anew."""
# Links that end the session or destroy data are never followed by the explorer. A bare flag
# (`?confirm`) is set for the apps that test its presence (PHP's `isset`, C CGIs): it confirms too.
DEFAULT_AVOID = (
    r"(?i)(log-?out|sign-?out|/logoff|[?&](confirm|really)(=|&|$)|/(delete|destroy|remove)(/|$|\?)"
    r"|[?&](delete|destroy|remove|del|rm)=[^&])"
)


class LoadedPages:
    """The session's last pages by route, bounded in count and size (`REUSED_PAGES`, `REUSED_BYTES`),
    for `HttpEngine.reuse_page`: each is what the site answered a GET, kept only while nothing can have
    changed it since — a write or a login forgets them all, and so does another app version."""

    __slots__ = ("_pages", "_chars", "_version", "reused")

    def __init__(self) -> None:
        self._pages: OrderedDict[str, FetchedPage] = OrderedDict()
        self._chars = 0
        self._version: str | None = None
        self.reused = 0

    def add(self, route: str, page: FetchedPage) -> None:
        if page.method != "GET" or len(page.body) > REUSED_BYTES:
            return
        old = self._pages.pop(route, None)
        if old is not None:
            self._chars -= len(old.body)
            page.share_readings(old)  # loaded again unchanged: read once
        self._pages[route] = page
        self._chars += len(page.body)
        while len(self._pages) > REUSED_PAGES or self._chars > REUSED_BYTES:
            _, dropped = self._pages.popitem(last=False)
            self._chars -= len(dropped.body)

    def get(self, route: str, version: str | None) -> FetchedPage | None:
        if version != self._version:
            # pages of another version of the app (or of an unknown one before it said which) are stale
            self.clear()
            self._version = version
            return None
        page = self._pages.get(route)
        if page is not None:
            self.reused += 1
        return page

    def clear(self) -> None:
        self._pages.clear()
        self._chars = 0


@dataclass(repr=False, eq=False)
class HttpEngine:
    """The `Engine` over HTTP: fetches routes of one origin. `base_url` fixes the origin; `delay` is the
    minimum gap in seconds."""

    __repr__ = field_repr

    base_url: str
    delay: float = 0.0
    timeout: float = 10.0
    respect_robots: bool = True
    avoid: str = DEFAULT_AVOID
    avoid_actions: bool = False
    """Also never click a route that names a destructive action (`destructive_action`): with
    --allow-destructive the oracles open those after the walk and judge them by their effect, so the
    walk stays a reader (a refusal page answering 200 at `/_delete/` is no deletion). A GET its query
    marks as an action on a record (`marked_action`) is never clicked either way (`_defers`)."""
    stats: FetchStats = field(default_factory=FetchStats)
    headers: dict[str, str] = field(default_factory=dict, repr=False)
    """Extra request headers (`--header`); values are secrets: never logged, stored or shown."""
    notices: list[str] = field(default_factory=list)
    """Warnings for the person running the session (harness wording only), each said once."""
    cookies: httpx.Cookies = field(default_factory=httpx.Cookies, repr=False)
    """The session's cookie jar (`--cookie`, a form login, what the site sets); process memory only."""
    credentials: Credentials | None = field(default=None, repr=False)
    """The login options (`log_in`); never stored."""
    on_login: Callable[[list[str]], object] | None = field(default=None, repr=False)
    """Called with `login_secrets()` after every login, the first and each re-login (whose response
    sets a new session token): the session's scrubber learns each secret before a page can echo it."""

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
        if parts.username is not None or parts.password is not None:
            # The URL is stored and printed; a password in it would be too. Say where it belongs.
            raise UsageError(f"--url: credentials in the URL are not accepted; log in with {LOGIN_OPTIONS}")
        if self.delay < 0 or self.timeout <= 0:
            raise UsageError("--delay must be >= 0 and --timeout > 0")
        self.origin = f"{parts.scheme}://{parts.netloc}".lower()
        self._avoid = re.compile(self.avoid) if self.avoid else None
        self._last_request = 0.0
        self._robots: Protego | None = None
        self._robots_rule: Literal["unknown", "rules", "allow_all", "disallow_all"] = "unknown"
        self._robots_why = ""
        # How a disallow-all robots.txt failed, so a page it keeps us from is a failure of that kind
        # (retried later), not a rule of the site.
        self._robots_failure: tuple[Outcome, int | None] = ("network_error", None)
        self._robots_at = 0.0
        self._delay_warned = False
        self._oracle_fetches = 0
        self._logged_in = False
        self._login_probed = False
        self._login_findings: list[Finding] = []
        self._relogins = 0
        self._login_shape: LoginShape | None = None
        """The form the session logged in with: a page showing it again is the login wall back."""
        self._walled_anyway: set[str] = set()
        self._loaded = LoadedPages()
        self._trees = KeptTrees(REUSED_PAGES, REUSED_BYTES)
        """The tree readings of the last bodies loaded, as many as the pages kept for reuse: a page
        loaded with one of them, under any URL, is not parsed and read again. Kept through writes and
        logins, which `_loaded` forgets (a body's tree is what it is, whatever the site did since).
        The HTTP engine's loads only: the browser's documents are not shared (not measured there)."""
        self._routes: dict[str, str | None] = {}
        self._followable: dict[str, bool] = {}

    # -- addresses -------------------------------------------------------------------------------
    def route_of(self, url: str) -> str | None:
        """Canonical route (percent-encoded path + query, `bughunt.urls.route_of`) of `url` if it is on
        this origin and at most `MAX_ROUTE_CHARS` long, else None (not a page the explorer names)."""
        # a step asks for the same addresses again and again (each link of a page, then the choice)
        routes = self._routes
        if url in routes:
            return routes[url]
        if len(routes) >= KEPT_ANSWERS:
            routes.clear()
        route = routes[url] = self._route_of(url)
        return route

    def _route_of(self, url: str) -> str | None:
        try:
            # An address already absolute on this origin (every action's target is) is what `urljoin`
            # gives back, but for an empty `;params` it drops: joining it again was two parses a link.
            if url.startswith(self.origin + "/") and ";" not in url:
                absolute = url
            else:
                absolute = urljoin(self.origin + "/", url)
            parts = urlsplit(absolute)
        except ValueError:  # an unclosed [IPv6 bracket in a link
            return None
        if f"{parts.scheme}://{parts.netloc}".lower() != self.origin:
            return None
        route = route_of(absolute, hash_routes=self.hash_routes)
        return route if len(route) <= MAX_ROUTE_CHARS else None

    def url_of(self, route: str) -> str:
        return self.origin + route

    def start_route(self) -> str:
        return self.route_of(self.base_url) or "/"

    def followable(self, route: str) -> bool:
        """May the explorer click this route: not avoided as destructive, and allowed by robots.txt."""
        if self.respect_robots:
            self._load_robots()  # rules read anew drop the answers kept (`_set_robots`)
        known = self._followable.get(route)
        if known is None:
            if len(self._followable) >= KEPT_ANSWERS:
                self._followable.clear()
            avoided = (self._avoid is not None and self._avoid.search(route) is not None) or (
                self._defers(route)
            )
            known = self._followable[route] = not avoided and self.allowed(route)
        return known

    def _defers(self, route: str) -> bool:
        """A GET its query marks as an action on a record (`marked_action`) or whose action key runs an
        operation (`operation_action`: `?action=stop`, `?action=clearlog` — supervisord's web page stopped
        and restarted every process when walked) or that the site guards with an anti-forgery token
        (`guarded_get`: `?id=7&active=0&token=…`) is never the walk's, with or without
        --allow-destructive; one named as destroying is left to the oracles under it (opened after the
        walk with the flag, reported suspected without it). Without the flag one exception is walked:
        the session's own account page at a fixed address (`destructive_words.account_page`: a GET
        `/settings/delete-account` is a page that asks first on a site that asks — the built-in site's
        page 21 — and the page after is what shows it did not); a record's action (`/files/3/unlink`)
        is not: walked, it was a write nobody allowed while `--json` said nothing was opened."""
        url = self.url_of(route)
        if marked_action(url) is not None or operation_action(url) is not None or guarded_get(url):
            return True
        action = destructive_action(url)
        if action is None:
            return False
        return self.avoid_actions or not names_account(url, action)

    def allowed(self, route: str) -> bool:
        if not self.respect_robots:
            return True
        self._load_robots()
        if self._robots_rule == "disallow_all":
            return False
        robots = self._robots
        return robots is None or robots.can_fetch(self.url_of(route), USER_AGENT)

    def _load_robots(self) -> None:
        """Read robots.txt once (again after `ROBOTS_RETRY_S` while it is unreachable), by RFC 9309:
        2xx rules apply; 4xx (or a redirect off the origin) means no rules; 5xx, a timeout or no answer
        means disallow everything."""
        now = time.monotonic()
        if self._robots_rule != "unknown" and not (
            self._robots_rule == "disallow_all" and now - self._robots_at >= ROBOTS_RETRY_S
        ):
            return
        self._robots_at = now
        self._robots = None
        self._wait()
        try:
            page = self._http(self.url_of("/robots.txt"), read_any=True, max_bytes=ROBOTS_MAX_BYTES)
        except (TimeoutError, OSError, ValueError) as exc:
            self._robots_failure = ("timeout" if isinstance(exc, TimeoutError) else "network_error", None)
            self._set_robots("disallow_all", f"robots.txt unreachable ({type(exc).__name__})")
            return
        if page.status >= 500:
            self._robots_failure = ("http_error", page.status)
            self._set_robots("disallow_all", f"robots.txt answered HTTP {page.status}")
        elif page.status >= 300 or page.is_html:
            # 4xx, a redirect we may not follow, or an HTML page where a text file should be: no rules.
            self._set_robots("allow_all", f"robots.txt: HTTP {page.status}, no rules")
        else:
            from protego import Protego  # a site without rules never pays its import

            # RFC 9309 as written: `*` and `$` in a path, the longest matching rule winning (the
            # standard library's reader takes neither: `Disallow: /*/tree/*` allowed every tree).
            parser = Protego.parse(page.body)
            self._robots = parser
            self._set_robots("rules", "robots.txt rules apply")
            self._apply_crawl_delay(parser)

    def _set_robots(self, rule: Literal["rules", "allow_all", "disallow_all"], why: str) -> None:
        self._robots_rule, self._robots_why = rule, why
        self._followable.clear()
        if rule == "disallow_all":
            self._notice(f"{why}: every path disallowed until it answers (RFC 9309)")
        else:
            logger.info("{}", why)

    def _notice(self, text: str) -> None:
        if text not in self.notices:
            logger.warning("{}", text)
            self.notices.append(text)

    def _apply_crawl_delay(self, parser: Protego) -> None:
        wanted = parser.crawl_delay(USER_AGENT)  # a finite number ≥ 0, or None when none is readable
        if wanted is None:
            return
        if wanted > MAX_CRAWL_DELAY_S:
            if not self._delay_warned:
                self._notice(
                    f"robots.txt asks for a crawl delay of {wanted:.3g}s; capped at {MAX_CRAWL_DELAY_S:g}s"
                )
                self._delay_warned = True
            wanted = MAX_CRAWL_DELAY_S
        self.delay = max(self.delay, wanted)

    def _load(self, url: str, referer: str | None = None) -> FetchedPage:
        """One page load (the browser engine renders it instead); `referer` as `fetch` takes it."""
        if referer is not None and self.route_of(referer) is not None:
            return self._http(url, headers={**self.headers, "Referer": referer})
        return self._http(url)

    # -- actions (the explorer's steps) ------------------------------------------------------------
    name: ClassVar[str] = "http"
    can_click: ClassVar[bool] = False
    """Every action is a load of its target: a click action (`data-href`, a literal `onclick`
    navigation) included."""
    hash_routes: ClassVar[bool] = False
    """Whether `#/…` fragments name pages (only a browser runs the app's router)."""

    def actions(self, page: FetchedPage) -> list[Action]:
        """What can be done on `page`: `extract_actions` (the browser engine adds clicks)."""
        return extract_actions(page)

    def perform(self, action: Action) -> FetchResult:
        """Do `action`. Every action of this engine has a known target, so it is a fetch of that route."""
        return self.fetch(self.route_of(action.target) or action.target)

    def close(self) -> None:
        """Release what the engine holds (the browser engine's Chromium)."""

    def request(
        self,
        url: str,
        *,
        method: str = "GET",
        data: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        multipart: bool = False,
    ) -> FetchedPage:
        """One exchange with the session's cookies and headers (`headers` added for this one), outside
        the step accounting: no delay, not counted, not classified (the login form's own requests,
        `login.http_login`)."""
        if method != "GET":
            self._loaded.clear()  # a write (a login's POST): what was loaded before may have changed
        if headers:
            return fetch_page(
                url, timeout=self.timeout, user_agent=USER_AGENT, headers={**self.headers, **headers},
                cookies=self.cookies, method=method, data=data, multipart=multipart,
            )  # fmt: skip
        return self._http(url, method=method, data=data, multipart=multipart)

    def take_login_findings(self) -> list[Finding]:
        """`Engine.take_login_findings`: the refused login's findings, handed over once."""
        found, self._login_findings = self._login_findings, []
        return found

    def _http(self, url: str, **kwargs: Any) -> FetchedPage:
        kwargs.setdefault("headers", self.headers)
        return fetch_page(url, timeout=self.timeout, user_agent=USER_AGENT, cookies=self.cookies, **kwargs)

    # -- fetching --------------------------------------------------------------------------------
    def fetch(self, route: str, referer: str | None = None) -> FetchResult:
        """Fetch one route (a step); never raises for anything the site or the network does.
        `referer`: the address of the page whose link the step follows (`referrer.referer`), sent
        as a browser's click sends it; None for a load typed in.

        A step starts the oracles' allowance afresh (`MAX_ORACLE_FETCHES`, spent by `fetch_page`)."""
        self._oracle_fetches = 0
        result = self._fetch(route, referer)
        if result.outcome == "login_wall" and self._logged_in:
            result = self._after_wall(result)
        return result

    def probe(self, route: str) -> FetchResult:
        """Fetch `route` without it being a step (no login recovery, no oracle allowance)."""
        return self._fetch(route)

    # -- logging in ------------------------------------------------------------------------------
    def log_in(self) -> None:
        """Apply the credentials: cookies and headers now, then the form login if one was given.
        `LoginFailed` (a usage error) when the form login does not get past the wall."""
        creds = self.credentials
        if creds is None or not creds.used:
            return
        host = urlsplit(self.origin).hostname or ""
        for name, value in creds.cookies:
            self.cookies.set(name, value, domain=host)
        self.headers.update(dict(creds.headers))
        if creds.login_url:
            self._form_login(creds)
        self._loaded.clear()  # the site may show a logged-in visitor other pages
        self._logged_in = True
        self._logged_in_now()

    def _logged_in_now(self) -> None:
        if self.on_login is not None:
            self.on_login(self.login_secrets())

    def login_secrets(self) -> list[str]:
        """Every secret this engine holds once logged in: the login options' values and the values of
        the cookies the site set that are secrets (a login response's session token:
        `site_cookie_secrets`), for the store never to write."""
        creds = self.credentials
        given = creds.secrets() if creds is not None else []
        username = creds.username if creds is not None else None
        return given + site_cookie_secrets((c.value for c in self.cookies.jar), username)

    def _form_login(self, creds: Credentials) -> None:
        """The form login (the browser engine does it in the page instead). Before the session's first
        one, the form is submitted once with a wrong password (`refused_login`); the login that follows
        leaves the session logged in. A site that answered the login page and then stops answering
        once the wrong password went out is `SiteStopped`, not a login option at fault."""
        probed = None
        if not self._login_probed:
            self._login_probed = True
            probed = refused_login(self, creds)
            self._login_findings = probed.findings
        try:
            self._login_shape = http_login(self, creds, logged_in=self._logged_in) or self._login_shape
        except LoginUnreachable as exc:
            if probed is None or not probed.sent:
                raise
            raise SiteStopped(
                f"the site stopped answering after the refused-login check (its login form sent once "
                f"with a wrong password, as a tester does before logging in): {exc}. A wrong password "
                "may crash the site; its log tells. Nothing was explored."
            ) from None

    @property
    def relogins(self) -> int:
        """`Engine.relogins`."""
        return self._relogins

    def _after_wall(self, result: FetchResult) -> FetchResult:
        """A wall while logged in: a route walled for this account too, or the login was lost. Logging
        in again tells them apart (lost: the route opens, and this step is retried once, logged in).
        The session goes on logged in again up to `MAX_RELOGINS` times; lost once more, or not
        restorable, raises `LoginLost`."""
        creds = self.credentials
        if creds is None or not creds.login_url or result.route in self._walled_anyway:
            return result
        self._loaded.clear()
        try:
            self._form_login(creds)
        except StillLoggedIn:
            self._walled_anyway.add(result.route)  # walled for this account; the session is fine
            return result
        except LoginFailed:
            raise LoginLost(
                f"the login wall came back at {result.route} and logging in again failed"
            ) from None
        self._logged_in_now()
        retried = self._fetch(result.route)
        if retried.outcome == "login_wall":
            self._walled_anyway.add(result.route)  # walled for this account; the session is fine
            return retried
        self._relogins += 1
        if self._relogins > MAX_RELOGINS:
            raise LoginLost(f"the login wall came back at {result.route} after {MAX_RELOGINS} re-login(s)")
        logger.info("logged in again after a login wall at {}", result.route)
        return retried

    def _fetch(self, route: str, referer: str | None = None) -> FetchResult:
        canonical = self.route_of(route)
        if canonical is None:
            self.stats.refused += 1
            return FetchResult("blocked", route[:MAX_ROUTE_CHARS], "", detail="not a route of this site")
        route, url = canonical, self.url_of(canonical)
        if not self.allowed(route):
            self.stats.refused += 1
            if self._robots_rule == "disallow_all":
                # Not a rule of the site but a failure to read its rules: the page waits, like an outage.
                outcome, status = self._robots_failure
                return FetchResult(
                    outcome, route, url, status=status, detail=f"not fetched: {self._robots_why}"
                )
            return FetchResult("blocked", route, url, detail="disallowed by robots.txt")
        self._wait()
        try:
            page = self._load(url, referer)
        except TimeoutError:
            return FetchResult("timeout", route, url, detail=f"no answer within {self.timeout:g}s")
        except (OSError, ValueError, UnicodeError) as exc:
            # The class names the failure; the message may quote what the server sent.
            cause = exc.__cause__ if exc.__cause__ is not None else exc
            return FetchResult("network_error", route, url, detail=type(cause).__name__)
        if not self.can_click:
            # every action of this engine is a GET of a followable link: the walk itself writes nothing
            self._loaded.add(route, page)  # first: the same URL's last page lends all it read
            self._trees.share(page)
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
            shown = target if target is not None else "off-origin"  # a canonical route, or no remote text
            return FetchResult("blocked", route, page.url, detail=f"redirect not followed: {shown}", **common)
        if page.redirects and _LOGIN_PATH.search(final) and not _LOGIN_PATH.search(route):
            return FetchResult("login_wall", route, page.url, detail=f"redirected to login {final}", **common)
        if status in (401, 403, 407):
            return FetchResult("login_wall", route, page.url, detail=f"HTTP {status}", **common)
        if not page.is_html and status < 500:
            # A server error is one whatever it is written in: a framework's bare "Internal Server
            # Error" is text/plain, and it is the page the oracles must see.
            media = page.content_type.split(";")[0].strip().lower()
            ctype = media if _MEDIA_TYPE.fullmatch(media) else "unknown"
            return FetchResult("non_html", route, page.url, detail=f"content-type {ctype}", **common)
        if 400 <= status < 500:
            # "Not here" from the site: recorded and skipped, not explored past.
            return FetchResult("http_error", route, page.url, detail=f"HTTP {status}", **common)
        if not _LOGIN_PATH.search(route) and shows_login_form(page, self._login_shape):
            # The page answered in place with a login form it shows (no redirect): a wall all the same.
            return FetchResult(
                "login_wall", route, page.url, detail="login form instead of content", **common
            )
        return FetchResult("page", route, page.url, **common)

    def reuse_page(self, url: str, version: str | None) -> FetchedPage | None:
        """The page of `url` this session already loaded (`LoadedPages`), else None. An engine that
        clicks (the browser's) keeps those loaded since its last click: a click may change what a page
        shows."""
        route = self.route_of(url)
        return None if route is None else self._loaded.get(route, version)

    @property
    def pages_reused(self) -> int:
        """Oracle fetches answered from `reuse_page` instead of a request."""
        return self._loaded.reused

    def fetch_page(self, url: str, referer: str | None = None) -> FetchedPage:
        """The oracles' `Fetch`: a response of this origin; OSError when there is none to be had."""
        route = self.route_of(url)
        if route is None:
            raise OSError(f"{url}: not on {self.origin}; not fetched")
        if self._oracle_fetches >= MAX_ORACLE_FETCHES:
            raise OSError(
                f"{url}: not fetched; the oracles used their {MAX_ORACLE_FETCHES} requests of this step"
            )
        self._oracle_fetches += 1
        result = self._fetch(route, referer)
        if result.page is None:
            raise OSError(f"{url}: {result.outcome} ({result.detail})")
        return result.page

    def open_action(self, url: str, referer: str | None = None) -> FetchedPage:
        """`Engine.open_action`: over HTTP the GET is the whole action; no page script writes."""
        return self.fetch_page(url, referer)

    def admit_writes(self, on: bool) -> None:
        """`Engine.admit_writes`: over HTTP no page script writes, so there is nothing to admit."""

    def _wait(self) -> None:
        wait = self._last_request + self.delay - time.monotonic()
        if wait > 0:
            self.stats.waited_s += wait
            time.sleep(wait)
        self._last_request = time.monotonic()
        self.stats.requests += 1
