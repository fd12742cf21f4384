"""One exploration session: fetch → parse links → oracles → harness writes memory → policy chooses.

A session is one `explore` or `resume` run over a store directory. A fresh store starts by landing on
the start page (free, as in the simulator: the budget counts clicks); a resumed one starts where the
last session stood, from memory, and the first click already goes to pages not yet visited. Each
step is one SQLite transaction, so an interruption loses at most the step in flight. When the site
states a new app version, the retest planner takes over until every page due has been re-tested.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from loguru import logger

from bughunt import site as builtin_site
from bughunt.actions import Action as PageAction
from bughunt.actions import action_counts, item_places
from bughunt.oracles import Finding, OracleConfig, inspect_page
from bughunt.page import is_fragment
from bughunt.planning import TEMPLATE_SAMPLE, bfs_paths, leads_on
from bughunt.sim.memory import NoMemory
from bughunt.sim.rng import derive_seed, mulberry32
from memgpt_lite.errors import UsageError

from . import destructive_mode, retest
from .engine import Engine, FetchResult, LoginLost
from .harness import FAILURES, StepOutcome, check_version, is_failure, record_step, stated_version
from .policies import Action, Decision, Policy
from .store import ExplorerStore
from .templates import (
    Templates,
    below_item,
    safe_route,
    saturated_templates,
    structure_hash,
    template_function,
    variant,
)
from .views import MemoryConfig, View, build_view, remember, render_working_context

BUILTIN_ROUTES = frozenset(p.route for p in builtin_site.PAGES)
CLICK_MARK = "#click-"
"""Marks a click state's route (`<page route>#click-<digest>`): harness-made, never fetched as such."""
MAX_SELECTOR_CHARS = 300
MAX_SIBLINGS = 50
"""Routes kept per place of repeated markup: enough to tell a template, bounded on a huge list."""

STOP_REASONS: dict[str, str] = {
    "budget": "the click budget is spent",
    "done": "nothing left that memory knows",
    "site_unreachable": "the site stopped answering",
    "interrupted": "interrupted (Ctrl-C or SIGTERM)",
    "login_lost": "the login was lost and could not be restored",
}
"""Why a session ended (contract 4); "completed" is what stores written before these reasons hold."""


@dataclass(slots=True)
class SessionConfig:
    budget: int = 30
    seed: int = 1000
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    app_version_hint: str | None = None
    expire_after_s: float | None = None
    builtin: bool = False
    stop_at_bugs: int | None = None
    """Stop once this many bugs are open (ablations that measure steps to find all bugs)."""
    retries: int = 2
    """Extra attempts of a failed fetch within its step, after `retry_backoff_s`, doubled each time."""
    retry_backoff_s: float = 0.5
    max_consecutive_failures: int = 3
    """This many failed clicks in a row (each after its retries) end the session: site_unreachable."""
    force_retest: bool = False
    """`resume --retest`: every remembered page is due for re-test, as after a version change."""
    allow_destructive: bool = False
    """`--allow-destructive` (disposable environments): the oracles may open GET actions that read as
    destructive and confirm them by effect; this session only (`destructive_mode`)."""


@dataclass(slots=True)
class SessionResult:
    session: str
    session_id: int
    steps: int
    """Clicks of this session (the old name, kept)."""
    tokens: int
    status: str
    """The stop reason (one of `STOP_REASONS`)."""
    outcomes: list[StepOutcome]
    budget: int = 0
    fetches: int = 0
    detail: str = ""
    """Harness-written detail of the stop reason (routes and counts only)."""

    @property
    def clicks(self) -> int:
        return self.steps

    @property
    def stop_reason(self) -> str:
        return self.status

    @property
    def clicks_left(self) -> int:
        return max(0, self.budget - self.steps)


