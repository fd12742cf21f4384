"""The browser engine: the `HttpEngine`'s promises, with each page rendered by Chromium.

Playwright's Python client drives Debian's `chromium` (never a downloaded browser). A page load gives
the same `FetchedPage` as the HTTP engine — final URL, status and headers of the navigation, the
*rendered* HTML, its structure hash — so every oracle works unchanged, plus what went wrong in the
page while it ran: uncaught JavaScript errors, console errors, XHR/fetch answers of 4xx/5xx
(`FetchedPage.client_errors`, judged by `bughunt.oracles.client_errors`). All of Chromium's traffic
goes through the engine's network gate (`gate.py`: other origins, writes, upgrades, beacons and
speculative loads refused there), every call into the page is bounded by the step's deadline
(`watchdog.py`: a page that never yields is abandoned and its tab replaced), and robots.txt, delays,
routes and login walls are the `HttpEngine`'s own. Click actions (elements that navigate or swap
content without an `href`) are offered here and performed by `clicking`; their result is a state, the
URL plus the structure hash of what the click left.
"""

from __future__ import annotations

import re
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal
from urllib.parse import unquote, urlsplit

from bughunt.actions import HIDDEN_MARK, Action, acts, anchor_names, clickable, page_clicks
from bughunt.explorer.filter_typing import FILL_MARK, filter_boxes
from bughunt.focus_controls import control_label
from bughunt.oracles.client_errors import partial_document
from bughunt.oracles.lists import pager_ways_on
from bughunt.page import ClientError, FetchedPage, fragment_text, is_html
from bughunt.urls import bounded_route
from memgpt_lite.errors import UsageError
from memgpt_lite.log import logger

from .chromium import CHROMIUM_ARGS, chromium_path
from .clicking import DRAW_POLL_S, ReadPages, empty_typed_box, perform_click, still_drawing
from .engine import FetchResult
from .error_answers import CHROME_ERROR_PAGE, bodiless_failure, bodiless_page, main_document
from .gate import GATE_HEADER, READS, REFUSED_HINT, WRITE_REFUSED, Gate, Refusal, refusal_summary
from .http_engine import HttpEngine
from .login import Credentials, LoginFailed, StillLoggedIn, confirm_logged_in, login_form
from .login_submit import form_address, submit_login
from .login_wall import login_shape
from .meta_refresh import replaced_at_once
from .more_controls import more_controls
from .named_calls import read_request
from .offered_clicks import offered_clicks
from .page_errors import thrown_script
from .page_scripts import PENDING, READ, Record, checked_record, init_script, made_worker
from .realtime import Channels
from .retried_requests import RetriedRequests
from .rpc_calls import failed_answer, read_call
from .scroll_end import scroll_to_end
from .secrets import site_cookie_secrets
from .transport import MAX_BODY_BYTES, USER_AGENT, FetchError
from .watchdog import DRIVERS, HostilePage, deadline_guard, driver_pids, kill_renderers, take_killed

MAX_DOM_NODES = 50_000
"""Above this many elements the rendered HTML is read cut at `MAX_BODY_BYTES`, as the HTTP engine cuts
a body: a million-node page is read in seconds, not minutes."""
PROBE_S = 1.0
"""How long a page gets to answer a trivial script before it counts as blocked."""
READ_ATTEMPTS = 3
MAX_NAVIGATIONS = 10
"""Main-frame navigations one load may make (redirects by script, a router's pushes) before it counts
as a navigation loop (a `<meta http-equiv=refresh content=0>` reloading itself) and is abandoned."""
REFRESH_S = 1.0
"""How long a page that declares a refresh with no delay gets to start it before it is read as it is."""
TAB_S = 3.0
"""How long closing an abandoned tab and opening a new one may take before the browser is restarted."""


def with_user_headers(request: dict[str, str], user: dict[str, str]) -> dict[str, str]:
    """The request's headers with the user's (`--header`) in their place: header names are
    case-insensitive, so a request key matching a user key in another case is dropped, not sent twice."""
    mine = {name.lower() for name in user}
    return {**{k: v for k, v in request.items() if k.lower() not in mine}, **user}


_REFUSED_JAVASCRIPT_URL = "Running the JavaScript URL violates"
"""How Chromium words a `javascript:` URL refused by the page's Content-Security-Policy."""


SETTLE_S = 1.5
"""After `load` or a click, how long a page may keep fetching before it is read (scripts render after
load)."""
QUIET_S = 0.15
"""How long no request may be in flight before a page that fetched (or a click's new state) is read."""
QUIET_POLL_MS = 25
WATCH_S = 0.5
"""How far ahead of a page's first read its pending timers are watched (`page_scripts`): a page with a
timer or frame due within this time is read again once it has run — and a script that then blocks the
renderer (a `setTimeout` loop) is caught on its own step, as `networkidle`'s 0.5 s of quiet caught it.
A page with nothing due so soon is read at once."""
_SCRIPT_SRC = re.compile(r"<script\b[^>]*\ssrc\s*=", re.I)
FRAGMENT_SNIFF_BYTES = 4096
"""How much of a response is read to tell a partial from a page (the doctype or `<html>` comes first)."""
_SCRIPTED = frozenset({"xhr", "fetch", "eventsource"})
"""Requests a script makes to render what it fetched: a load that made one the page's record does not
follow waits for quiet before it is read (what `load` waits for — the document, its scripts, styles
and images — needs no such wait)."""
_FOLLOWED = frozenset({"xhr", "fetch"})
"""Requests the page's record follows (`page_scripts`: each `fetch` and `XMLHttpRequest` of its
documents, until settled and the page's continuations have run): the engine waits on the record for
them, not for `QUIET_S` of quiet on the wire — unless the record cannot vouch (absent, or a worker,
whose requests look the same, was made)."""
MAX_CLIENT_ERRORS = 20


