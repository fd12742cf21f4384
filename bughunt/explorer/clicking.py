"""Clicking in the browser engine: a click action performed on its page (after the clicks that reached
the state it was made on), the control found and clicked, and what the page does after it waited for
— its requests, its timers — before the state it left is read (`BrowserEngine.perform` hands every
click here). A list's filter box typed into (`filter_typing`) is a click too, emptied again before the
page is used next."""

from __future__ import annotations

import contextlib
import re
import time
from collections import OrderedDict
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from bughunt.actions import Action, page_clicks
from bughunt.explorer.filter_typing import split_fill
from bughunt.focus_controls import control_label
from bughunt.page import FetchedPage
from memgpt_lite.log import logger

from . import script_storage
from .click_target import COVERING_CLOSE, FIND, Wanted, wanted
from .engine import FetchResult
from .facts import way_on_selectors
from .idle_controls import CHAIN_BROKEN, CLICK_FAILED
from .script_cookies import cookie_jar, put_back
from .watchdog import HostilePage, deadline_guard

if TYPE_CHECKING:
    from bughunt.page import ClientError

    from .watchdog import HostilePage as _Hostile


class BrowserEngine(Protocol):
    """What clicking asks of the browser engine (`browser.BrowserEngine`; named here, not imported,
    as the engine imports this module)."""

    timeout: float
    _page: Any
    _loaded: Any
    _read_pages: ReadPages
    _errors: list[ClientError]
    _open: set[Any]
    _retried: Any
    _context: Any
    _record_name: str
    _blocked_write: bool
    _refused: list[str]
    _channels: Any
    _navigations: int
    _marker: str
    _typed_box: str | None
    _traffic: int
    _last_traffic: float
    _unfollowed_traffic: int

    @property
    def settle_s(self) -> float: ...
    @property
    def poll_ms(self) -> int: ...
    def route_of(self, url: str) -> str | None: ...
    def url_of(self, route: str) -> str: ...
    def fetch(self, route: str, referer: str | None = None) -> FetchResult: ...
    def classify(self, route: str, page: FetchedPage) -> FetchResult: ...
    def _watch(self) -> None: ...
    def _settle(self, deadline: float) -> None: ...
    def _quiet(self, deadline: float, since: float | None = None, *, answered: bool = False) -> None: ...
    def _snapshot(
        self, response: Any, started: float, deadline: float, *, watch: bool = True
    ) -> FetchedPage: ...
    def _abandoned(self, route: str, exc: _Hostile) -> FetchResult: ...
    def _pending(self, horizon: float | None, ahead: float = ...) -> Any: ...


LATE_S = 0.5
"""How long after a click that made no request the page is watched for one a script's timer starts
(htmx's `hx-trigger="click delay:100ms from:…"`: a pager that reloads its table a moment later) before
the click is read as one that changed the page in place, or not at all. Under load the timer fires
late; read too early, a pager's click looks idle and is learned so (`idle_controls`)."""

ACT_S = 2.0
"""How long Playwright may wait for a control to be clicked (visible, stable, enabled, not covered)
before it is found again and tried again (`ATTEMPTS`), within the click's 5 s."""
ATTEMPTS = 3
HIDDEN = "hidden or disabled"


MAX_READ_STATES = 64
"""States whose first read is kept to describe their controls at click time (`ReadPages`)."""
State = tuple[str, tuple[str, ...]]
"""A state: the route it starts from and the selectors clicked there to reach it (none for a load)."""


class ReadPages:
    """The page each state was first read as, when its click actions were made (`BrowserEngine.actions`):
    what describes a control the walk chose there (`click_target.wanted`) at click time, however the
    state draws when reached again (a page whose every render orders its controls anew). Bounded;
    a state no longer kept is described by the page it is reached as."""

    def __init__(self) -> None:
        self._first: OrderedDict[State, FetchedPage] = OrderedDict()
        self._made: tuple[FetchedPage, State] | None = None

    def made(self, page: FetchedPage, state: State) -> None:
        """`page` is the state a click chain just reached."""
        self._made = (page, state)

    def saw(self, route: str | None, page: FetchedPage) -> None:
        """Click actions are being made on `page` (loaded as `route`, unless a click reached it)."""
        state = self._made[1] if self._made is not None and self._made[0] is page else None
        if state is None:
            if route is None or page.clicked_from is not None:
                return
            state = (route, ())
        if state not in self._first:
            self._first[state] = page
            if len(self._first) > MAX_READ_STATES:
                self._first.popitem(last=False)

    def read_as(self, state: State) -> FetchedPage | None:
        return self._first.get(state)


