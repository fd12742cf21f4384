"""One exploration session: fetch → parse links → oracles → harness writes memory → policy chooses.

A session is one `explore` or `resume` run over a store directory. A fresh store starts by landing on
the start page (free, as in the simulator: the budget counts clicks); a resumed one starts where the
last session stood, from memory, and the first click already goes to pages not yet visited. Each
step is one SQLite transaction, so an interruption loses at most the step in flight. When the site
states a new app version, the retest planner takes over until every page due has been re-tested.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from loguru import logger

from bughunt import site as builtin_site
from bughunt.html import action_targets
from bughunt.oracles import Finding, inspect_page
from bughunt.sim.memory import NoMemory
from bughunt.sim.rng import derive_seed, mulberry32
from memgpt_lite.errors import UsageError

from . import retest
from .fetcher import Fetcher, FetchResult
from .harness import StepOutcome, read_app_version, record_step
from .policies import Decision, Policy
from .store import ExplorerStore
from .views import MemoryConfig, View, build_view, remember, render_working_context

BUILTIN_ROUTES = frozenset(p.route for p in builtin_site.PAGES)


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


@dataclass(slots=True)
class SessionResult:
    session: str
    session_id: int
    steps: int
    tokens: int
    status: str
    outcomes: list[StepOutcome]


class Explorer:
    """Runs sessions of one policy over one store and one site (through one fetcher)."""

    def __init__(
        self,
        store: ExplorerStore,
        fetcher: Fetcher,
        policy: Policy,
        config: SessionConfig,
        on_step: Callable[[StepOutcome], None] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if config.budget < 0:
            raise UsageError("--budget must be >= 0")
        self.store, self.fetcher, self.policy, self.config = store, fetcher, policy, config
        self.on_step = on_step
        self.clock = clock
        self.memory_rnd = mulberry32(config.seed)
        self._last: StepOutcome | None = None
        self._view: View = NoMemory()  # built at the start of each run, after expiry
        self._last_text = ""

    def run(self) -> SessionResult:
        store, cfg = self.store, self.config
        session_id, name = store.start_session(self.policy.name, self.fetcher.base_url, cfg.budget)
        with store.transaction():
            store.set_meta("base_url", self.fetcher.base_url)
            if cfg.builtin:
                store.set_meta("builtin", "1")
            if cfg.expire_after_s is not None:
                forgotten = store.expire(self.clock() - cfg.expire_after_s)
                logger.info("expired memories unused for {}s: {}", cfg.expire_after_s, forgotten)
        outcomes: list[StepOutcome] = []
        status = "interrupted"
        clicks = 0
        self._view = build_view(store, cfg.memory, self.memory_rnd)
        position: str | None = None
        try:
            position = store.get_meta("position")
            if position is None or store.page(position) is None:
                position = self.fetcher.start_route()
                out = self._step(session_id, position, position, retesting=False, tokens=0, click=False)
                outcomes.append(out)
                position = self._position_after(out, position)
            else:
                self._probe_version(position)
            while clicks < cfg.budget:
                if (
                    cfg.stop_at_bugs is not None
                    and sum(b["status"] == "open" for b in store.live_bugs()) >= cfg.stop_at_bugs
                ):
                    break
                target, tokens, retesting = self._choose(position, clicks)
                if target is None:
                    break
                out = self._step(session_id, target, position, retesting=retesting, tokens=tokens)
                outcomes.append(out)
                position = self._position_after(out, position)
                clicks += 1
            status = "completed"
        finally:
            store.end_session(session_id, status)
            self._hand_over(session_id, name, position, clicks, status)
            self._archive()
        return SessionResult(name, session_id, clicks, sum(o.tokens for o in outcomes), status, outcomes)

    # -- one step --------------------------------------------------------------------------------
    def _choose(self, position: str, clicks: int) -> tuple[str | None, int, bool]:
        store = self.store
        links = [r for r in store.links_of(position) if self.fetcher.followable(r)]
        if store.needs_retest():
            target = retest.next_retest(store, position, set(links))
            if target is not None:
                context = render_working_context(store, position, self.config.memory)
                tokens = self._count(context)
                return target, tokens, True
        if not links and position != self.fetcher.start_route():
            # A dead end (no links we may follow): go back to the start, as a person would.
            links = [self.fetcher.start_route()]
        n = store.step_count() + 1
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
        )
        choice = self.policy.choose(decision)
        return choice.route, choice.tokens, False

    def _step(
        self, session_id: int, target: str, position: str, *, retesting: bool, tokens: int, click: bool = True
    ) -> StepOutcome:
        result = self.fetcher.fetch(target)
        links: list[str] = []
        findings: list[Finding] = []
        version: str | None = self.store.get_meta("app_version")
        if result.outcome == "page" and result.page is not None:
            page = result.page
            stated = read_app_version(page) or self.config.app_version_hint
            if stated and stated != version:
                new_pos = result.final_route or target
                with self.store.transaction():
                    if version is None:
                        self.store.set_meta("app_version", stated)
                    else:
                        retest.invalidate(self.store, stated, new_pos)
                version = stated
            links = self._links(page)
            findings = list(inspect_page(page, self._oracle_fetch()))
        self._last_text = page_text(result.page) if result.outcome == "page" else ""
        new_position = self._position_after_result(result, position)
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
        )
        out.click = click
        self._last = out
        remember(self._view, result.route, out.route, result.outcome, out.links)
        with self.store.transaction():
            retest.advance_walk(self.store, target)
        if self.on_step is not None:
            self.on_step(out)
        return out

    def _hand_over(self, session_id: int, name: str, position: str | None, clicks: int, status: str) -> None:
        """The hand-over note for the next session, written from structured memory only (routes and
        counts — never page text), so it can be trusted like the rest of the harness's state."""
        store = self.store
        visited = set(store.visited())
        known = {d for ds in store.links().values() for d in ds}
        todo = sorted(known - visited)
        due = store.needs_retest()
        open_bugs = [b["route"] for b in store.live_bugs() if b["status"] == "open"]
        text = (
            f"hand-over after {name} ({status}, {clicks} clicks, app {store.get_meta('app_version') or '?'}): "
            f"stopped at {position or '?'}; {len(visited)} routes visited; "
            f"{len(todo)} known but unvisited{': ' + ', '.join(todo[:12]) if todo else ''}; "
            f"{len(due)} due for retest; open bugs on {', '.join(open_bugs) or 'none'}"
        )
        with store.transaction():
            store.add_note(text, session_id, store.step_count(), self.clock(), author="harness")

    def _archive(self) -> None:
        """Hand the site map and the bug history to the policy's long-term store, if it keeps one."""
        archive = getattr(self.policy, "archive", None)
        if not callable(archive):
            return
        table = self.store.links()
        site_map = "\n".join(f"{src} -> {', '.join(dsts)}" for src, dsts in table.items())
        bugs = [
            f"{b['fingerprint']} {b['route']} {b['kind']} {b['status']} v{b['version']}"
            + (f" superseded_by={b['superseded_by']}" if b["superseded_by"] else "")
            for b in self.store.all_bugs()
        ]
        archive(site_map, bugs)

    def _links(self, page: Any) -> list[str]:
        routes: list[str] = []
        for url in action_targets(page):
            route = self.fetcher.route_of(url)
            if route is not None and route not in routes and self.fetcher.followable(route):
                routes.append(route)
        return routes

    def _oracle_fetch(self) -> Callable[[str], Any]:
        # The oracles may look at related pages (the previous page of a list, the article behind a
        # form); one step never fetches the same one twice.
        cache: dict[str, Any] = {}

        def fetch(url: str) -> Any:
            if url not in cache:
                try:
                    cache[url] = self.fetcher.fetch_page(url)
                except OSError as exc:
                    cache[url] = exc
            if isinstance(cache[url], OSError):
                raise cache[url]
            return cache[url]

        return fetch

    def _probe_version(self, position: str) -> None:
        """On resume, ask the site which version it runs before the first click (not a step)."""
        if self.store.get_meta("app_version") is None and self.config.app_version_hint is None:
            return
        page = self.fetcher.fetch(self.fetcher.start_route()).page
        stated = (read_app_version(page) if page is not None else None) or self.config.app_version_hint
        current = self.store.get_meta("app_version")
        if stated and stated != current:
            with self.store.transaction():
                if current is None:
                    self.store.set_meta("app_version", stated)
                else:
                    retest.invalidate(self.store, stated, position)

    @staticmethod
    def _position_after_result(result: FetchResult, position: str) -> str:
        # One cannot stand on a PDF, a wall or an error: the explorer stays where it was.
        return (result.final_route or result.route) if result.outcome == "page" else position

    def _position_after(self, out: StepOutcome, position: str) -> str:
        return out.route if out.outcome == "page" else position

    @staticmethod
    def _count(text: str) -> int:
        from .factory import shared_counter

        return shared_counter().count_text(text)