@dataclass
class BrowserEngine(HttpEngine):
    """An `HttpEngine` whose page loads, clicks and form login are Chromium's (it overrides `_load` and
    `_form_login`). `storage_state` (a Playwright storage-state file: cookies and local storage) starts
    the browser logged in."""

    storage_state: Path | None = None
    browser_path: str | None = None
    """`--browser-path`: the Chromium executable (`chromium_path`)."""
    trace: Path | None = None
    """`--trace FILE.zip`: a Playwright trace of the session (opened by `playwright show-trace`)."""
    allow_origins: tuple[str, ...] = ()
    """Other origins the page's own requests may reach (a single-page app's API on another port);
    never explored, never navigated to. Everything else off the origin is aborted."""
    name: ClassVar[str] = "browser"
    can_click: ClassVar[bool] = True
    hash_routes: ClassVar[bool] = True
    settle_s: ClassVar[float] = SETTLE_S
    poll_ms: ClassVar[int] = QUIET_POLL_MS
    _pw: Any = field(default=None, init=False, repr=False)
    _browser: Any = field(default=None, init=False, repr=False)
    _context: Any = field(default=None, init=False, repr=False)
    _page: Any = field(default=None, init=False, repr=False)
    _errors: list[ClientError] = field(default_factory=list, init=False, repr=False)
    _retried: RetriedRequests = field(default_factory=RetriedRequests, init=False, repr=False)
    _writing: bool = field(default=False, init=False, repr=False)
    """True only while logging in: the one time the explorer lets the page send a write."""
    _acting: bool = field(default=False, init=False, repr=False)
    """True only while the harness opens a destructive action (`open_action`): its page's writes are sent."""
    _blocked_write: bool = field(default=False, init=False, repr=False)
    _refused: list[str] = field(default_factory=list, init=False, repr=False)
    realtime: bool = True
    """`--realtime`: same-origin channels pass, judged by frame (`realtime`); off, all refused."""
    _channels: Channels = field(default=None, init=False, repr=False)  # type: ignore[assignment]
    _typed_box: str | None = field(default=None, init=False, repr=False)
    """The filter box the last click typed into, emptied before the page is used again (`filter_typing`)."""
    """The writes refused since the last load or click ("DELETE /api/items/7"): what a click sent."""
    _read_pages: ReadPages = field(default_factory=ReadPages, init=False, repr=False)
    """Each state's first read, which describes its controls at click time (`clicking.ReadPages`)."""
    _gate: Gate | None = field(default=None, init=False, repr=False)
    _marker: str = field(default="", init=False, repr=False)
    _record_name: str = field(default="", init=False, repr=False)
    """The name of the page's timer record (`page_scripts.init_script`), new for each browser."""
    _navigations: int = field(default=0, init=False, repr=False)
    _in_flight: set[Any] = field(default_factory=set, init=False, repr=False)
    """The tab's requests started since `_watch` and not yet ended (from the request events)."""
    _open: set[Any] = field(default_factory=set, init=False, repr=False)
    """The tab's requests not yet ended, whichever step started them (an event stream's aside: it never
    ends): a chain's click looks for a control a load's late request may yet draw (`clicking`)."""
    _answered: set[Any] = field(default_factory=set, init=False, repr=False)
    """Those of `_in_flight` made by a script (`_SCRIPTED`) whose answer has arrived: a body the page
    never reads is never reported finished, and the page's own record says whether it is reading it."""
    _traffic: int = field(default=0, init=False, repr=False)
    """Request events (start or end) seen since `_watch`."""
    _last_traffic: float = field(default=0.0, init=False, repr=False)
    _scripted: bool = field(default=False, init=False, repr=False)
    """A script's request the record does not follow (`_SCRIPTED` but not `_FOLLOWED`) was seen since
    `_watch`."""
    _followed: set[Any] = field(default_factory=set, init=False, repr=False)
    """The requests seen since `_watch` that the page's record follows (`_FOLLOWED`)."""
    _followed_seen: bool = field(default=False, init=False, repr=False)
    _unfollowed_traffic: int = field(default=0, init=False, repr=False)
    """Request events (start or end) since `_watch` of requests the record does not follow."""

    # -- lifecycle -------------------------------------------------------------------------------
    def start(self) -> None:
        if self._page is not None:
            return
        self._allowed = {o.rstrip("/").lower() for o in self.allow_origins}
        executable = chromium_path(self.browser_path)
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright

        creds = self.credentials
        self._gate = Gate(
            self.origin,
            frozenset(self._allowed),
            headers=self.headers,  # the same dict: `log_in` adds `--header` values to it later
            secret=creds.password if creds is not None else None,
            avoid=self._avoid,
            timeout=self.timeout,
            realtime=self.realtime,
        )
        proxy = self._gate.start()
        flags = (lambda: self._writing, lambda: self._acting, lambda: self._refused)
        self._channels = Channels(self.origin, self._gate, self._record, *flags, on=self.realtime)
        # A switch Chromium ignores, to find this browser's renderers when a page has to be killed.
        self._marker = f"--bughunt-engine={uuid.uuid4().hex}"
        args = [
            *CHROMIUM_ARGS,
            f"--proxy-server=http://{proxy}",
            "--proxy-bypass-list=<-loopback>",  # without it Chromium sends loopback around the proxy
            self._marker,
        ]
        drivers = driver_pids()
        self._pw = sync_playwright().start()
        for pid in driver_pids() - drivers:  # the one this start added: the watchdog's last resort
            DRIVERS[self._marker] = pid
        try:
            self._browser = self._pw.chromium.launch(executable_path=executable, args=args)
        except PlaywrightError as exc:
            self.close()
            first = (str(exc).strip().splitlines() or ["no reason given"])[0]
            raise UsageError(f"--engine browser: Chromium at {executable} did not start ({first})") from None
        # `--header` values are not given to Chromium (it would send them to every origin): the gate
        # adds them to requests of the exact origin, and so does `_guard` inside an https tunnel.
        options: dict[str, Any] = {
            "user_agent": USER_AGENT,
            "service_workers": "block",
            "accept_downloads": False,
        }
        if self.storage_state is not None:
            options["storage_state"] = str(self.storage_state)
        self._context = self._browser.new_context(**options)
        self._record_name = f"__bughunt_{uuid.uuid4().hex}"
        self._context.add_init_script(init_script(self._record_name))
        # Uncaught errors as the page's own `String(error)` says them (`page_errors`): Chromium's report
        # names an object that is no native Error by its (minified) constructor alone.
        self._context.expose_binding(f"{self._record_name}_thrown", self._on_thrown)
        self._context.add_init_script(thrown_script(f"{self._record_name}_thrown"))
        self._sync_cookies_in()
        self._context.route("**/*", self._guard)
        # Every WebSocket meets `Channels.on_socket` (inside an https tunnel the gate cannot see one).
        self._context.route_web_socket("**/*", self._channels.on_socket)
        self._context.on("page", self._on_new_page)
        self._start_trace()
        self._new_tab()

    def _new_tab(self) -> None:
        self._page = self._context.new_page()
        self._open = set()
        self._page.on("console", self._on_console)
        self._page.on("response", self._on_response)
        self._page.on("requestfailed", self._on_request_failed)
        self._page.on("framenavigated", self._on_navigated)
        self._page.on("request", self._channels.unless_channel(self._on_request))
        self._page.on("requestfinished", self._channels.unless_channel(self._on_request_ended, ended=True))
        self._page.on("requestfailed", self._channels.unless_channel(self._on_request_ended, ended=True))

    def _watch(self) -> None:
        """Start counting the tab's requests afresh (a load or a click begins)."""
        self._in_flight.clear()
        self._answered.clear()
        self._followed.clear()
        self._traffic = self._unfollowed_traffic = 0
        self._scripted = self._followed_seen = False
        self._last_traffic = time.monotonic()
        self._channels.reset()

    def _on_request(self, request: Any) -> None:
        self._in_flight.add(request)
        if request.resource_type != "eventsource":
            self._open.add(request)
        self._traffic += 1
        self._last_traffic = time.monotonic()
        if request.resource_type in _FOLLOWED:
            self._followed.add(request)
            self._followed_seen = True
            return
        self._unfollowed_traffic += 1
        if request.resource_type in _SCRIPTED:
            self._scripted = True

    def _on_request_ended(self, request: Any) -> None:
        self._in_flight.discard(request)
        self._open.discard(request)
        self._answered.discard(request)
        self._traffic += 1
        self._last_traffic = time.monotonic()
        if request not in self._followed:
            self._unfollowed_traffic += 1

    def _on_navigated(self, frame: Any) -> None:
        if frame.parent_frame is None:
            self._navigations += 1

    def _on_new_page(self, page: Any) -> None:
        if self._page is not None and page is not self._page:
            page.close()  # a popup (`target=_blank`, a script): the explorer has one tab

    def _replace_tab(self) -> None:
        """After a page was abandoned: a fresh tab in the same context (the login is kept), or, when even
        that does not work within `TAB_S`, a fresh browser."""
        old, self._page = self._page, None
        # Closing a page that is still running (one that navigates without end) can wait on it for
        # good; a crashed one closes at once.
        kill_renderers(self._marker)
        try:
            started = time.monotonic()
            with deadline_guard(self._marker, started, "the tab did not close", slack=TAB_S):
                if old is not None:
                    old.close()
                self._await_renderers_gone(take_killed(self._marker), started + TAB_S / 2)
                self._new_tab()
        except Exception as exc:  # noqa: BLE001 — the context itself is stuck or gone: start over
            logger.info("replacing the tab failed ({}); restarting the browser", type(exc).__name__)
            self._notice("the browser was restarted after a hostile page; a login made in it may be lost")
            self._loaded.clear()
            self.close()
            self.start()

    def _await_renderers_gone(self, pids: set[int], until: float) -> None:
        """Wait (until `until`) for the browser to stop listing the renderers we killed: a tab opened
        sooner can be handed the killed spare renderer and hang until the step's timeout."""
        if not pids or self._browser is None:
            return
        cdp = self._browser.new_browser_cdp_session()
        listed: set[int] = set()
        try:
            while time.monotonic() < until:
                info = cdp.send("SystemInfo.getProcessInfo")
                listed = {process.get("id") for process in info.get("processInfo", [])}
                if not pids & listed:
                    return
                time.sleep(0.02)
            logger.debug("the browser still lists killed renderers {}; opening the tab anyway", pids & listed)
        finally:
            cdp.detach()

    def close(self) -> None:
        self._save_trace()
        for thing, how in ((self._context, "close"), (self._browser, "close"), (self._pw, "stop")):
            if thing is not None:
                try:
                    getattr(thing, how)()
                except Exception as exc:  # noqa: BLE001 — closing must not hide the real outcome
                    logger.debug("closing the browser: {!r}", exc)
        if self._gate is not None:
            self._gate.close()
        DRIVERS.pop(self._marker, None)
        self._pw = self._browser = self._context = self._page = self._gate = None

    # -- what the page does ------------------------------------------------------------------------
    def _guard(self, route: Any) -> None:
        """The per-request first look (the gate is the containment): it fails refused requests fast,
        as the page's own failure rather than a gate page, and applies the gate's rules inside an
        https tunnel, where the gate sees no requests."""
        request = route.request
        url = request.url
        where = f"{urlsplit(url).scheme}://{urlsplit(url).netloc}".lower()
        if self._channels.guard(route):
            return
        if request.method not in READS and not (
            self._writing or self._acting or read_call(request) or read_request(request, self.origin)
        ):
            # Exploring never writes (a JSON-RPC call that reads is no write: `rpc_calls`); what the page
            # then logs about the refused request is our doing, not the page's fault (`_record` drops it).
            self._blocked_write = True
            self._refused.append(f"{request.method} {urlsplit(url).path}"[:300])
            route.abort("blockedbyclient")
        elif url.startswith(("data:", "blob:", "about:")):
            route.continue_()
        elif where != self.origin and (where not in self._allowed or request.is_navigation_request()):
            route.abort("blockedbyclient")
        elif not where.startswith("https:") or self._gate is None:
            route.continue_()  # plain HTTP: the gate judges it on the wire
        elif self._gate.judge(request.method, url, request.headers, (request.post_data_buffer or b"")):
            route.abort("blockedbyclient")
        elif where == self.origin and self.headers:
            route.continue_(headers=with_user_headers(request.headers, self.headers))
        else:
            route.continue_()

    def _record(self, kind: Any, text: str, url: str = "", status: int | None = None) -> None:
        self._recorded(kind, text, url, status)

    def _recorded(self, kind: Any, text: str, url: str = "", status: int | None = None) -> ClientError | None:
        if self._blocked_write and kind not in ("failed_request", "channel_error"):
            return None  # the page's reaction to a write we refused (a rejected fetch, an error toast)
        if len(self._errors) >= MAX_CLIENT_ERRORS:
            return None
        error = ClientError(kind, text[:500], url[:500], status)
        self._errors.append(error)
        return error

    def _on_thrown(self, source: Any, text: Any) -> None:
        self._record("js_error", str(text))

    def _on_console(self, message: Any) -> None:
        if message.type != "error":
            return
        text = message.text
        # Resource failures are judged by the response handler (XHR/fetch) or are our own blocking.
        if text.startswith("Failed to load resource"):
            return
        # A `javascript:` link the page's own policy refuses to run is a bookmarklet (a link to drag to
        # the bookmarks bar, run on other sites): clicking it on the page is our use, not the page's
        # script failing. An inline script the policy blocks says otherwise and stays (issue 25).
        if text.startswith(_REFUSED_JAVASCRIPT_URL):
            return
        self._record("console_error", text, (message.location or {}).get("url", ""))

    def _on_response(self, response: Any) -> None:
        request = response.request
        if request.resource_type in _SCRIPTED:
            # its answer came: a body the page never reads is never reported finished
            self._open.discard(request)
        if request in self._in_flight and request.resource_type in _SCRIPTED:
            self._answered.add(request)
            self._last_traffic = time.monotonic()
        if GATE_HEADER in response.headers:
            # Our refusal, not the site's answer: neither it nor what the page logs about it is the
            # page's fault.
            self._blocked_write = True
            return
        if (taken := self._retried.answered(request, response.status)) is not None:
            # The script sent the request again and it went through: a token handshake, not a failure.
            self._errors = [e for e in self._errors if e is not taken]
        if (failed := failed_answer(response)) is not None and (error := self._recorded(*failed)) is not None:
            self._retried.failed(request, error)

    def _on_request_failed(self, request: Any) -> None:
        failure = request.failure or ""
        # Our own blocking, and a request cut off because we navigated away (it belonged to the
        # previous page, whose events may still arrive), are not the page's failures.
        ours = "ERR_BLOCKED_BY_CLIENT" in failure or "ERR_ABORTED" in failure
        if request.resource_type in ("xhr", "fetch") and not ours:
            self._record("failed_request", f"{request.method} failed: {failure}", request.url, None)

    def _drain_events(self) -> None:
        """Deliver what the previous page already said before this page's record starts.

        The sync client dispatches browser events only while a call is in flight; a console error the
        last page logged just before it was left would otherwise arrive during the next `goto`, after
        the reset, and count as the new page's. One round trip delivers every event sent before it.
        A page that does not answer it is blocked: its tab is replaced (nothing of it is pending)."""
        from playwright.sync_api import Error as PlaywrightError

        try:
            with deadline_guard(self._marker, time.monotonic(), "blocked", slack=PROBE_S):
                self._page.evaluate("0")
        except PlaywrightError:  # no document yet, or it is going away: nothing of it is pending
            pass
        except HostilePage:
            self._replace_tab()

    # -- loading ---------------------------------------------------------------------------------
    def _fetch(self, route: str, referer: str | None = None) -> FetchResult:
        """`HttpEngine._fetch`, with a page that had to be abandoned (it blocked its renderer, or kept
        navigating) recorded as refused: no retry, not a failure of the site's network. The page loaded
        is kept for the oracles (`reuse_page`) until the next click: a load sends no write (the route
        handler and the gate refuse them), a click may change what the browser holds (its storage, a
        cookie a script sets) and so what a page shows."""
        try:
            result = super()._fetch(route, referer)
        except HostilePage as exc:
            return self._abandoned(route, exc)
        if result.page is not None:
            self._loaded.add(result.route, result.page)
        return result

    def fetch_page(self, url: str, referer: str | None = None) -> FetchedPage:
        """`HttpEngine.fetch_page`, refusing an address whose fragment is a script's view (`#History?sub=
        event_history&id=3`, Backbone's `#inbox/3`, a pixl-webapp or Sammy page name): a load of its
        document shows the app's start view, not that one, and an oracle would compare what the link
        promised with another page. A fragment the loaded document names (an anchor) is the same page."""
        return self._same_view(url, super().fetch_page(url, referer))

    def reuse_page(self, url: str, version: str | None) -> FetchedPage | None:
        """`HttpEngine.reuse_page`, refusing a script's view address as `fetch_page` does: the page kept
        under its route is the document's start view."""
        page = super().reuse_page(url, version)
        return None if page is None else self._same_view(url, page)

    def _same_view(self, url: str, page: FetchedPage) -> FetchedPage:
        fragment = unquote(urlsplit(url).fragment)
        if (
            fragment
            and not self._acting
            and "#" not in page.route
            and fragment not in anchor_names(page.document)
        ):
            raise OSError(f"{url[:200]}: a script's view address; a load shows another view")
        return page

    def open_action(self, url: str, referer: str | None = None) -> FetchedPage:
        """`Engine.open_action`: the load of `url` with its page's writes admitted (by the routing and
        the gate), to the end of its settled read; a write after it (or on any other load) is refused.
        `_loaded` forgets every page: what they showed may be gone now."""
        self._acting = True
        try:
            return self.fetch_page(url, referer)
        finally:
            self._acting = False
            if self._gate is not None:
                self._gate.arm_action(False)
            self._loaded.clear()

    def admit_writes(self, on: bool) -> None:
        """`Engine.admit_writes`: the routing and the gate let the writes of the next loads and clicks
        through while on (as for `open_action`); off, they refuse them again and `_loaded` forgets
        every page, which the write may have changed."""
        self._acting = on
        if not on:
            if self._gate is not None:
                self._gate.arm_action(False)
            self._loaded.clear()

    def _abandoned(self, route: str, exc: HostilePage) -> FetchResult:
        self._replace_tab()
        logger.info("abandoned {} ({})", route, exc)
        return FetchResult("blocked", route, self.url_of(route), detail=f"hostile page: {exc}")

    def _load(self, url: str, referer: str | None = None) -> FetchedPage:
        from playwright.sync_api import Error as PlaywrightError

        self.start()
        empty_typed_box(self)
        assert self._gate is not None
        self._drain_events()
        self._errors = []
        self._retried.clear()
        self._blocked_write = False
        self._refused = []
        self._gate.take_refusals()
        self._gate.arm_load(url)  # the harness's own choice, even when its path reads destructive
        self._gate.arm_action(self._acting)
        started = time.perf_counter()
        deadline = time.monotonic() + self.timeout
        answered: list[Any] = []
        page_then = self._page

        def documents(r: Any) -> None:
            if main_document(r.request, page_then.main_frame):
                answered.append(r)

        try:
            if urlsplit(url).fragment:
                # A hash route is a page of its own: a router that only watches the hash would keep
                # showing the previous one, so every such load starts from a blank document.
                with deadline_guard(self._marker, deadline, "the page blocked its renderer"):
                    self._page.goto("about:blank", timeout=self.timeout * 1000)
                self._errors = []
                self._blocked_write = False
            self._navigations = 0
            self._watch()
            self._page.on("response", documents)
            response = self._page.goto(
                url, wait_until="load", timeout=self.timeout * 1000,
                referer=referer if referer is not None and self.route_of(referer) is not None else None,
            )  # fmt: skip
        except PlaywrightError as exc:
            if "Timeout" in type(exc).__name__ or "timeout" in str(exc).lower().split("\n")[0]:
                self._check_alive("the page blocked its renderer before load")
                raise TimeoutError(f"the page took longer than {self.timeout:g}s to load") from None
            if bodiless_failure(str(exc)) and answered and answered[-1].status >= 400:
                # the site's empty error answer, which Chromium would not show (`error_answers`)
                last = answered[-1]
                return bodiless_page(
                    last,
                    self.route_of(last.url) or bounded_route(last.url),
                    (time.perf_counter() - started) * 1000,
                )
            raise FetchError(type(exc).__name__) from exc
        finally:
            self._page.remove_listener("response", documents)
            self._gate.arm_load(None)
        with deadline_guard(self._marker, deadline, "the page blocked its renderer after load"):
            self._settle(deadline)
            page = self._snapshot(response, started, deadline)
            fetched = len(self._followed)
            if scroll_to_end(self._page, self._record_name) or len(self._followed) > fetched:
                # the scroll to its end drew more (lazy items) or fetched (a list's next batch): read
                # again once the page has settled
                page = self._snapshot(response, started, deadline)
            if not veiled(page):
                return page
            # Every control of the page hidden, none shown: an app still starting behind its splash
            # ("Loading, please wait…" over a layout drawn hidden: Dojo/Dijit shells, ExtJS' load
            # mask, an Angular root's placeholder). Read once it stopped drawing, within the deadline.
            drawn = None
            while time.monotonic() < deadline - VEIL_MARGIN_S:
                drawn, drawing = still_drawing(self, drawn)
                if not drawing:
                    break
                self._page.wait_for_timeout(DRAW_POLL_S * 1000)
            return self._snapshot(response, started, deadline)

    def _check_alive(self, why: str) -> None:
        """A load that timed out: a slow server, or a page whose script never yields (HostilePage)."""
        with deadline_guard(self._marker, time.monotonic(), why, slack=PROBE_S):
            self._page.evaluate("0")

    def _settle(self, deadline: float) -> None:
        """After `load`: a page with a request in flight that its record does not follow, or whose
        scripts made one (an `EventSource`), is read once no request has been in flight for `QUIET_S`
        (capped by `SETTLE_S` and the deadline); any other page at once — `load` already waited for its
        document, scripts, styles and images, the page's `fetch` and XHR requests are waited for by the
        watched read on the page's own record (`_watched_read`; when the record cannot vouch for them,
        `_snapshot` waits for quiet and reads again), a request a script starts after that is caught by
        the read itself (`_snapshot`), and a timer due soon by the watched read. This replaces
        `networkidle` (0.5 s of quiet, up to `SETTLE_S`). A script's request whose answer came is not
        waited for here (`answered`): the watched read waits while the page is still reading its body
        or running what it fetched."""
        if (self._in_flight - self._followed) or self._scripted:
            self._quiet(deadline, since=self._last_traffic, answered=True)
        self._channels.quiet(self._page, deadline, SETTLE_S, QUIET_POLL_MS)

    def _quiet(self, deadline: float, since: float | None = None, *, answered: bool = False) -> None:
        """Wait until no request is in flight and none started or ended for `QUIET_S` since `since`
        (default now: after a click, whose own fetch may start a moment later), capped by `SETTLE_S` and
        the deadline. `networkidle` cannot say this after a click: the page reached it before the click,
        so it would return at once, and a click's fetch answered later (a pager's API) would be missed
        or taken for an idle control. With `answered`, a script's request whose answer has arrived
        counts as ended (`_answered`; a body nobody reads is never reported finished, and waiting for it
        held such a page the whole `SETTLE_S`): the caller's watched read covers the rest."""
        now = time.monotonic()
        stop = min(deadline, now + SETTLE_S)
        quiet_from = now if since is None else since
        while now < stop:
            # Waiting lets the client deliver the request events; with none in flight, the rest of the
            # quiet window is waited in one call (each call is a round trip to the driver).
            wait = QUIET_POLL_MS / 1000
            if not (self._in_flight - self._answered if answered else self._in_flight):
                wait = QUIET_S - (now - max(quiet_from, self._last_traffic))
                if wait <= 0:
                    return
            self._page.wait_for_timeout(min(wait, stop - now) * 1000)
            now = time.monotonic()

    def _read(self, horizon: float | None) -> tuple[str, Record]:
        """The rendered HTML (as `page.content()` gives it, live form values copied into attributes),
        cut at `MAX_BODY_BYTES` characters when the DOM is huge, and the page's record (`_pending`).
        One round trip (`page_scripts.READ`)."""
        got = self._page.evaluate(
            READ, [MAX_DOM_NODES, MAX_BODY_BYTES, self._record_name, horizon, WATCH_S * 1000]
        )
        html, pending = (got, None) if not isinstance(got, list) or len(got) != 2 else got
        return (html if isinstance(html, str) else ""), checked_record(pending)

    def _pending(self, horizon: float | None, ahead: float = WATCH_S) -> Record:
        """The page's timer record: its clock and the soonest of its entries due by `horizon` (on that
        clock; None: within `ahead` seconds). What the page answers is checked, never trusted."""
        return checked_record(self._page.evaluate(PENDING, [self._record_name, horizon, ahead * 1000]))

    def _watched_read(self, deadline: float, watch: bool) -> tuple[str, int, Record]:
        """The page's HTML; when `watch`, read once what it had due within `WATCH_S` of the first read
        has run (each timer fires, then its renderer must answer the next look at the record: one that a
        timer blocks is caught by the step's deadline on this step). Bounded by `SETTLE_S` from the
        first read and the deadline, whatever the page says; a page without the record (a document the
        init script did not reach, or one that broke it) is watched the whole `WATCH_S`, as every page
        once was. Also returns the request events seen (`_traffic`) when the HTML given was read began,
        and what the record said in that read."""
        traffic = self._traffic
        html, record = self._read(None)
        if not watch:
            return html, traffic, record
        first = time.monotonic()
        now, soonest = record.now, record.soonest
        stop = min(deadline, first + (SETTLE_S if now is not None else WATCH_S))
        horizon = now + WATCH_S * 1000 if now is not None else None
        waited = False
        while now is None or soonest is not None:
            left = stop - time.monotonic()
            if left <= 0:
                break
            due = (soonest - now) / 1000 if now is not None and soonest is not None else left
            # a timer late past its due time (a busy renderer) gets polled for until `stop`
            self._page.wait_for_timeout(min(left, max(due, 0.0) + QUIET_POLL_MS / 1000) * 1000)
            waited = True
            record = self._pending(horizon)
            now, soonest = record.now, record.soonest
            if now is None:
                break  # the record is gone: the whole window has been watched, or the page broke it
        if not waited:
            return html, traffic, record
        traffic = self._traffic
        html, record = self._read(horizon)
        return html, traffic, record

    def _snapshot(self, response: Any, started: float, deadline: float, *, watch: bool = True) -> FetchedPage:
        from playwright.sync_api import Error as PlaywrightError

        if response is not None and response.status >= 400 and self._page.url.startswith(CHROME_ERROR_PAGE):
            # a click that navigated to an empty error answer (`error_answers`): the site's page
            return bodiless_page(
                response,
                self.route_of(response.url) or bounded_route(response.url),
                (time.perf_counter() - started) * 1000,
                tuple(self._errors),
            )
        headers = {k.lower(): v for k, v in (response.headers.items() if response is not None else ())}
        content_type = headers.get("content-type", "text/html" if response is None else "")
        body = ""
        settled = False
        readable = is_html(content_type)
        for attempt in range(READ_ATTEMPTS):
            try:
                unfollowed = self._unfollowed_traffic
                navigations = self._navigations
                body, traffic, record = self._watched_read(deadline, watch) if readable else ("", 0, Record())
                worker = watch and made_worker(record)
                if (
                    readable
                    and not settled
                    and (
                        (self._traffic != traffic and not record.no_requests)
                        or self._unfollowed_traffic != unfollowed
                        or (watch and self._followed_seen and not record.vouches)
                        or worker
                    )
                ):
                    # A request started or ended while the page was read (a script fetching after
                    # `load`), one the record does not follow came or went while it was watched, or
                    # the page's scripts fetched (or made a worker) and its record cannot vouch that
                    # they are done: the page was not settled; read it again once it is. The late
                    # events of requests the record saw end before the read (they can reach us after
                    # it) are no such change.
                    settled = True
                    self._quiet(deadline, since=None if worker else self._last_traffic, answered=watch)
                    body = self._watched_read(deadline, watch)[0] if readable else ""
                if self._navigations > MAX_NAVIGATIONS:
                    raise HostilePage("the page kept navigating")
                replaced = (
                    self._replaced(navigations, deadline) if readable and replaced_at_once(body) else "stayed"
                )
                if replaced == "late":
                    raise HostilePage("the page was still navigating at the deadline")
                if replaced == "replaced":
                    # Read between two loads (a refresh with no delay): the page was leaving. Its
                    # replacement is read instead, and one that keeps replacing itself is abandoned
                    # whatever the timing of the reads.
                    if attempt == READ_ATTEMPTS - 1:
                        raise HostilePage("the page kept navigating")
                    continue
                break
            except PlaywrightError:
                # The page navigated while read (a script, a meta refresh): read it once it has loaded,
                # a few times; a page that keeps navigating is abandoned.
                left = deadline - time.monotonic()
                if attempt == READ_ATTEMPTS - 1 or left <= 0:
                    raise HostilePage("the page kept navigating") from None
                try:
                    self._page.wait_for_load_state("load", timeout=left * 1000)
                except PlaywrightError:
                    pass
        redirects: list[str] = []
        request = response.request.redirected_from if response is not None else None
        while request is not None:
            redirects.insert(0, request.url)
            request = request.redirected_from
        final = self._page.url
        return FetchedPage(
            served_fragment=self._served_fragment(response, content_type, body),
            url=final,
            route=self.route_of(final) or bounded_route(final),
            status=response.status if response is not None else 200,
            headers=headers,
            content_type=content_type,
            body=body,
            elapsed_ms=round((time.perf_counter() - started) * 1000, 2),
            redirects=tuple(redirects),
            client_errors=tuple(self._errors),
        )

    def _replaced(self, navigations: int, deadline: float) -> Literal["stayed", "replaced", "late"]:
        """Whether the page navigated past the count `navigations` (taken before its read), then
        loaded ("replaced"): a refresh must start within `REFRESH_S`, and one whose request is out is
        waited for up to the deadline ("late" when the deadline comes first, the page maybe leaving).
        A refresh the gate refused, or one a script cancelled, leaves the page read as it is
        ("stayed")."""
        from playwright.sync_api import Error as PlaywrightError

        stop = time.monotonic() + REFRESH_S
        while self._navigations == navigations:
            now = time.monotonic()
            if now >= deadline:
                # Neither the refresh's start nor its answer could be waited for: the page may be
                # leaving (a loaded machine, a slow server), so it is not read as the site's.
                return "late"
            # `REFRESH_S` bounds the refresh's start; once its request is out, a late answer is
            # waited for up to the deadline.
            if now >= stop and not self._document_pending():
                return "stayed"
            self._page.wait_for_timeout(QUIET_POLL_MS)
        try:
            self._page.wait_for_load_state("load", timeout=max(deadline - time.monotonic(), 0.001) * 1000)
        except PlaywrightError:
            pass  # still loading at the deadline, or navigating again: the next read tells
        return "replaced"

    def _document_pending(self) -> bool:
        """Whether a navigation of the tab's own (`main_document`) has not ended."""
        main = self._page.main_frame
        return any(main_document(request, main) for request in list(self._in_flight))

    @staticmethod
    def _served_fragment(response: Any, content_type: str, body: str) -> bool:
        """Whether the server sent a piece of a page (an htmx partial opened as a document): read from
        the response, not the document, where a script may have added a title. A document that loads
        a script of its own is a page (`partial_document`), so its body is not asked for: the driver
        hands over the whole body, a round trip and the page's size."""
        from playwright.sync_api import Error as PlaywrightError

        if response is None or not is_html(content_type) or _SCRIPT_SRC.search(body):
            return False
        try:
            raw = response.body()[:FRAGMENT_SNIFF_BYTES]
        except PlaywrightError:
            return False  # a redirect's or an evicted body: read as a page, as before
        return fragment_text(raw.decode("utf-8", errors="replace"))

    def classify(self, route: str, page: FetchedPage) -> FetchResult:
        """`HttpEngine.classify`, except that a navigation the gate refused, or one that left the origin
        (Chromium's own error page included), is a refused action of the page it was made from: never a
        page, and nothing of it is kept."""
        if page.header(GATE_HEADER) or self.route_of(page.url) is None:
            return FetchResult(
                "blocked", route, self.url_of(route), detail="gate refused: the navigation left the origin"
            )
        return super().classify(route, page)

    # -- evidence files --------------------------------------------------------------------------
    def _start_trace(self) -> None:
        if self.trace is not None:
            self._context.tracing.start(screenshots=True, snapshots=True, sources=False)

    def _save_trace(self) -> None:
        """Write the trace (once, when the browser closes); a failure to write it is said, not raised."""
        if self.trace is None or self._context is None:
            return
        try:
            self._context.tracing.stop(path=str(self.trace))
        except Exception as exc:  # noqa: BLE001 — closing must not hide the real outcome
            logger.warning("the trace could not be written to {}: {}", self.trace, type(exc).__name__)

    def capture(self, url: str, png: Path, html: Path, *, max_bytes: int = 2_000_000) -> bool:
        """A PNG screenshot of the viewport and the DOM as rendered, of `url` as it is now (loaded
        again when the oracles' requests moved the tab), each at most `max_bytes`. Bounded by the
        engine's timeout; False when the page could not be captured (nothing is written then)."""
        from playwright.sync_api import Error as PlaywrightError

        if self._page is None:
            return False
        deadline = time.monotonic() + self.timeout
        try:
            # a page may block its renderer at any time: no call here is left without a deadline
            with deadline_guard(self._marker, deadline, "the page blocked its renderer while captured"):
                dom = None
                if self._page.url.split("#")[0] != url.split("#")[0]:
                    self._watch()
                    self._page.goto(url, wait_until="load", timeout=self.timeout * 1000)
                    self._settle(deadline)
                    dom, _, record = self._watched_read(deadline, watch=True)
                    if (self._followed_seen and not record.vouches) or made_worker(record):
                        since = None if made_worker(record) else self._last_traffic
                        self._quiet(deadline, since=since, answered=True)
                        dom = self._watched_read(deadline, watch=True)[0]
                shot = self._page.screenshot(type="png", full_page=False, timeout=self.timeout * 1000)
                if dom is None:
                    dom = self._read(None)[0]
        except PlaywrightError as exc:
            logger.info("no screenshot of {}: {}", url, type(exc).__name__)
            return False
        except HostilePage as exc:
            self._replace_tab()
            logger.info("no screenshot of {}: {}", url, exc)
            return False
        if len(shot) > max_bytes:
            return False
        png.parent.mkdir(parents=True, exist_ok=True)
        png.write_bytes(shot)
        html.write_bytes(dom.encode("utf-8", "replace")[:max_bytes])
        return True

    # -- actions ---------------------------------------------------------------------------------
    def actions(self, page: FetchedPage) -> list[Action]:
        """Links, HTMX and GET forms as for the HTTP engine, plus clicks on elements that act without an
        href (their target is the page they are on; `perform` clicks them there)."""
        walked = page_clicks(page)  # the actions with their selectors, and the clickable elements
        self._read_pages.saw(self.route_of(page.url), page)
        found = list(walked.actions)
        if partial_document(page):
            # A partial opened as a document (an htmx endpoint's rows): its handlers call functions of
            # the page it is swapped into, so its clicks do nothing here — and a lesson learned from
            # one (`idle_controls`) would hold for the same control on the real page.
            return found
        # A link to the page itself (`href="#"`) goes nowhere as a link; its click handler may act
        # (a script's pager, a menu): it is a click. One that leads nowhere is learned as such
        # (`idle_controls`) and not clicked again in that shape.
        here = self.route_of(page.url)
        known = {a.selector for a in found if a.kind != "link" or self.route_of(a.target) != here}
        clicks = offered_clicks(page, walked, known)
        # The way to the list's next page comes after the page's menus and every row's buttons (a
        # pager under its table): the cap must not cut it, or the list's other pages are never seen.
        # So must a list's "Load more" (`more_controls`): its script's button may be a submit button.
        more = more_controls(page)
        for node in [*pager_ways_on(page), *more]:
            selector = walked.selectors.of(node)
            if selector not in known and (clickable(node) or any(node is m for m in more)):
                known.add(selector)
                clicks.append(Action("click", page.url, control_label(node), selector))
        # A list's filter box with no button: typed into, a value its list shows (`filter_typing`).
        for node, value in filter_boxes(page):
            clicks.append(Action("click", page.url, value, walked.selectors.of(node) + FILL_MARK + value))
        return found + clicks

    def perform(self, action: Action) -> FetchResult:
        """A link, HTMX or form action is a page load of its target; a click is done on its page
        (`clicking.perform_click`)."""
        if action.kind != "click" or not action.selector:
            return super().perform(action)
        return perform_click(self, action)

    # -- logging in ------------------------------------------------------------------------------
    def _form_login(self, creds: Credentials) -> None:
        """Log in the way a person does, in the page: scripts may build the form or keep the session in
        local storage, which a form POST from the HTTP client would miss."""
        from playwright.sync_api import Error as PlaywrightError

        assert creds.login_url is not None and creds.username is not None and creds.password is not None
        where = self.route_of(creds.login_url) or "/"
        self.start()
        assert self._gate is not None
        self._gate.secret = creds.password  # what only the submit may carry, from the first byte typed
        try:
            shown = self._load(creds.login_url)
            form_read = login_form(shown)
            shape = login_shape(shown, form_read) if form_read is not None else None
            password = self._page.locator("input[type=password]:visible").first
            landed = self.route_of(self._page.url)
            if landed is not None and landed != where and not password.count():
                raise StillLoggedIn(f"--login-url {where}: no form there, it sent the visitor on to {landed}")
            password.wait_for(timeout=self.timeout * 1000)
            form = password.locator("xpath=ancestor::form[1]")
            scope = form if form.count() else self._page
            texts = scope.locator(
                "input:visible:not([type]), input[type=text]:visible, input[type=email]:visible"
            )
            hinted = scope.locator(
                "input[name*=user i]:visible, input[name*=email i]:visible, input[name*=login i]:visible,"
                " input[type=email]:visible, input[placeholder*=user i]:visible, input[placeholder*=email i]:visible"
            )
            user = hinted.first if hinted.count() else texts.first
            if texts.count():
                user.fill(creds.username)
            password.fill(creds.password)
            # From here, one write may pass: the login form's own submit (an SPA posts it to its API),
            # the one that carries the password; the gate refuses any other, or its re-post elsewhere.
            # A form that names its action is submitted there and nowhere else (a script's request
            # on typing is not it); a script-driven form (no action, or a `javascript:` one) posts
            # wherever its script does (`login_submit.form_address`).
            target = form_address(form)
            self._writing = True
            self._gate.arm_write(True, target)
            submit_login(self._page, password, form, self._gate)
            # The answer may take a while (a password hash, an API call): wait for the form to go.
            try:
                self._page.locator("input[type=password]:visible").first.wait_for(
                    state="hidden", timeout=self.timeout * 1000
                )
            except PlaywrightError:
                pass
            # what the answer set off (an app's token fetch, its router's next page) ends first
            self._quiet(time.monotonic() + self.timeout, since=self._last_traffic)
            still = self._page.locator("input[type=password]:visible").count()
            elsewhere = self.route_of(self._page.url) is None
        except (PlaywrightError, TimeoutError, OSError, HostilePage) as exc:
            # Playwright's first line says what it waited for ("Timeout 10000ms exceeded"); the rest is
            # its call log, which may quote the page.
            said = next(iter(str(exc).strip().splitlines()), "").replace(creds.password, "***")[:160]
            stopped = [Refusal(*w.partition(" ")[::2], WRITE_REFUSED) for w in self._refused]
            stopped += self._channels.refusals()
            refused = refusal_summary(stopped + self._gate.take_refusals())
            raise LoginFailed(
                f"--login-url {where}: the login form could not be used ({type(exc).__name__}"
                + (f": {said}" if said else "")
                + "); a slow site may need a longer --timeout"
                + (
                    f"; the page's requests the explorer refused meanwhile: {refused} — {REFUSED_HINT}"
                    if refused
                    else ""
                )
            ) from None
        finally:
            self._writing = False
            self._gate.arm_write(False)
        if elsewhere:
            raise LoginFailed(
                f"--login-url {where}: the login answer led to another origin; not followed, nothing sent there"
            )
        if still:
            raise LoginFailed(
                f"--login-url {where}: the login was refused (the login form came back); "
                "check --username and the password variable"
            )
        confirm_logged_in(self)
        self._login_shape = shape or self._login_shape

    # -- cookies ---------------------------------------------------------------------------------
    def _sync_cookies_in(self) -> None:
        """Cookies of the HTTP jar (`--cookie`, a form login) go into the browser's context."""
        cookies = [
            {"name": c.name, "value": c.value or "", "url": self.origin + "/"} for c in self.cookies.jar
        ]
        if cookies:
            self._context.add_cookies(cookies)

    def login_secrets(self) -> list[str]:
        """The HTTP side's, and the browser's own cookies (a login made in the page sets them there)."""
        own = [c.get("value", "") for c in self._context.cookies()] if self._context is not None else []
        return super().login_secrets() + site_cookie_secrets(
            own, self.credentials.username if self.credentials else None
        )

    def refresh_cookies(self) -> None:
        """After a login through the HTTP client, give the browser the new session cookie."""
        if self._context is not None:
            self._sync_cookies_in()


VEIL_MARGIN_S = 1.0
"""What a page still starting behind its splash leaves of the load's deadline for its read."""
VEILED_HIDDEN = 10
"""Hidden controls a page read with no control shown must hold (and five times its links: a splash may
carry one or two) to be taken as still starting."""


def veiled(page: FetchedPage) -> bool:
    """Was `page` read with every control hidden (at least `VEILED_HIDDEN` of them) and none shown: a
    layout drawn hidden until the app has started. A page whose controls are all behind a closed
    menu still shows the menu's button."""
    if not page.is_html or HIDDEN_MARK not in page.body:
        return False
    walked = page_clicks(page)
    if walked.clickables:
        return False
    hidden = sum(1 for n in page.document.iter() if HIDDEN_MARK in n.attrs and acts(n))
    return hidden >= max(VEILED_HIDDEN, 5 * len(walked.actions))
