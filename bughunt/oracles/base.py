"""What an oracle returns (a `Finding` with its evidence and fingerprint), how it is configured
(`OracleConfig`), and the one door through which oracles fetch related pages (`OracleFetch`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableMapping
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple, Protocol, get_args

from bughunt.fingerprint import fingerprint as make_fingerprint
from bughunt.fingerprint import route_shape
from bughunt.page import FetchedPage
from bughunt.record_repr import field_repr
from bughunt.site import BugKind
from bughunt.urls import same_origin
from memgpt_lite.log import logger

Fetch = Callable[[str], FetchedPage]
"""Fetch one same-origin URL (absolute). Oracles use it to look at a related page."""

KINDS: tuple[str, ...] = (*get_args(BugKind), "client_error", "unsafe_get")
"""The site definition's six bug kinds, plus "client_error" (uncaught JS errors, console errors,
failed XHR/fetch calls) that only the browser engine's oracle reports, and "unsafe_get" (a GET that
visibly changed server state: `bughunt.oracles.unsafe_get`)."""


@dataclass(repr=False, frozen=True)
class Finding:
    """One bug observation.

    `message` is a harness template: no page text, no volatile values (those go in `evidence`, whose
    strings the explorer quarantines). `shape` is the route's template (`bughunt.fingerprint.
    route_shape`); the fingerprint is (shape, kind, message), so one root cause seen on two routes of
    one template is one bug with two occurrences (`route`). `suspected` marks a finding inferred
    without doing the risky thing (a destructive link not opened), never counted as confirmed."""

    __repr__ = field_repr

    kind: str
    route: str
    message: str
    evidence: dict[str, Any] = field(default_factory=dict)
    fingerprint: str = ""
    shape: str = ""
    suspected: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown finding kind {self.kind!r}; expected one of {', '.join(KINDS)}")
        if not self.shape:
            object.__setattr__(self, "shape", route_shape(self.route))
        if not self.fingerprint:
            object.__setattr__(self, "fingerprint", make_fingerprint(self.shape, self.kind, self.message))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Finding:
        return cls(
            kind=data["kind"],
            route=data["route"],
            message=data["message"],
            evidence=dict(data.get("evidence") or {}),
            fingerprint=data.get("fingerprint", ""),
            shape=data.get("shape", ""),
            suspected=bool(data.get("suspected", False)),
        )


class OpenedAction(NamedTuple):
    """A destructive action the oracles opened (`allow_destructive`), as its template's verdict."""

    url: str
    acted: bool | None
    """True: confirmed by its effect; False: opened, no visible effect; None: it asked first (a
    confirmation page), failed or needed a login — no unconfirmed action."""
    effect: str
    tries: int = 1
    """Records of the template opened so far: one with no visible effect may be one the site keeps
    (a wiki's home page, a root article), so the next record's page tries again (`settled`)."""
    kind: str = "unconfirmed_destructive"
    """The report its effect makes: a deletion, or a state change on a GET (`unsafe_get`)."""

    @property
    def settled(self) -> bool:
        """Whether the template's verdict stands for its other instances: an effect or a confirmation
        step settles it at once, no visible effect only after `NO_EFFECT_TRIES` records."""
        return self.acted is not False or self.tries >= NO_EFFECT_TRIES


NO_EFFECT_TRIES = 3
"""Records of one destructive template opened before "no visible effect" is its verdict."""


@dataclass(repr=False, frozen=True, eq=False)
class OracleConfig:
    """How far the oracles may go on one page (one explorer step).

    `allow_destructive` (`--allow-destructive`, for disposable environments only) lets the
    destructive-action oracle open a GET link or form that reads as destructive and confirm the
    damage; without it such actions are reported as suspected and never requested.
    `known_routes` (optional) returns routes the explorer knows: the form oracle looks there for the
    resource an edit page edits when the page has no link back to it. `linked_from` (optional) returns
    the remembered pages that link to a route: for a form whose URL carries no identifier
    (`/settings`), the page that shows the stored values is among those that lead to it; `loaded`
    (optional) says whether memory has loaded a route (a page not loaded yet may link to the form too)."""

    __repr__ = field_repr

    allow_destructive: bool = False
    max_requests: int = 8
    """Related pages the oracles may fetch while inspecting one page (300 forms make 3, not 300)."""
    max_forms: int = 3
    """Edit forms compared with their resource per page."""
    max_destructive: int = 2
    """Destructive actions opened per page (only with `allow_destructive`)."""
    opened_destructive: MutableMapping[int, OpenedAction] | None = None
    """The destructive actions the session opened, by control template (`destructive.opening_key`):
    each template is opened once, and its other instances take its verdict unopened, so that a list's
    Delete link on every row and page deletes one record, not two a page (the walk keeps the data it
    explores). The one thing an oracle writes: a record of what it did to the site, owned by the
    session (`Explorer`), never stored. None: no record, every page may open `max_destructive`."""
    known_routes: Callable[[], Iterable[str]] | None = None
    linked_from: Callable[[str], Iterable[str]] | None = None
    links_of: Callable[[str], Iterable[str]] | None = None
    """Memory's links of a remembered page (optional): which of the pages linking to a deleted
    thing is its owner, linking to few of its kind (`owner_pages`)."""
    loaded: Callable[[str], bool] | None = None
    defer_opening: bool = False
    """The session opens destructive controls after its walk (`--allow-destructive`, walking): a
    control whose only question is a script's is listed then, to be opened and judged on its effect
    (`destructive._asks_in_script`); otherwise it is never listed."""


DEFAULT_CONFIG = OracleConfig()


class Oracle(Protocol):
    """The one interface of an oracle (Crawljax's `OnNewStatePlugin`): a hook the explorer calls on
    every new state it loads — a page, or what a click left — with the one door to related pages of
    the site (`fetch`, None when there is none) and the settings of the run. It returns its findings
    and writes nothing: the harness decides what becomes memory."""

    def __call__(self, page: FetchedPage, fetch: Fetch | None, config: OracleConfig, /) -> list[Finding]: ...


class OracleBudgetExceeded(OSError):
    """The page's oracle request budget is spent (an OSError: oracles treat it as "could not fetch")."""


def fetch_or_none(fetch: Fetch, url: str, oracle: str) -> FetchedPage | None:
    """`fetch(url)`, or None when it cannot be had (an `OSError`: another origin, the page's request
    budget spent, the site down): the oracle skips what it would have compared."""
    try:
        return fetch(url)
    except OSError as err:
        logger.debug("{} oracle could not fetch {}: {}", oracle, url, err)
        return None


class OracleFetch:
    """The oracles' fetch for one page: same origin only, each URL once, at most `limit` requests.

    A cross-origin URL raises `PermissionError` and an exhausted budget `OracleBudgetExceeded`
    (both `OSError`s, which oracles treat as "could not fetch" and skip). `again(url)` fetches a
    page anew (after an action changed it), within the same budget."""

    def __init__(self, page: FetchedPage, fetch: Fetch, limit: int = DEFAULT_CONFIG.max_requests) -> None:
        self._page = page
        self._fetch = fetch
        self.limit = limit
        self.requests = 0
        self.failures = 0
        """Same-origin requests that got no page (the budget spent, the site unreachable): a check that
        needed one did not judge, so what it did not find this time says nothing (`inspect_page`)."""
        self._cache: dict[str, FetchedPage] = {page.url: page}

    def __call__(self, url: str) -> FetchedPage:
        if url in self._cache:
            return self._cache[url]
        return self._request(url, self._fetch)

    def again(self, url: str) -> FetchedPage:
        # a fetch that may answer from pages the session loaded offers `fresh`: "anew" is a request
        return self._request(url, getattr(self._fetch, "fresh", self._fetch))

    def _request(self, url: str, fetch: Fetch) -> FetchedPage:
        if not same_origin(url, self._page.url):
            raise PermissionError(f"oracles may only fetch the page's own origin, not {url}")
        if self.requests >= self.limit:
            self.failures += 1
            raise OracleBudgetExceeded(
                f"oracle request budget ({self.limit} per page) spent; {url} not fetched"
            )
        self.requests += 1
        try:
            self._cache[url] = fetch(url)
        except PermissionError:
            raise  # a page the explorer never opens (policy, not chance): refused on every visit alike
        except OSError:
            self.failures += 1
            raise
        return self._cache[url]


def page_shape(page: FetchedPage) -> str:
    """The page's route shape, with the page's own links as siblings (a tag page's tag cloud makes
    its tag a `<slug>`)."""
    from bughunt.actions import extract_links
    from bughunt.urls import route_of

    return route_shape(page.route, [route_of(u) for u in extract_links(page)])


def fetch_again(fetch: Fetch, url: str) -> FetchedPage:
    """A fresh copy of `url` (an `OracleFetch` skips its cache; a plain function is just called)."""
    again = getattr(fetch, "again", None)
    return again(url) if callable(again) else fetch(url)


def evidence(page: FetchedPage, needle: str = "", **extra: Any) -> dict[str, Any]:
    """The standard evidence: the request, the status, and an excerpt of the body around `needle`.

    Page-derived values must be strings (the explorer quarantines every string that is not one of
    its own facts); lists of page text are joined with newlines by `quoted`."""
    return {
        "request": f"{page.method} {page.url}",
        "url": page.url,
        "status": page.status,
        "content_type": page.content_type,
        "elapsed_ms": page.elapsed_ms,
        "excerpt": page.excerpt(needle),
        **extra,
    }


def quoted(texts: Iterable[str]) -> str:
    """Several pieces of page text as one string of evidence (one per line)."""
    return "\n".join(short(t) for t in texts)


def short(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