class Explorer:
    """Runs sessions of one policy over one store and one site (through one fetcher)."""

    def __init__(
        self,
        store: ExplorerStore,
        fetcher: Engine,
        policy: Policy,
        config: SessionConfig,
        on_step: Callable[[StepOutcome], None] | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if config.budget < 0:
            raise UsageError("--budget must be >= 0")
        if config.app_version_hint is not None and check_version(config.app_version_hint) is None:
            raise UsageError(
                f"--app-version: {config.app_version_hint!r} is not a version number (like 1.2, 2.0.1 or 1.3-rc1)"
            )
        self.store, self.fetcher, self.policy, self.config = store, fetcher, policy, config
        self.on_step = on_step
        self.clock = clock
        self.sleep = sleep
        self.memory_rnd = mulberry32(config.seed)
        self._last: StepOutcome | None = None
        self._view: View = NoMemory()  # built at the start of each run, after expiry
        self._last_text = ""
        self._failed: set[str] = set()
        """Routes whose fetch failed in this session (after retries): left for the next session."""
        self._actions: dict[str, tuple[str, str]] = {}
        """Route → (kind, label) of the current page's actions (labels are untrusted page text)."""
        self._site_text: list[str] = []
        """What the last response said besides its page text (headers, labels): for the note gate."""
        self._probes: set[str] = set()
        """Routes found only as GET forms submitted with generated values (this session)."""
        self._pending: str | None = None
        """A changed version one page stated, adopted when the next page states it too."""
        self._partials: set[str] = set()
        """Routes that answered a fragment (an HTMX partial) in this session."""
        self._popularity: Counter[str] = Counter()
        """Route → how many elements of the pages first seen in this session lead to it."""
        self._counted: set[str] = set()
        self._listed: set[str] = set()
        """Routes the current page links from the items of its lists (not from its navigation)."""
        self._previous: str | None = None
        """The page before the current position: where a Back leads from a dead end."""
        self._siblings: dict[tuple[str, str], list[str]] = {}
        """(page route, place of a link in the items of a list) → the routes linked from there."""
        self._version_changed = False

    def run(self) -> SessionResult:
        store, cfg = self.store, self.config
        session_id, name = store.history.start_session(self.policy.name, self.fetcher.base_url, cfg.budget)
        fetches_before = self._fetches()
        with store.transaction():
            store.meta.set("base_url", self.fetcher.base_url)
            if cfg.builtin:
                store.meta.set("builtin", "1")
            if cfg.allow_destructive:
                destructive_mode.remember_session(store, name)
            # Failed fetches were once stored as visits; they are not, so old stores retry them too.
            store.visits.forget(FAILURES)
            if cfg.expire_after_s is not None:
                forgotten = store.expire(self.clock() - cfg.expire_after_s)
                logger.info("expired memories unused for {}s: {}", cfg.expire_after_s, forgotten)
        outcomes: list[StepOutcome] = []
        status, detail = "interrupted", ""
        self._view = build_view(store, cfg.memory, self.memory_rnd)
        position: str | None = store.meta.get("position")
        try:
            try:
                status, detail, position = self._run(session_id, position, outcomes)
            except LoginLost as exc:
                # The engine logged in again once already (or could not): the step in flight is lost.
                status, detail = "login_lost", str(exc)
                position = store.meta.get("position") or position
        finally:
            clicks = sum(o.click for o in outcomes)
            fetches = self._fetches() - fetches_before
            store.history.end_session(session_id, status, clicks=clicks, fetches=fetches, detail=detail)
            self._hand_over(session_id, name, position, clicks, status)
            self._archive()
        return SessionResult(
            name, session_id, clicks, sum(o.tokens for o in outcomes), status, outcomes,
            budget=cfg.budget, fetches=fetches, detail=detail,
        )  # fmt: skip

    def _run(
        self, session_id: int, position: str | None, outcomes: list[StepOutcome]
    ) -> tuple[str, str, str | None]:
        """Land or probe, then click: returns (stop reason, detail, position)."""
        store = self.store
        if position is None or store.visits.page(position) is None:
            position = self._land(session_id, outcomes)
        else:
            self._probe_version(position)
        if position is None:
            last = outcomes[-1]
            return (
                "site_unreachable",
                f"the start page {self.fetcher.start_route()} gave {last.detail or last.outcome}",
                None,
            )
        if self.config.force_retest:
            with store.transaction():
                retest.force(store, position)
        status, detail = self._loop(session_id, position, outcomes)
        return status, detail, store.meta.get("position") or position

    def _land(self, session_id: int, outcomes: list[StepOutcome]) -> str | None:
        """Land on the start page (not a click). None when it could not be loaded, even after retries."""
        start = self.fetcher.start_route()
        out = self._step(session_id, start, start, retesting=False, tokens=0, click=False)
        outcomes.append(out)
        if is_failure(out.outcome, out.status):
            return None
        return self._position_after(out, start)

    def _loop(self, session_id: int, position: str, outcomes: list[StepOutcome]) -> tuple[str, str]:
        """Click until the budget is spent or a stop reason says why not; returns (reason, detail)."""
        store, cfg = self.store, self.config
        clicks = failures_in_a_row = 0
        while clicks < cfg.budget:
            if (
                cfg.stop_at_bugs is not None
                and sum(b.status == "open" for b in store.bug_table.live()) >= cfg.stop_at_bugs
            ):
                return "done", f"{cfg.stop_at_bugs} bugs open, as asked"
            target, tokens, retesting = self._choose(position, clicks)
            if target is None:
                left = len(self._failed)
                if left and failures_in_a_row:
                    # What is left failed to load, the last click too: the site, not memory, is the limit.
                    return "site_unreachable", f"{left} page(s) failed to load and nothing else is left"
                why = "nothing left that memory knows"
                if left:
                    why += f"; {left} page(s) failed to load and are retried on resume"
                return "done", why
            out = self._step(session_id, target, position, retesting=retesting, tokens=tokens)
            outcomes.append(out)
            clicks += 1
            if is_failure(out.outcome, out.status):
                failures_in_a_row += 1
                self._failed.add(target)
                if failures_in_a_row >= cfg.max_consecutive_failures:
                    return (
                        "site_unreachable",
                        f"{failures_in_a_row} clicks in a row failed (last: {target} {out.detail})",
                    )
                continue
            failures_in_a_row = 0
            position = self._position_after(out, position)
        return "budget", f"{clicks} of {cfg.budget} clicks spent"

    def _fetches(self) -> int:
        return self.fetcher.stats.requests

    # -- one step --------------------------------------------------------------------------------
    def _choose(self, position: str, clicks: int) -> tuple[str | None, int, bool]:
        store = self.store
        # A link to the page itself (`#`, the same URL) is never progress; a route that failed this
        # session is left for the next one.
        links = [
            r for r in store.link_table.of(position)
            if r != position and r not in self._failed and self.fetcher.followable(r)
        ]  # fmt: skip
        due = store.visits.needs_retest()
        if due:
            target = retest.next_retest(store, position, set(links))
            if target is None:
                # The remembered map from here does not lead to what is due: go round by the start page.
                target = self._travel(position, set(due) - self._failed)
            if target is not None:
                context = render_working_context(store, position, self.config.memory)
                tokens = self._count(context)
                return target, tokens, True
        if not links and position != self.fetcher.start_route():
            # A dead end (no links we may follow): go back, to the page before or to the start, as a
            # person would — the page before still offers the links beside the one that led here.
            back = self._previous if self._previous not in (None, position) else None
            links = list(dict.fromkeys(r for r in (back, self.fetcher.start_route()) if r is not None))
        n = store.history.step_count() + 1
        hashes = store.visits.structure_hashes()
        template_of = template_function(hashes, self._siblings.values())
        variants = self._variant_items(position, links, hashes, template_of)
        decision = Decision(
            position=position,
            links=links,
            view=self._view,
            rnd=mulberry32(derive_seed(self.config.seed, n)),
            working_context=render_working_context(store, position, self.config.memory),
            step=n,
            budget_left=self.config.budget - clicks,
            last=self._last,
            page_text=self._last_text,
            template_of=template_of,
            actions=[Action(r, *self._actions.get(r, ("link", ""))) for r in links],
            site_text=self._site_text,
            probes=frozenset(self._probes),
            samples=self._samples(template_of, self._known_routes()),
            popularity=self._popularity,
            saturated=saturated_templates(hashes, template_of) | self._broken_templates(template_of),
            listed=frozenset(self._listed),
            variants=variants,
        )
        choice = self.policy.choose(decision)
        if choice.route is None:
            # The policy sees nothing left (its view may be smaller than memory, or a page trapped
            # it): with pages known but unvisited, travel to them over the remembered link table.
            return self._travel(position, set(self.unvisited())), choice.tokens, False
        return choice.route, choice.tokens, False

    def _variant_items(
        self, position: str, links: list[str], hashes: Mapping[str, str | None], template_of: Templates
    ) -> frozenset[str]:
        """The links a page that breaks its template's structure (`templates.variant`) has of its own:
        to instances of page types already loaded, that none of its template's other loaded instances
        links to (your own articles on your profile, not the navigation) and that are not its own
        views or sub-pages. Until one of them is loaded."""
        if not variant(position, hashes, template_of):
            return frozenset()
        template = template_of(position)
        link_table = self.store.link_table
        shared = {q for r in hashes if r != position and template_of(r) == template for q in link_table.of(r)}
        loaded = {template_of(r) for r, digest in hashes.items() if digest}
        # (its views and sub-pages lead on from it and are ranked so anyway)
        own = [q for q in links if q not in shared and template_of(q) in loaded and not leads_on(position, q)]
        return frozenset() if any(q in hashes for q in own) else frozenset(own)

    def unvisited(self) -> list[str]:
        """Routes memory knows (linked from a remembered page) but has not visited, that may be clicked
        and did not fail this session."""
        visited = set(self.store.visits.visited())
        known = dict.fromkeys(d for ds in self.store.link_table.all().values() for d in ds)
        return [r for r in known if r not in visited and r not in self._failed and self.fetcher.followable(r)]

    def _travel(self, position: str, goals: set[str]) -> str | None:
        """First click toward the nearest of `goals`: along a shortest path over the remembered links
        from here, else by way of the start page, else (the map does not lead there) directly."""
        goals = goals - {position}
        if not goals:
            return None
        graph = {
            src: [d for d in dsts if d != src and self.fetcher.followable(d)]
            for src, dsts in self.store.link_table.all().items()
        }
        start = self.fetcher.start_route()
        for source in dict.fromkeys((position, start)):
            paths = bfs_paths(graph, source)
            reachable = [g for g in goals if g in paths]
            if reachable:
                best = min(reachable, key=lambda g: (len(paths[g]), g))
                return paths[best][1] if source == position else start
        return min(goals)

    def _samples(self, template_of: Templates, routes: Iterable[str]) -> dict[str, int]:
        # Items a page lists side by side are where the data varies most: one more instance of
        # those. A page under such an item (its tabs, its sub-pages) is one page of its own template
        # per item: the items' samples already vary the data, one item's view covers the view. A
        # fragment's template is a state of a page, seen once.
        listed = template_of.listed
        samples = {t: TEMPLATE_SAMPLE + 1 for t in listed}
        for t in {template_of(r) for r in routes} - listed:
            if any(below_item(t, item) for item in listed):
                samples[t] = 1
        samples.update((template_of(r), 1) for r in self._partials)
        return samples

    def _broken_templates(self, template_of: Templates) -> frozenset[str]:
        # A page type that answers a server error is broken as a type: another instance is most likely
        # the same root cause again (one bug, by its route shape), not a new finding.
        return frozenset(
            template_of(b.route)
            for b in self.store.bug_table.live()
            if b.kind == "server_error" and b.status == "open"
        )

    def _step(
        self, session_id: int, target: str, position: str, *, retesting: bool, tokens: int, click: bool = True
    ) -> StepOutcome:
        result = self._fetch(target)
        links: list[str] = []
        findings: list[Finding] = []
        version: str | None = self.store.meta.get("app_version")
        if result.outcome == "page" and result.page is not None:
            page = result.page
            version = self._observe_version(page, result.final_route or target, confirmed=False)
            links = self._links(page)
            findings = list(inspect_page(page, self._oracle_fetch(), self._oracle_config()))
        self._last_text = page_text(result.page) if result.outcome == "page" else ""
        self._site_text = site_texts(result.page, self._actions) if result.page is not None else []
        partial = result.outcome == "page" and result.page is not None and is_fragment(result.page)
        new_position = position if partial else self._position_after_result(result, position)
        failed = is_failure(result.outcome, result.status)
        digest = structure_hash(result.page) if result.outcome == "page" and result.page is not None else None
        out = record_step(
            self.store,
            session_id=session_id,
            result=result,
            links=links,
            findings=findings,
            version=version,
            tokens=tokens,
            retest=retesting,
            dedupe=self.config.memory.bug_list,
            now=self.clock(),
            position=new_position,
            structure_hash=digest,
            failed=failed,
        )
        out.click = click
        out.partial = partial
        if partial:
            self._partials.add(out.route)
        if out.previous_hash is not None:
            with self.store.transaction():
                due = retest.structure_changed(self.store, out.route, out.previous_hash)
            logger.info(
                "{}: DOM structure changed since its last visit; {} pages due for retest", out.route, due
            )
        self._last = out
        # A failed route is written into this session's view as a dead end, so no policy walks back to
        # it now; the view is rebuilt from the store next session, where failures are not visits.
        remember(self._view, result.route, out.route, result.outcome, out.links)
        with self.store.transaction():
            retest.advance_walk(self.store, target)
        if self.on_step is not None:
            self.on_step(out)
        return out

    def _fetch(self, target: str) -> FetchResult:
        """Fetch `target`, retrying a failed fetch with exponential backoff (bounded: `retries` extra
        attempts). A failure that persists is returned as such: the caller does not count it a visit."""
        result = self._load(target)
        for attempt in range(self.config.retries):
            if not is_failure(result.outcome, result.status):
                break
            wait = self.config.retry_backoff_s * 2**attempt
            logger.info("{} failed ({}); retrying in {:.2g}s", target, result.outcome, wait)
            self.sleep(wait)
            result = self._load(target)
        return result

    def _load(self, target: str) -> FetchResult:
        """A route is fetched; a click state's route is the click, done on its page by the engine. A
        click that leaves the URL as it was is a state of its own (route + structure: it is stored
        under the click's route); one that navigates leads to the new URL, like a redirect."""
        click = self.store.link_table.click_of(target) if CLICK_MARK in target else None
        if click is None:
            return self.fetcher.fetch(target)
        page_route, selector = click
        result = self.fetcher.perform(PageAction("click", self.fetcher.url_of(page_route), "", selector))
        if result.outcome == "page" and (result.final_route or result.route) == page_route:
            return replace(result, route=target, final_route=target)
        return replace(result, route=target)

    def _hand_over(self, session_id: int, name: str, position: str | None, clicks: int, status: str) -> None:
        """The hand-over note for the next session, built only from harness facts — its own stop reason
        and counts, canonical routes, the checked version — never page text, so it can be trusted like
        the rest of the harness's state."""
        store = self.store
        todo = self.unvisited()
        due = store.visits.needs_retest()
        open_bugs = list(dict.fromkeys(b.route for b in store.bug_table.live() if b.status == "open"))

        def routes(rs: list[str], limit: int = 12) -> str:
            shown = [r for r in (safe_route(x) for x in rs[:limit]) if r]
            return ", ".join(shown) + (", ..." if len(rs) > limit else "")

        text = (
            f"hand-over after {name} ({status}, {clicks} clicks, app {store.meta.get('app_version') or 'unknown'}): "
            f"stopped at {safe_route(position or '') or '?'}; {len(store.visits.explored())} pages visited; "
            f"{len(todo)} known but unvisited{': ' + routes(todo) if todo else ''}; "
            f"{len(self._failed)} failed to load; {len(due)} due for retest; "
            f"open bugs on {routes(open_bugs) or 'none'}"
        )
        with store.transaction():
            store.notebook.add_note(
                text, session_id, store.history.step_count(), self.clock(), author="harness"
            )

    def _archive(self) -> None:
        """Hand the site map and the bug history to the policy's long-term store, if it keeps one."""
        archive = getattr(self.policy, "archive", None)
        if not callable(archive):
            return
        table = self.store.link_table.all()
        site_map = "\n".join(f"{src} -> {', '.join(dsts)}" for src, dsts in table.items())
        bugs = [
            f"{b.fingerprint} {b.route} {b.kind} {b.status} v{b.version}"
            + (f" superseded_by={b.superseded_by}" if b.superseded_by else "")
            for b in self.store.bug_table.all()
        ]
        archive(site_map, bugs)

    def _links(self, page: Any) -> list[str]:
        """The page's actions as canonical routes (`safe_route`): the link table is trusted memory, so
        a target that reads as prose is percent-encoded and an over-long one is dropped. A link to the
        page itself is no way onward and is not kept. Kinds and labels (untrusted text) are kept for
        this step only, for the llm policy's prompt."""
        here = self.fetcher.route_of(page.url)
        own = safe_route(here) if here is not None else None
        routes: list[str] = []
        self._actions = {}
        self._listed = set()
        clicks: list[tuple[str, str]] = []
        counts = action_counts(page) if own is not None and own not in self._counted else None
        places = item_places(page) if own is not None else {}
        if own is not None:
            self._counted.add(own)
        for action in self._page_actions(page):
            if action.kind == "click":
                # No address of its own: a harness-made route names the state the click leaves.
                if own is None or not action.selector or len(action.selector) > MAX_SELECTOR_CHARS:
                    continue
                digest = hashlib.sha256(f"{own} {action.selector}".encode()).hexdigest()[:12]
                route: str | None = f"{own}{CLICK_MARK}{digest}"
                clicks.append((str(route), action.selector))
            else:
                route = self.fetcher.route_of(action.target)
                route = safe_route(route) if route is not None else None
            if route is None or route == own or route in routes or not self.fetcher.followable(route):
                continue
            routes.append(route)
            place = places.get(action.target) if own is not None else None
            if place is not None:
                self._listed.add(route)
                group = self._siblings.setdefault((str(own), place), [])
                if len(group) < MAX_SIBLINGS:
                    group.append(route)
            if counts is not None:
                self._popularity[route] += 1 if action.kind == "click" else counts.get(action.target, 1)
            self._actions[route] = (action.kind, action.label)
            if action.kind == "form":
                self._probes.add(route)
        if clicks and own is not None:
            with self.store.transaction():
                for route, selector in clicks:
                    self.store.link_table.add_click(route, own.split(CLICK_MARK)[0], selector)
        return routes

    def _page_actions(self, page: Any) -> list[Any]:
        # The engine's view of the page's actions (the browser engine adds clicks; a click acts on the
        # page it is on, so it has no route of its own and is not kept as a link).
        return self.fetcher.actions(page)

    def _oracle_config(self) -> OracleConfig:
        # The routes memory knows lead an oracle to a related page the current one does not link to
        # (the resource behind an edit form with no link back).
        return OracleConfig(allow_destructive=self.config.allow_destructive, known_routes=self._known_routes)

    def _known_routes(self) -> list[str]:
        known = dict.fromkeys(self.store.visits.explored())
        known.update(dict.fromkeys(d for ds in self.store.link_table.all().values() for d in ds))
        return [r for r in known if CLICK_MARK not in r]

    def _oracle_fetch(self) -> Callable[[str], Any]:
        # The oracles may look at related pages (the previous page of a list, the article behind a
        # form). Their `OracleFetch` keeps the pages of one step; only failures are kept here, so a
        # fetch the oracles ask for *again* (a page after a destructive action) is a fresh request.
        failed: dict[str, OSError] = {}

        def fetch(url: str) -> Any:
            if url in failed:
                raise failed[url]
            try:
                return self.fetcher.fetch_page(url)
            except OSError as exc:
                failed[url] = exc
                raise

        return fetch

    def _probe_version(self, position: str) -> None:
        """On resume, look at the start page before the first click (a fetch, not a step): which
        version the site runs — a change is confirmed by a second look, since one answer may come from
        a flapping server — and whether its DOM structure changed since memory saw it (an upgrade
        without a version marker): then it is due for re-test, and re-testing it finds its mates."""
        start = self.fetcher.start_route()
        for _ in range(2):
            page = self.fetcher.fetch(start).page
            if page is None:
                return
            before = self.store.meta.get("app_version")
            seen = self._observe_version(page, position, confirmed=False)
            remembered = self.store.visits.structure_hashes().get(start)
            if remembered is not None and remembered != structure_hash(page):
                with self.store.transaction():
                    self.store.visits.mark_route_for_retest(start)
            if seen == before and self._pending is None:
                return

    def _observe_version(self, page: Any, position: str, *, confirmed: bool) -> str | None:
        """The version to record for a page just fetched, after judging what it states.

        What the site sends is trusted only when it is a version number (else it is quarantined with
        provenance and the version stays unknown). A version stated for the first time after pages
        were tested under an unknown one, or a changed version, starts a re-test — once the next page
        says the same (one flapping answer is not an upgrade), and at most once per session (a server
        that keeps changing its mind must not starve the pages not yet visited). `--app-version` is
        the user's word and needs no confirmation.
        """
        store = self.store
        current = store.meta.get("app_version")
        stated, refused = stated_version(page)
        if refused is not None:
            self._quarantine_version(page, refused)
        hinted = stated is None and self.config.app_version_hint is not None
        stated = stated or self.config.app_version_hint
        if stated is None or stated == current:
            self._pending = None
            return current
        if current is None and not store.visits.explored():
            with store.transaction():
                store.meta.set("app_version", stated)  # the first version of a new exploration
            return stated
        if not (confirmed or hinted or self._pending == stated):
            self._pending = stated
            return current
        self._pending = None
        if self._version_changed:
            logger.warning("app version changes again ({} -> {}) in one session: ignored", current, stated)
            with store.transaction():
                store.meta.set("version_flaps", str(int(store.meta.get("version_flaps") or 0) + 1))
            return current
        self._version_changed = True
        with store.transaction():
            retest.invalidate(store, stated, position)
        return stated

    def _quarantine_version(self, page: Any, refused: str) -> None:
        """A version text that is not a version number is page data: kept for audit, never trusted."""
        provenance = {"source": "app version (not a version number)", "url": page.url, "route": page.route}
        with self.store.transaction():
            self.store.notebook.add_observation(
                refused, provenance, self.store.history.step_count(), self.clock()
            )

    @staticmethod
    def _position_after_result(result: FetchResult, position: str) -> str:
        # One cannot stand on a PDF, a wall or an error: the explorer stays where it was.
        return (result.final_route or result.route) if result.outcome == "page" else position

    def _position_after(self, out: StepOutcome, position: str) -> str:
        after = out.route if out.outcome == "page" and not out.partial else position
        if after != position:
            self._previous = position
        return after

    @staticmethod
    def _count(text: str) -> int:
        from .factory import shared_counter

        return shared_counter().count_text(text)


def site_texts(page: Any, actions: dict[str, tuple[str, str]]) -> list[str]:
    """What a response said outside its page text: header values and action labels (all untrusted)."""
    headers = getattr(page, "headers", {}) or {}
    return [*(str(v) for v in headers.values()), *(label for _, label in actions.values() if label)]


def page_text(page: Any) -> str:
    """Visible text of a fetched page (what the quarantine keeps and the llm policy sees as data)."""
    return page.document.text() if page is not None else ""


def summary(store: ExplorerStore, result: SessionResult | None = None) -> dict[str, Any]:
    """The `explore`/`resume --json` object, in one vocabulary of counts (contract 5):

    - `clicks`: budget spent in this session (the landing on the start page is not a click); `steps`
      is its old name, kept; `clicks_left` what the budget had left when the session stopped;
    - `fetches`: HTTP requests/page loads of this session, oracle fetches and retries included;
    - `pages_visited`: distinct routes fetched successfully as pages (login walls, HTTP errors,
      redirects, skipped and failed fetches are not visits) — the list; its length is
      `counts.pages_visited`;
    - `pages_known`: distinct routes memory knows (visited, or linked from a remembered page);
    - `stop_reason` (+ `stop_detail`): why the session ended (contract 4).

    Clicks, fetches and tokens are this session's (the last one when `result` is None); pages, bugs,
    duplicates and repeats are the whole exploration's (the store), so sessions add up."""
    visited = store.visits.explored()
    links = store.link_table.all()
    known = set(visited) | {d for ds in links.values() for d in ds}
    builtin = store.meta.get("builtin") == "1"
    coverage = len(set(visited) & BUILTIN_ROUTES) / len(BUILTIN_ROUTES) if builtin else None
    sessions = store.history.sessions()
    last = sessions[-1] if sessions else None
    name: str | None
    reason: str | None
    if result is not None:
        name, clicks, tokens, reason = result.session, result.clicks, result.tokens, result.stop_reason
        budget, fetches, detail = result.budget, result.fetches, result.detail
    else:
        name = last.name if last else None
        steps = store.history.steps(last.id) if last else []
        if last is not None and last.clicks is not None:
            clicks = last.clicks
        else:  # a store written before clicks were kept: every step but the first session's landing
            clicks = max(0, len(steps) - (1 if last is not None and last.id == sessions[0].id else 0))
        tokens = int(sum(s.tokens for s in steps))
        reason = last.status if last else None
        budget = last.budget if last else 0
        fetches = last.fetches if last is not None and last.fetches is not None else len(steps)
        detail = last.stop_detail if last is not None else ""
    return {
        "session": name,
        "app_version": store.meta.get("app_version"),
        "steps": clicks,
        "clicks": clicks,
        "clicks_left": max(0, budget - clicks),
        "fetches": fetches,
        "tokens": tokens,
        "stop_reason": reason,
        "stop_detail": detail,
        "pages_visited": visited,
        "pages_known": len(known),
        "counts": {
            "clicks": clicks,
            "fetches": fetches,
            "pages_visited": len(visited),
            "pages_known": len(known),
        },
        "coverage": coverage,
        "bugs": [
            {
                "fingerprint": b.fingerprint,
                "route": b.route,
                "kind": b.kind,
                "status": b.status,
                "suspected": destructive_mode.is_suspected(b.evidence),
            }
            for b in store.bug_table.live()
        ],
        **destructive_mode.summary_keys(store, name),
        "model_reported": [m.entry() for m in store.bug_table.model_reports()],
        "duplicate_reports": store.bug_table.duplicate_reports(),
        "repeat_visits": store.history.repeat_visits(),
    }


def describe(data: dict[str, Any]) -> list[str]:
    """The text lines `explore`/`resume` print for a `summary()` (same counts, same words as --json)."""
    cov = "n/a (unknown site)" if data["coverage"] is None else f"{data['coverage']:.0%}"
    reason = data.get("stop_reason")
    why = STOP_REASONS.get(reason or "", reason or "?")
    detail = data.get("stop_detail") or ""
    lines = [
        f"{data['session']}: {data['clicks']} clicks, {data['fetches']} fetches, {data['tokens']} tokens, "
        f"app version {data['app_version'] or 'unknown'}",
        f"stopped: {reason} ({why}{'; ' + detail if detail and detail != why else ''}); "
        f"{data['clicks_left']} clicks left",
        f"pages visited: {len(data['pages_visited'])}  pages known: {data['pages_known']}  coverage: {cov}  "
        f"repeat visits: {data['repeat_visits']}",
        f"bugs ({len(data['bugs'])}, duplicate reports: {data['duplicate_reports']}):",
    ]
    lines += [
        f"  [{b['status']}{', suspected' if b.get('suspected') else ''}] {b['route']:<28} {b['kind']:<24} "
        f"{b['fingerprint']}"
        for b in data["bugs"]
    ]
    if data.get("allow_destructive"):
        lines.append(f"{data['destructive_actions']} (--allow-destructive)")
    elif any(b.get("suspected") for b in data["bugs"]):
        lines.append(f"{destructive_mode.NOT_OPENED} (--allow-destructive opens them)")
    reported = data.get("model_reported") or []
    if reported:
        lines.append(f"reported by the model, not confirmed by any oracle ({len(reported)}, not counted):")
        lines += [f"  [model_reported] {m['route']:<28} {m['kind']}" for m in reported]
    return lines