def label_of(page: FetchedPage, selector: str) -> str:
    """The label of the control at `selector` on `page`: a click state is replayed from the link
    table by its selector alone, and the oracles read what the click was ("20" rows, "Next")."""
    walked = page_clicks(page)
    found = next((n for n in walked.clickables if walked.selectors.of(n) == selector), None)
    return control_label(found) if found is not None else ""


PUT_BACK_S = 2.0
"""How long putting back a click step's script cookies may take (one evaluate, a few cookie calls)."""


def perform_click(engine: BrowserEngine, action: Action) -> FetchResult:
    """A click is done on its page (after the clicks of `action.after`, which reached the state it was
    made on), and what it leaves (a new URL, or new content at the same one) is the resulting state."""
    route = engine.route_of(action.target)
    if route is None:
        return FetchResult("blocked", action.target[:200], "", detail="not a route of this site")
    before = engine.fetch(route)
    if before.outcome != "page" or before.page is None:
        return before
    engine._loaded.clear()  # what the click changes in the browser may change what any page shows
    jar = cookie_jar(engine._context)
    kept = script_storage.stored(engine._page)
    result = _clicks_of(engine, route, before.page, action)
    if result.outcome == "blocked":
        logger.debug("click {} on {}: {}", action.selector[:120], action.target[:120], result.detail[:200])
    if result.outcome == "page":
        # A view's preference a click's script kept in a cookie or in local storage is no state of
        # the site (`script_cookies`, `script_storage`). Only after a step that was read: a page whose
        # listener never returned answers no evaluate, and the read is bounded all the same.
        try:
            with deadline_guard(
                engine._marker, time.monotonic() + PUT_BACK_S, "the page blocked its renderer"
            ):
                put_back(engine._context, engine._page, engine._record_name, jar)
                script_storage.put_back(engine._page, kept)
        except HostilePage:
            pass  # its renderer was killed: the next step loads afresh
    return result


def _clicks_of(engine: BrowserEngine, route: str, page: FetchedPage, action: Action) -> FetchResult:
    reads = engine._read_pages
    for at, selector in enumerate(action.after):
        done = click(engine, route, selector, page, "", reads.read_as((route, action.after[:at])))
        if isinstance(done, FetchResult) or done.clicked_from is None:
            logger.debug(
                "chain to {} broken at click {} of {} ({}): {}", action.target[:120], at + 1,
                len(action.after), selector[:120],
                done.detail if isinstance(done, FetchResult) else f"a document loaded: {done.url[:120]}",
            )  # fmt: skip
            # The state this click was made on is not there any more (the list got shorter, a
            # click of the way there navigated): not this control's failure, so nothing is
            # learned of it (`idle_controls` reads only a `CLICK_FAILED` detail).
            return FetchResult("blocked", route, engine.url_of(route), detail=CHAIN_BROKEN)
        page = done
    done = click(engine, route, action.selector, page, action.label, reads.read_as((route, action.after)))
    if isinstance(done, FetchResult):
        return done
    if done.clicked_from is not None:
        reads.made(done, (route, (*action.after, action.selector)))
    return engine.classify(route, done)


