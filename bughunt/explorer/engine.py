"""The engine a session drives: open a route, do an action, get back a typed result.

As Crawljax's `EmbeddedBrowser` stands between its crawler and WebDriver, `Engine` stands between the
session loop and how pages are loaded: `HttpEngine` (`http_engine.py`, httpx, no scripts) and
`BrowserEngine` (`browser.py`, Chromium). Both keep the explorer's promises the same way — same origin
only, robots.txt, a delay between requests, login walls recognised, failures returned as outcomes —
so the session never asks which engine it has. The login module works through this protocol too
(`request`, `probe`), never through an engine's internals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal, Protocol

from bughunt.actions import Action
from bughunt.oracles.base import Finding
from bughunt.page import FetchedPage
from bughunt.record_repr import field_repr

Outcome = Literal["page", "non_html", "login_wall", "http_error", "timeout", "network_error", "blocked"]


MAX_RELOGINS = 3
"""Re-logins a session allows after a lost login. A walk loses it again only by doing what lost it
again (each step that did is kept from the walk: `Whereabouts.lost_login`), or when the site ends
sessions on its own (an idle timeout, a rotated token): a few re-logins cover the first, and a site
that keeps ending them ends the walk rather than spend it logging in."""


class LoginLost(RuntimeError):
    """The login wall came back after the re-logins a session allows (`MAX_RELOGINS`), or a re-login
    failed. The session ends with stop reason "login_lost"; the message holds routes and codes only."""


@dataclass(repr=False, frozen=True, slots=True, eq=False)
class FetchResult:
    """What one fetch produced. `page` is the response when one came back (also for walls and errors,
    as evidence); only outcome "page" is explored and inspected."""

    __repr__ = field_repr

    outcome: Outcome
    route: str
    url: str
    page: FetchedPage | None = None
    final_route: str | None = None
    status: int | None = None
    detail: str = ""


@dataclass(repr=False, slots=True, eq=False)
class FetchStats:
    """What an engine has asked of the site so far (every request: steps, probes, oracle fetches)."""

    __repr__ = field_repr

    requests: int = 0
    refused: int = 0
    """Fetches not made: off the origin, disallowed by robots.txt, or robots.txt unreadable."""
    waited_s: float = 0.0
    """Time spent keeping the delay between requests."""


class Engine(Protocol):
    """Loads the pages of one origin for a session, and does what can be done on them."""

    @property
    def name(self) -> str:
        """`http` or `browser` (the store remembers which one explored it)."""
        ...

    @property
    def base_url(self) -> str:
        """The URL the session was given; its origin is the only one explored."""
        ...

    @property
    def origin(self) -> str:
        """`scheme://host:port` of `base_url`, lower-case."""
        ...

    @property
    def stats(self) -> FetchStats: ...

    @property
    def notices(self) -> list[str]:
        """Warnings for the person running the session (harness wording only), each said once."""
        ...

    @property
    def relogins(self) -> int:
        """How many times this session logged in again after its login was lost (a step that sees
        the count grow came after the step that lost it)."""
        ...

    @property
    def can_click(self) -> bool:
        """True when `perform` clicks elements in a rendered page (the browser); False when every action
        is a load of its target (an `onclick`/`data-href` click action included)."""
        ...

    # -- addresses -------------------------------------------------------------------------------
    def route_of(self, url: str) -> str | None:
        """The canonical route of `url` if it is on this origin and short enough to name, else None."""
        ...

    def url_of(self, route: str) -> str: ...

    def start_route(self) -> str: ...

    def followable(self, route: str) -> bool:
        """May the explorer click this route (not destructive-looking, allowed by robots.txt)."""
        ...

    # -- loading ---------------------------------------------------------------------------------
    def fetch(self, route: str, referer: str | None = None) -> FetchResult:
        """One step's load of `route`; never raises for what the site or the network does (only
        `LoginLost`). It starts the oracles' allowance of `fetch_page` afresh. `referer`: the address
        of the page whose link the step follows, sent as a browser's click sends it (same origin
        only; `referrer.referer`); None for a load typed in (a start page, a probe)."""
        ...

    def probe(self, route: str) -> FetchResult:
        """Load `route` without it being a step (no login recovery, no oracle allowance)."""
        ...

    def fetch_page(self, url: str, referer: str | None = None) -> FetchedPage:
        """The oracles' extra fetch: a page of this origin, within a bounded number per step;
        `OSError` when there is none to be had. `referer` as `fetch` takes it: a link of the page
        the oracles judge, opened, is a click on that page."""
        ...

    def open_action(self, url: str, referer: str | None = None) -> FetchedPage:
        """`fetch_page` of a destructive action the harness chose to open (`--allow-destructive`): an
        engine that holds back what a page writes (the browser) lets this page's writes through, as
        they are the action (a single-page app's delete route deletes through its API once mounted)."""
        ...

    def admit_writes(self, on: bool) -> None:
        """Send (`on`) or refuse again the writes the next loads and clicks make their page send: the
        harness's replay of a state write it chose to send (`--allow-destructive`, `state_writes`).
        Off, pages loaded before are no longer reused: the write may have changed them."""
        ...

    def reuse_page(self, url: str, version: str | None) -> FetchedPage | None:
        """The oracles' cheaper door: the page of `url` this session already loaded, when nothing since
        can have changed it (no write, no login, `version` the app version of its load), else None
        (then `fetch_page`). No request, and none of the oracles' allowance spent."""
        ...

    def request(
        self,
        url: str,
        *,
        method: str = "GET",
        data: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        multipart: bool = False,
    ) -> FetchedPage:
        """One HTTP exchange with the session's cookies and headers (and `headers` for this one),
        outside the step accounting (no delay, not counted, not classified): the login form's own
        requests, `data` encoded as the form's `enctype` says (`multipart`: `multipart/form-data`).
        Raises `OSError` or `TimeoutError` when no response comes back."""
        ...

    def take_login_findings(self) -> list[Finding]:
        """What logging in found (the login form's refused submission, `login.refused_login`), once:
        the session's first page step records it."""
        ...

    # -- acting ----------------------------------------------------------------------------------
    def actions(self, page: FetchedPage) -> list[Action]:
        """What can be done on `page`, in document order."""
        ...

    def perform(self, action: Action) -> FetchResult:
        """Do `action`: a load of its target, or (`can_click`) a click on the page it is on, whose
        result is the state the click leaves."""
        ...

    # -- session ---------------------------------------------------------------------------------
    def log_in(self) -> None:
        """Apply the login options (cookies, headers, a form login); `LoginFailed` when refused."""
        ...

    def close(self) -> None:
        """Release what the engine holds (the browser's Chromium)."""
        ...