def page_text(page: Any) -> str:
    """Visible text of a fetched page (what the quarantine keeps and the llm policy sees as data)."""
    return page.document.text() if page is not None else ""


def summary(store: ExplorerStore, result: SessionResult | None = None) -> dict[str, Any]:
    """The `explore`/`resume --json` object. Steps and tokens are this session's; pages, bugs,
    duplicates and repeats are the whole exploration's (the store), so sessions add up."""
    visited = [r for r in store.visited() if (store.page(r) or {"outcome": ""})["outcome"] != "redirect"]
    builtin = store.get_meta("builtin") == "1"
    # A wall, an error or a skipped response is visited but not covered: only pages count.
    coverage = len(set(store.explored()) & BUILTIN_ROUTES) / len(BUILTIN_ROUTES) if builtin else None
    return {
        "session": result.session if result else None,
        "app_version": store.get_meta("app_version"),
        "steps": result.steps if result else store.step_count(),
        "tokens": result.tokens if result else int(sum(s["tokens"] for s in store.steps())),
        "pages_visited": visited,
        "coverage": coverage,
        "bugs": [
            {"fingerprint": b["fingerprint"], "route": b["route"], "kind": b["kind"], "status": b["status"]}
            for b in store.live_bugs()
        ],
        "duplicate_reports": store.duplicate_reports(),
        "repeat_visits": store.repeat_visits(),
    }