def click(
    engine: BrowserEngine,
    route: str,
    selector: str,
    before: FetchedPage,
    label: str,
    chosen_on: FetchedPage | None = None,
) -> FetchedPage | FetchResult:
    """Click `selector` on the page as it stands (`before`, loaded as `route`): the page the click
    leaves, which keeps `before` (`clicked_from`) when no document was loaded — or the click's
    failure. The control is the one `selector` named on `chosen_on` (the state's first read), else
    on `before`, found again by what it is (`click_target`)."""
    from playwright.sync_api import Error as PlaywrightError

    empty_typed_box(engine)
    started = time.perf_counter()
    deadline = time.monotonic() + engine.timeout
    engine._errors = []
    engine._retried.clear()
    engine._blocked_write = False
    engine._refused = []
    response: list[Any] = []

    def navigation(r: Any) -> None:
        if r.request.is_navigation_request() and r.request.frame == engine._page.main_frame:
            response.append(r)

    page_then = engine._page
    engine._navigations = 0
    engine._watch()
    page_then.on("response", navigation)
    try:
        with deadline_guard(engine._marker, deadline, "the page blocked its renderer after a click"):
            try:
                css, typed = split_fill(selector)  # a filter box's value (`filter_typing`)
                if typed is None:
                    failed = _click_control(engine, css, _described(chosen_on, before, css))
                    if failed:
                        return FetchResult(
                            "blocked", route, engine.url_of(route), detail=f"{CLICK_FAILED} ({failed})"
                        )
                else:
                    control = engine._page.locator(css).first
                    if not (control.is_visible() and control.is_enabled()):
                        return FetchResult(
                            "blocked", route, engine.url_of(route), detail=f"{CLICK_FAILED} ({HIDDEN})"
                        )
                    control.fill(typed, timeout=min(engine.timeout, 5.0) * 1000)
                clicked_at = time.monotonic()
                if response:
                    engine._settle(deadline)
                else:
                    after_click(engine, deadline, clicked_at)
            except PlaywrightError as exc:
                # No response came back: not an HTTP error of the page, a control that could not be
                # clicked (`idle_controls`: its shape is not tried again).
                return FetchResult(
                    "blocked", route, engine.url_of(route), detail=f"{CLICK_FAILED} ({why(exc)})"
                )
            finally:
                page_then.remove_listener("response", navigation)
            # A click that loaded a document is watched as a load is; one that changed the page in
            # place is read at once, as it always was.
            page = engine._snapshot(
                response[0] if response else None, started, deadline, watch=bool(response)
            )
            if typed is not None:
                # An app may keep a list's filter for the session: the box is emptied before the
                # page is used again (not now: the evidence's screenshot shows the filtered list).
                engine._typed_box = css
    except HostilePage as exc:
        return engine._abandoned(route, exc)
    if not response:
        # a new state of the same document (its URL may have changed by `pushState`, as a
        # single-page app's pager does): the oracles may compare it with the page it was made from
        label = label or label_of(before, selector)
        if not label and selector in way_on_selectors(before):
            # An icon without words that the pager reads as its way on: the oracles read what
            # the click was from its label (`lists.clicked_previous_page`), on any page of the list.
            label = "›"
        # No document came, so the answer is still the one `before` was loaded with: a click that
        # opens a traceback's details on a 500 page leaves a page of that 500, not a page that
        # answered 200 and shows the site's error page (one failure reported twice, issue 25).
        page = replace(
            page, status=before.status, clicked_from=(before, label), refused_writes=tuple(engine._refused)
        )
    return page


def _described(chosen_on: FetchedPage | None, before: FetchedPage, css: str) -> Wanted | None:
    """The control `css` names on the page it was chosen on, else on the page as it stands."""
    return (wanted(chosen_on, css) if chosen_on is not None else None) or wanted(before, css)


