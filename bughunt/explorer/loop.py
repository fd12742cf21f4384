"""The explorer's one loop: land (or probe the version on resume), then choose → load → inspect →
write, until the budget is spent or a stop reason says why not.

A session is one `explore` or `resume` run over a store. A fresh store starts by landing on the start
page (free, as in the simulator: the budget counts clicks); a resumed one starts where the last session
stood, and the first click already goes to pages not yet visited. Each step is written by
`ExplorationGraph.write_step` in one transaction, so an interruption loses at most the step in flight.
When the site states a new app version, the re-test walk takes over until every page due is re-tested.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cache

from bughunt.oracles import Finding
from bughunt.oracles.base import NO_EFFECT_TRIES, OpenedAction
from bughunt.oracles.destructive_words import read_as_destroying
from bughunt.oracles.guarded_gets import guarded_get
from bughunt.sim.memory import NoMemory
from bughunt.sim.rng import mulberry32

from .choose import Chooser, Whereabouts
from .click_address import named_by_state
from .config import SessionConfig
from .engine import Engine, LoginLost
from .evidence_files import keep_screenshots
from .facts import PageFacts, read_page, site_texts
from .graph import CLICK_MARK, ExplorationGraph, StepWrite
from .harness import ALL_KINDS, StepOutcome, is_failure
from .hints import SessionHints
from .idle_controls import idle_test, lessons, placed_shape, scrub, view_families
from .inspection import inspect
from .loading import clicked_back, load
from .policies import Policy
from .referrer import referer
from .state_writes import MAX_SENT, READ_KINDS, state_writes
from .store import ExplorerStore
from .summary import SessionResult, hand_over
from .templates import structure_hash
from .versions import VersionWatch, VersionWrites
from .views import ContextIndex, View, build_view, remember

OFFERING_PAGES = 2 * NO_EFFECT_TRIES + 2
"""Pages remembered per destructive template, to open it on after the walk. More than the records it
is opened on (`NO_EFFECT_TRIES`): an address may show another view of itself by then — a mail admin's
domain overview shows the tab last chosen in the session, and after the walk chose "Aliases" there, its
first three pages listed no mailbox and no mailbox's Delete link."""