def _click_control(engine: BrowserEngine, css: str, want: Wanted | None) -> str:
    """Click the chosen control: found again at click time by what it is (`click_target`) when the
    page it was chosen on describes it, else by its path alone. Playwright's actionability wait
    (visible, stable, enabled, not covered) is bounded by `ACT_S`; a control that fails it (a redraw
    detached it, an animation moved it) is found again and tried once more. A control not there yet
    (not found, or hidden) is looked for again while the page is still drawing (`still_drawing`):
    the load before a chain's first click may have been read before the app drew its views. Returns
    why it could not be clicked, or "" once it was."""
    from playwright.sync_api import Error as PlaywrightError

    stop = time.monotonic() + min(engine.timeout, 5.0)
    failed = ""
    tries = 0
    drawn: Drawn = None
    while tries < ATTEMPTS:
        left = stop - time.monotonic()
        if left <= 0:
            break
        control, missing = _found(engine, css, want)
        if control is None or not (control.is_visible() and control.is_enabled()):
            # Not there (the path names nothing or another control, and nothing else is it — never a
            # guess), hidden (a collapsed alert's close button, an item of a closed menu) or disabled
            # (a pager's "Previous" on page 1): clicking would wait its whole timeout for a control
            # nobody can click. While the page is still drawing, it may be drawn yet.
            drawn, drawing = still_drawing(engine, drawn)
            if drawing:
                engine._page.wait_for_timeout(min(left, DRAW_POLL_S) * 1000)
                continue
            return failed or missing or HIDDEN
        tries += 1
        try:
            control.click(timeout=min(left, ACT_S) * 1000)
            return ""
        except PlaywrightError as exc:
            failed = why(exc)
            # Tried again only when the wait ended before any click was sent: a click sent whose
            # navigation was slow must not be sent twice.
            if _CLICK_SENT in str(exc) or ("Timeout" not in type(exc).__name__ and "detached" not in failed):
                raise
            if _COVERED in failed:
                # A layer fixed over the page (a sync alert, a toast, a cookie bar) lies over it where it
                # stands: a person puts the notification away, or scrolls the control from under it.
                bounded = {} if want is not None else {"timeout": min(left, ACT_S) * 1000}  # a Locator waits
                with contextlib.suppress(PlaywrightError):
                    closer = control.evaluate_handle(COVERING_CLOSE, **bounded).as_element()
                    if closer is not None:
                        closer.click(timeout=min(left, ACT_S) * 1000)
                        failed += " (put away)"
                        continue
                    control.evaluate(_TO_THE_MIDDLE, **bounded)
    return failed or "TimeoutError"


def _found(engine: BrowserEngine, css: str, want: Wanted | None) -> tuple[Any, str]:
    """The control, or None and why it is not found (`FIND`'s answer)."""
    if want is None:
        return engine._page.locator(css).first, ""
    found = engine._page.evaluate_handle(FIND, [css, want.as_arg()])
    control = found.as_element()
    if control is not None:
        return control, ""
    how = found.json_value()
    found.dispose()
    return None, f"not found: {how}"


DRAW_POLL_S = 0.25
"""How often a control not there yet is looked for again while the page draws."""
DRAWN_S = 1.0
"""How long a page must stay the same, with no request in flight, to be taken as drawn: a renderer
evaluating a large module between two of its loader's requests changes nothing for a while."""
Drawn = tuple[tuple[int, int], float] | None
"""What the page held at the last look (its element count and text length) and since when."""
_EXTENT = (
    "() => [document.getElementsByTagName('*').length,"
    " document.body === null ? 0 : document.body.textContent.length]"
)


def still_drawing(engine: BrowserEngine, drawn: Drawn) -> tuple[Drawn, bool]:
    """Whether the page is still drawing: it changed within `DRAWN_S` of the last look, or a request of
    the tab is in flight (one the load before the chain left running counts: `_in_flight` starts
    afresh with the click). The look after is compared with this one."""
    from playwright.sync_api import Error as PlaywrightError

    now = time.monotonic()
    try:
        got = engine._page.evaluate(_EXTENT)
        extent = (int(got[0]), int(got[1]))
    except (PlaywrightError, TypeError, ValueError, IndexError):
        return drawn, False  # the document went away under the look: nothing to wait for here
    if drawn is None or drawn[0] != extent:
        return (extent, now), True
    return drawn, bool(engine._open) or now - drawn[1] < DRAWN_S


_COVERED = "covered by"
_TO_THE_MIDDLE = "(el) => el.scrollIntoView({block: 'center', inline: 'center'})"
_CLICK_SENT = "performing click action"
"""Playwright's call log line once the actionability wait is over and the click is being sent."""
_REASONS = (
    (re.compile(r"<([a-zA-Z][\w-]*)[^\n]*intercepts pointer events"), _COVERED + " {}"),
    (re.compile(r"element is not stable"), "not stable"),
    (re.compile(r"(?i)not attached to the dom|element was detached"), "detached"),
    (re.compile(r"element is outside of the viewport"), "outside the viewport"),
    (re.compile(r"element is not visible"), "not visible"),
    (re.compile(r"element is not enabled"), "disabled"),
)


def why(exc: Exception) -> str:
    """Playwright's error as a short reason: its type and, from its call log, the last thing the
    actionability wait saw (`covered by div`, `not stable`, `detached`). Only a tag name of the page
    is kept (never its text)."""
    said = str(exc)
    found: tuple[int, str] = (-1, "")
    for pattern, words in _REASONS:
        for match in pattern.finditer(said):
            if match.start() > found[0]:
                found = (match.start(), words.format(*match.groups()))
    name = type(exc).__name__
    return f"{name}: {found[1]}" if found[1] else name


def empty_typed_box(engine: BrowserEngine) -> None:
    """Empty the filter box the last click typed into (`filter_typing`), and let the list redraw."""
    from playwright.sync_api import Error as PlaywrightError

    css, engine._typed_box = engine._typed_box, None
    if css is None or engine._page is None:
        return
    deadline = time.monotonic() + engine.timeout
    with contextlib.suppress(PlaywrightError, HostilePage):
        with deadline_guard(engine._marker, deadline, "the page blocked its renderer after a click"):
            engine._page.locator(css).first.fill("", timeout=min(engine.timeout, 5.0) * 1000)
            after_click(engine, deadline, time.monotonic())


def _late_request(engine: BrowserEngine, deadline: float, clicked_at: float) -> None:
    """After a click that made no request yet: watch for one until `LATE_S` after the click, and
    once one started, wait for quiet again."""
    stop = min(deadline, clicked_at + LATE_S)
    while not engine._traffic and (now := time.monotonic()) < stop:
        engine._page.wait_for_timeout(min(engine.poll_ms / 1000, stop - now) * 1000)
    if engine._traffic:
        engine._quiet(deadline, since=engine._last_traffic)


def after_click(engine: BrowserEngine, deadline: float, clicked_at: float) -> None:
    """After a click that loaded no document: wait on the page's record for what the click set off —
    its `fetch` and XHR requests until the page has run what they brought, and its timers due within
    `LATE_S` of the click (htmx's `click delay:100ms`, which starts the request late) until they
    ran — then for quiet when requests the record does not follow came and went (a stylesheet or
    a script the new content loads). Bounded by `SETTLE_S` after the click and the deadline. A
    click on a control that does nothing is read at once; waiting `LATE_S` for a request that
    never comes was most of such a click's time. When the record cannot vouch (absent, a worker
    made, or the page navigating away under it): `QUIET_S` of quiet, then a request watched for
    until `LATE_S` after the click, as before the record."""
    from playwright.sync_api import Error as PlaywrightError

    stop = min(deadline, clicked_at + engine.settle_s)
    ahead = max(0.0, clicked_at + LATE_S - time.monotonic())
    try:
        record = engine._pending(None, ahead)
        horizon = (record.now or 0.0) + ahead * 1000
        while record.vouches and record.now is not None and record.soonest is not None:
            left = stop - time.monotonic()
            if left <= 0:
                break
            due = max(record.soonest - record.now, 0.0) / 1000
            engine._page.wait_for_timeout(min(left, due + engine.poll_ms / 1000) * 1000)
            record = engine._pending(horizon)
        vouches = record.vouches
    except PlaywrightError:
        vouches = False  # the document went away under the look (a script's navigation)
    if not vouches:
        engine._quiet(deadline)
        _late_request(engine, deadline, clicked_at)
    elif engine._unfollowed_traffic:
        engine._quiet(deadline, since=engine._last_traffic)
    engine._channels.quiet(engine._page, deadline, engine.settle_s, engine.poll_ms)