class Explorer:
    """Runs sessions of one policy over one store and one site (through one engine)."""

    def __init__(
        self,
        store: ExplorerStore,
        engine: Engine,
        policy: Policy,
        config: SessionConfig,
        on_step: Callable[[StepOutcome], None] | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.store, self.engine, self.policy, self.config = store, engine, policy, config
        self.graph = ExplorationGraph(store)
        self.on_step, self.clock, self.sleep = on_step, clock, sleep
        self.hints = SessionHints()
        self.versions = VersionWatch(hint=config.app_version_hint)
        self.walk = Whereabouts()
        self.view: View = NoMemory()  # built at the start of each run, after expiry
        self.memory_rnd = mulberry32(config.seed)
        self._drop_walk = False
        self._explored_before = False
        """Whether memory held tested pages when this session started (`VersionWatch.observe`)."""
        self.opened_destructive: dict[int, OpenedAction] = {}
        """The destructive actions this session opened, by template (`OracleConfig.opened_destructive`)."""
        self.deferred_destructive: dict[int, list[str]] = {}
        """With --allow-destructive: each destructive control template the walk saw (`opening_key`),
        with the routes of the first pages that offered it (`OFFERING_PAGES`; a record with no visible
        effect, or a page that no longer offers it, hands over to the next), to open once the walk is
        over."""
        self.state_writes: dict[str, str] = {}
        """With --allow-destructive: the click route of each control in its place whose click sent a
        refused write naming a state change (`state_writes`), to make again with its writes sent once
        the walk is over."""

    def run(self) -> SessionResult:
        graph, cfg, engine = self.graph, self.config, self.engine
        expire = self.clock() - cfg.expire_after_s if cfg.expire_after_s is not None else None
        session_id, name = graph.start_session(
            self.policy.name, engine.base_url, cfg.budget, builtin=cfg.builtin,
            destructive=cfg.allow_destructive, expire_before=expire,
        )  # fmt: skip
        fetches_before = engine.stats.requests
        outcomes: list[StepOutcome] = []
        status, detail = "interrupted", ""
        self.view = build_view(self.store, cfg.memory, self.memory_rnd)
        scrub(
            self.view,
            idle_test(
                graph.idle_controls(),
                graph.click_of,
                graph.store.link_table.words_of,
                view_families(graph),
            ),
        )
        context = ContextIndex(self.store, cfg.memory, _count)
        chooser = Chooser(graph, engine, self.policy, cfg, self.hints, self.view, context)
        position = graph.position
        self._explored_before = bool(graph.explored())
        try:
            try:
                status, detail, position = self._run(chooser, session_id, position, outcomes)
            except LoginLost as exc:
                # The engine logged in again once already (or could not): the step in flight is lost.
                status, detail = "login_lost", str(exc)
                position = graph.position or position
        finally:
            clicks = sum(o.click for o in outcomes)
            fetches = engine.stats.requests - fetches_before
            note = hand_over(
                graph, name, position, clicks, status, chooser.unvisited(self.walk.failed), self.walk.failed
            )
            graph.end_session(
                session_id, status, clicks=clicks, fetches=fetches, detail=detail, hand_over=note,
                now=self.clock(), drop_walk=self._drop_walk,
            )  # fmt: skip
            self._archive()
        return SessionResult(
            name, session_id, clicks, sum(o.tokens for o in outcomes), status, outcomes,
            budget=cfg.budget, fetches=fetches, detail=detail,
        )  # fmt: skip

    def _run(
        self, chooser: Chooser, session_id: int, position: str | None, outcomes: list[StepOutcome]
    ) -> tuple[str, str, str | None]:
        """Land or probe, then click: returns (stop reason, detail, position)."""
        if position is None or not self.graph.is_state(position):
            start = self.engine.start_route()
            out = self._step(session_id, start, start, click=False)
            outcomes.append(out)
            if is_failure(out.outcome, out.status):
                return "site_unreachable", f"the start page {start} gave {out.detail or out.outcome}", None
            position = self._moved(out, start)
        else:
            self._probe_version(position)
        if self.config.force_retest:
            self.graph.force_retest(position)
        status, detail = self._loop(chooser, session_id, position, outcomes)
        if self.config.allow_destructive and status in ("budget", "done"):
            self._open_deferred(session_id, self.graph.position or position, outcomes)
            self._walk_views(session_id, self.graph.position or position, outcomes)
            self._send_state_writes(session_id, self.graph.position or position, outcomes)
        return status, detail, self.graph.position or position

    def _send_state_writes(self, session_id: int, position: str, outcomes: list[StepOutcome]) -> None:
        """--allow-destructive, after the destructive openings: make each collected click again with
        its page's writes sent (a step that is no click), so the oracles see what the API answers."""
        for route in list(self.state_writes.values()):
            self.engine.admit_writes(True)
            try:
                step = self._step(session_id, route, position, click=False, opening=True, only=READ_KINDS)
                outcomes.append(step)
            finally:
                self.engine.admit_writes(False)

    def _open_deferred(self, session_id: int, position: str, outcomes: list[StepOutcome]) -> None:
        """--allow-destructive, once the walk is over: open each destructive control template the walk
        saw, on the first page that offered it (a step that is no click), and report what it did. The
        walk explored the site as it was; deleting while exploring cost records the walk had yet to
        see (an author whose books then failed to list, the one post with the planted bug)."""
        for key, routes in list(self.deferred_destructive.items()):
            for route in routes:
                earlier = self.opened_destructive.get(key)
                if earlier is not None and earlier.settled:
                    break  # judged on an earlier page of this pass
                # A page that no longer offers it (another template's opening deleted the record it
                # showed) judges nothing: the next page that offered it is tried.
                outcomes.append(self._step(session_id, route, position, click=False, opening=True))

    def _walk_views(self, session_id: int, position: str, outcomes: list[StepOutcome]) -> None:
        """--allow-destructive, after the openings: a GET the walk left to them only for its words
        (`read_as_destroying`; no anti-forgery token in it: `guarded_get`) whose opening answered with
        a page asking first (`OpenedAction.acted` None: forms to confirm, the destructive oracle's
        "confirmation step") is a page like any — the trash a list's "View trash (5)" opens at
        `?trash=1`, its rows each with a form to delete for good — and is walked with the clicks the
        walk left, so the oracles read it as a page (its list, the count its link claims on the list's
        page). Not before the openings: unjudged, it was a write. Nor one whose opening removed nothing
        visible (False): its page has no form to confirm, so loaded as a page its address alone would
        read as a delete run at once (a refusal page at `/_delete/`)."""
        left = self.config.budget - sum(o.click for o in outcomes)
        for action in list(self.opened_destructive.values()):
            if left <= 0:
                return
            url = action.url
            viewed = action.acted is None and read_as_destroying(url) and not guarded_get(url)
            route = self.engine.route_of(url) if viewed else None
            if route is None or self.graph.is_visited(route):
                continue
            outcomes.append(self._step(session_id, route, position))
            left -= 1

    def _loop(
        self, chooser: Chooser, session_id: int, position: str, outcomes: list[StepOutcome]
    ) -> tuple[str, str]:
        """Click until the budget is spent or a stop reason says why not; returns (reason, detail)."""
        cfg, walk = self.config, self.walk
        clicks = failures_in_a_row = 0
        reloaded = False
        relogins, last_target = self.engine.relogins, None
        while clicks < cfg.budget:
            if cfg.stop_at_bugs is not None and self.graph.open_bugs() >= cfg.stop_at_bugs:
                return "done", f"{cfg.stop_at_bugs} bugs open, as asked"
            choice = chooser.choose(position, clicks, walk)
            self._drop_walk = choice.drop_walk
            if choice.target is None:
                if not reloaded and clicks == 0 and self.graph.store.history.step_count() <= 1:
                    # The first page of a first session offered nothing: a tester reloads a blank
                    # page before calling the site empty (a script app read before it drew its
                    # first view ended a session after 0 clicks). Once, after a pause; no click.
                    reloaded = True
                    self.sleep(cfg.retry_backoff_s)
                    out = self._step(session_id, position, position, click=False)
                    outcomes.append(out)
                    position = self._moved(out, position)
                    continue
                left = len(walk.failed)
                if left and failures_in_a_row:
                    # What is left failed to load, the last click too: the site, not memory, is the limit.
                    return "site_unreachable", f"{left} page(s) failed to load and nothing else is left"
                why = "nothing left that memory knows"
                if left:
                    why += f"; {left} page(s) failed to load and are retried on resume"
                return "done", why
            out = self._step(
                session_id, choice.target, position, retesting=choice.retesting, tokens=choice.tokens,
                drop_walk=choice.drop_walk, via=choice.via,
            )  # fmt: skip
            self._drop_walk = False
            outcomes.append(out)
            clicks += 1
            if self.engine.relogins > relogins and last_target is not None:
                # This step's load met the login wall and the engine logged in again: the step
                # before lost the login (a GET form that resets the session, a settings write
                # that rotates it). Taking it again would lose it again.
                walk.lost_login.add(last_target)
            relogins, last_target = self.engine.relogins, choice.target
            if is_failure(out.outcome, out.status):
                failures_in_a_row += 1
                walk.failed.add(choice.target)
                if failures_in_a_row >= cfg.max_consecutive_failures:
                    detail = (
                        f"{failures_in_a_row} clicks in a row failed (last: {choice.target} {out.detail})"
                    )
                    return "site_unreachable", detail
                continue
            failures_in_a_row = 0
            position = self._moved(out, position)
        return "budget", f"{clicks} of {cfg.budget} clicks spent"

    def _referer(self, origin: str, via: str | None) -> str | None:
        """What a click on a link of `origin` sends as `Referer` (`referrer.referer`): the policy of the
        page the walk stands on; for a jump past a hub, the default policy (that page is not held: a
        look into the engine's loaded pages would count as an oracle's reuse)."""
        return referer(self.walk.page if via is None else None, self.engine.url_of(origin))

    def _step(
        self, session_id: int, target: str, position: str, *, retesting: bool = False, tokens: int = 0,
        drop_walk: bool = False, click: bool = True, via: str | None = None, opening: bool = False,
        only: frozenset[str] | None = None,
    ) -> StepOutcome:  # fmt: skip
        """Load `target`, read the page's facts, run the oracles, and write the step (one transaction).
        `via` is the remembered page whose link `target` is when that is not `position`. `opening`: the
        oracles may open destructive actions (`_open_deferred`); a walk step defers them. `only`: the
        kinds of finding the step keeps (a state write's replay: `state_writes.READ_KINDS`)."""
        graph = self.graph
        cfg = self.config
        # the link's kind and label: on the page the explorer stands on, or the remembered one it jumped past
        came_by = (
            (self.hints.actions_at.get(via, {}) if via else self.hints.actions).get(target) if click else None
        )
        origin = via or position
        result = load(
            self.engine, graph, target, cfg.retries, cfg.retry_backoff_s, self.sleep,
            self._referer(origin, via) if came_by is not None else None,
        )  # fmt: skip
        if via is None:
            result = clicked_back(
                result, position, self.walk.page, self.hints.actions.get(target, ("", ""))[1]
            )
        elif result.page is not None and result.page.redirects and result.final_route == via:
            # A jump past a hub took a link of a remembered page and the GET redirected back to it
            # (`/unfollow/carol` → `/user/carol`): that page as the session loaded it, kept while
            # nothing could change it (`Engine.reuse_page`; the load kept the answer under the link's
            # own route), is the page before.
            jumped_from = self.engine.reuse_page(self.engine.url_of(via), graph.app_version)
            result = clicked_back(result, via, jumped_from, (came_by or ("", ""))[1])
        facts: PageFacts | None = None
        findings: list[Finding] = []
        judged: frozenset[str] = frozenset()
        version, writes = graph.app_version, VersionWrites()
        if result.outcome == "page" and result.page is not None:
            page = result.page
            # Asked only for a first version: were pages tested under an unknown one by an earlier
            # session? This session's own pages do not count — a site that states its version on some
            # pages only (an admin footer) has not changed between them, and re-testing every page
            # visited so far spent the rest of the budget on pages seen this session.
            explored_before = lambda: self._explored_before  # noqa: E731
            version, writes = self.versions.observe(
                page, result.final_route or target, version, explored_before, confirmed=False
            )
            made_by = graph.click_of(target)
            if made_by is not None:
                self.hints.judged.learn(page, made_by[1])
            facts = read_page(
                page,
                self.engine,
                (target, made_by[1]) if made_by is not None else None,
                self.hints.judged.known,
            )
            self.hints.absorb(facts, target if CLICK_MARK in target else None)
            clicked = graph.click_of(target)
            judgement = inspect(
                page,
                self.engine,
                graph,
                allow_destructive=opening,
                opened=self.opened_destructive,
                clicked_on=clicked[0] if clicked and (result.final_route or target) != target else None,
                defer=self.config.allow_destructive and not opening,
            )
            # named by the view the click opened, not the page it was made on (`click_address`)
            findings = named_by_state(list(judgement.findings), page, target)
            judged = ALL_KINDS if judgement.complete else frozenset()
            # what logging in found (the login form's refused submission): on the session's first page
            findings += self.engine.take_login_findings()
            if only is not None:
                findings = [f for f in findings if f.kind in only]
                judged &= only
            if self.config.allow_destructive and not opening:
                findings = self._defer(findings, result.final_route or target)
                judged -= {"unconfirmed_destructive"}  # judged by opening, after the walk
                if made_by is not None and state_writes(page) and len(self.state_writes) < MAX_SENT:
                    self.state_writes.setdefault(placed_shape(made_by[1]), target)
        self.walk.last_text = facts.text if facts is not None else ""
        self.walk.site_text = site_texts(result.page, self.hints.actions) if result.page is not None else []
        partial = facts is not None and facts.fragment
        click_of = graph.click_of(target)
        found = any(
            (live := graph.store.bug_table.live_one(f.fingerprint)) is None or live.status != "open"
            for f in findings
        )
        idle = (
            lessons(
                graph.store, target, origin, result, facts, click_of, found=found,
                menu_words=self.hints.menu_words,
            )
            if click
            else ()
        )  # fmt: skip
        landed = (result.final_route or result.route) if result.outcome == "page" else position
        # A click that left its page as it was (`same_state`) is that page again: the explorer stays.
        stays = partial or (click_of is not None and any(why == "same_state" for _, why in idle))
        out = graph.write_step(
            StepWrite(
                session_id, target, result, position if stays else landed, self.clock(),
                links=facts.links if facts is not None else (), findings=findings, version=version,
                tokens=tokens, retest=retesting, dedupe=self.config.memory.bug_list,
                structure_hash=facts.structure_hash if facts is not None else None,
                failed=is_failure(result.outcome, result.status),
                clicks=facts.clicks if facts is not None else (), version_writes=writes, drop_walk=drop_walk,
                click_words=facts.click_words if facts is not None else {},
                idle=idle, came_by=came_by, judged=judged,
            )
        )  # fmt: skip
        out.click, out.partial = click, stays
        if out.new_bugs and result.page is not None:
            keep_screenshots(graph.store, self.engine, out, result.page.url)  # browser engine only
        if result.outcome == "page" and not stays:
            self.walk.page = result.page
        if partial:
            self.hints.partials.add(out.route)
        if result.outcome == "non_html" and not retesting:
            self.hints.documents.add(result.route)
        if out.repeat and click and not retesting and result.route != out.route:
            self.hints.returns.add(result.route)
            self.hints.answers.answered_again(result.route)  # a form's answer seen before (issue 25)
        self.walk.last = out
        # A failed route is written into this session's view as a dead end, so no policy walks back to
        # it now; the view is rebuilt from the store next session, where failures are not visits.
        is_idle = idle_test(
            graph.idle_controls(), graph.click_of, graph.store.link_table.words_of, view_families(graph)
        )
        onward = [r for r in out.links if not is_idle(r, out.route)]
        remember(self.view, result.route, out.route, result.outcome, onward)
        if idle:
            scrub(self.view, is_idle)
        if self.on_step is not None:
            self.on_step(out)
        return out

    def _defer(self, findings: list[Finding], route: str) -> list[Finding]:
        """The findings of a walk step, less the destructive links it saw unopened: with
        --allow-destructive their verdict comes from opening them after the walk (`_open_deferred`)."""
        kept = []
        for f in findings:
            key = f.evidence.get("opening_key")
            if f.kind == "unconfirmed_destructive" and "target" in f.evidence and isinstance(key, int):
                routes = self.deferred_destructive.setdefault(key, [])
                if route not in routes and len(routes) < OFFERING_PAGES:
                    routes.append(route)
            else:
                kept.append(f)
        return kept

    def _archive(self) -> None:
        """Hand the site map and the bug history to the policy's long-term store, if it keeps one."""
        site_map = "\n".join(f"{src} -> {', '.join(dsts)}" for src, dsts in self.graph.link_table().items())
        bugs = [
            f"{b.fingerprint} {b.route} {b.kind} {b.status} v{b.version}"
            + (f" superseded_by={b.superseded_by}" if b.superseded_by else "")
            for b in self.graph.bugs()
        ]
        self.policy.archive(site_map, bugs)

    def _probe_version(self, position: str) -> None:
        """On resume, look at the start page before the first click (a fetch, not a step): which
        version the site runs — a change is confirmed by a second look, since one answer may come from
        a flapping server — and whether its DOM structure changed since memory saw it (an upgrade
        without a version marker): then it is due for re-test, and re-testing it finds its mates."""
        graph, start = self.graph, self.engine.start_route()
        for _ in range(2):
            page = self.engine.fetch(start).page
            if page is None:
                return
            before = graph.app_version
            seen, writes = self.versions.observe(
                page, position, before, lambda: bool(graph.explored()), confirmed=False
            )
            graph.write_version(writes, self.clock())
            remembered = graph.structure_hashes().get(start)
            if remembered is not None and remembered != structure_hash(page):
                graph.mark_due(start)
            if seen == before and self.versions.pending is None:
                return

    def _moved(self, out: StepOutcome, position: str) -> str:
        """Where the explorer stands after `out`: one cannot stand on a fragment, a wall or an error."""
        after = out.route if out.outcome == "page" and not out.partial else position
        if after != position:
            self.walk.previous = position
        return after


def _count(text: str) -> int:
    return _line_counter()(text)


@cache
def _line_counter() -> Callable[[str], int]:
    """The process's counter of working-context lines, found once: an import in `_count` itself ran
    the import machinery for each of the thousands of pieces a session counts."""
    from .factory import shared_counter

    return shared_counter().count_lines
