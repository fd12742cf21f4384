"""Where to click next: the re-test walk while pages are due, else the policy's choice among the
current page's links, else travel over the remembered link table to what is left.

`Chooser.choose` reads memory and writes nothing: what it decides about the re-test walk (drop a plan
the site no longer matches) is written by the step it leads to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bughunt.page import FetchedPage
from bughunt.record_repr import field_repr
from bughunt.sim.bfs import breadth_first
from bughunt.sim.rng import derive_seed, mulberry32

from . import retest
from .config import SessionConfig
from .engine import Engine
from .graph import CLICK_MARK, ExplorationGraph
from .harness import StepOutcome
from .hints import SessionHints
from .idle_controls import idle_test, view_families
from .policies import Decision, Option, Policy
from .views import ContextIndex, View

MAX_HUB_HOPS = 3
"""Remembered pages a choice may go past without reloading them (`Chooser.past_hubs`)."""


@dataclass(repr=False, slots=True, eq=False)
class Choice:
    """A route to load (None: nothing left), what choosing cost in tokens, whether it re-tests, and
    whether the planned re-test walk is to be dropped."""

    __repr__ = field_repr

    target: str | None
    tokens: int = 0
    retesting: bool = False
    drop_walk: bool = False
    via: str | None = None
    """The remembered page whose link `target` is, when the choice went past it without reloading it
    (`Chooser.past_hubs`); None when `target` is a link of the current position."""


@dataclass(repr=False, slots=True, eq=False)
class Whereabouts:
    """The session's walk so far, as the choice needs it."""

    __repr__ = field_repr

    previous: str | None = None
    """The page before the current position: where a Back leads from a dead end."""
    failed: set[str] = field(default_factory=set)
    """Routes whose fetch failed in this session (after retries): left for the next session."""
    lost_login: set[str] = field(default_factory=set)
    """Steps after which the login was lost (the next load showed the login wall and the engine logged
    in again): not taken again this session, which would lose it again. Not destructive (no record
    is gone, and the login is restored), so not reported, and tried again by the next session."""
    last: StepOutcome | None = None
    last_text: str = ""
    site_text: list[str] = field(default_factory=list)
    """What the last response said besides its page text (headers, labels): for the note gate."""
    page: FetchedPage | None = None
    """The page loaded at the current position: what a GET clicked there is compared with."""

    @property
    def left_out(self) -> set[str]:
        """What the walk does not take again this session: failed loads, steps that lost the login."""
        return self.failed | self.lost_login if self.lost_login else self.failed


@dataclass(repr=False, slots=True, eq=False)
class Chooser:
    __repr__ = field_repr

    graph: ExplorationGraph
    engine: Engine
    policy: Policy
    config: SessionConfig
    hints: SessionHints
    view: View
    context: ContextIndex

    def choose(self, position: str, clicks: int, walk: Whereabouts) -> Choice:
        graph, engine = self.graph, self.engine
        # A link to the page itself (`#`, the same URL) is never progress, nor is a control learned to
        # lead nowhere new (`idle_controls`); a route that failed this session is left for the next one.
        is_idle = idle_test(
            graph.idle_controls(), graph.click_of, graph.store.link_table.words_of, view_families(graph)
        )
        links = self._onward(position, walk.left_out, is_idle)
        due = graph.due()
        dropped = False
        if due:
            target, dropped = retest.next_retest(graph.store, position, set(links))
            if target is None:
                # The remembered map from here does not lead to what is due: go round by the start page.
                target = self.travel(position, set(due) - walk.left_out)
            if target is not None:
                tokens = self.context.tokens(position)
                return Choice(target, tokens, retesting=True, drop_walk=dropped)
        if not links and position != engine.start_route():
            # A dead end (no links we may follow): go back, to the page before or to the start, as a
            # person would — the page before still offers the links beside the one that led here.
            back = walk.previous if walk.previous not in (None, position) else None
            links = list(dict.fromkeys(r for r in (back, engine.start_route()) if r is not None))
        choice = self.policy.choose(self._decision(position, links, clicks, walk))
        if choice.route is None:
            # The policy sees nothing left (its view may be smaller than memory, or a page trapped
            # it): with pages known but unvisited, travel to them over the remembered link table.
            left = {r for r in self.context.unvisited() if self._may_visit(r, walk.left_out, is_idle)}
            target, via = self.travel_past_hubs(position, left)
            return Choice(target, choice.tokens, drop_walk=dropped, via=via)
        target, via = self.past_hubs(position, choice.route, clicks, walk, is_idle)
        if via is None and graph.is_explored(target) and not self._any_unvisited(walk.left_out, is_idle):
            # A trip back to a remembered page when memory knows nothing left to visit (the policy
            # may still head for a control learned to lead nowhere new): done, not a walk in circles.
            return Choice(None, choice.tokens, drop_walk=dropped)
        return Choice(target, choice.tokens, drop_walk=dropped, via=via)

    def _onward(self, page: str, failed: set[str], is_idle: Callable[[str, str], bool]) -> list[str]:
        engine = self.engine
        return [
            r for r in self.graph.links_of(page)
            if r != page and r not in failed and engine.followable(r) and not is_idle(r, page)
        ]  # fmt: skip

    def _decision(
        self, position: str, links: list[str], clicks: int, walk: Whereabouts, *, ahead: int = 0
    ) -> Decision:
        """The policy's view of a choice at `position`; `ahead` > 0 for a page the explorer is not on,
        reached that many clicks from now (the choice draws what it would draw standing there)."""
        graph = self.graph
        n = graph.step_count() + 1 + ahead
        return Decision(
            position=position,
            links=links,
            view=self.view,
            rnd=mulberry32(derive_seed(self.config.seed, n)),
            render_context=lambda: self.context.text(position),
            # a look-ahead's choice is asked of a policy without a model and its tokens are dropped
            # (`past_hubs`): no working context is weighed for it
            context_tokens=0 if ahead else self.context.tokens(position),
            step=n,
            budget_left=self.config.budget - clicks,
            last=walk.last,
            page_text=walk.last_text,
            actions=[Option(r, *self.hints.actions.get(r, ("link", ""))) for r in links],
            site_text=walk.site_text,
            planner=(
                self.hints.planner(
                    graph,
                    position,
                    links,
                    standing=not ahead,
                    start=self.engine.start_route(),
                    budget=self.config.budget,
                )
                if self.policy.reads_templates
                else None
            ),
        )

    def past_hubs(
        self, position: str, route: str, clicks: int, walk: Whereabouts, is_idle: Callable[[str, str], bool]
    ) -> tuple[str, str | None]:
        """Where a step back to a remembered page leads: reloading a page whose links memory holds
        (a hub on the way between two dead ends) finds nothing new, so the policy's plan is followed
        past it — asked what it would choose standing there, up to `MAX_HUB_HOPS` pages on — and the
        click goes straight to the first unvisited link the plan reaches. Returns (target, the page
        whose link it is, or None when the policy's own choice stands).

        Only for policies without a model (asking a model again costs a call) and a memory that
        keeps the visited set and the link table (an ablation must not see through the harness)."""
        memory = self.config.memory
        if self.policy.uses_model or not (memory.visited and memory.link_table) or memory.capacity:
            return route, None
        graph = self.graph
        # A remembered redirect (the site's root answering with its home page) is gone past as the
        # page it leads to: clicking it again is that page again, a repeat click.
        hop = graph.landing(route)
        if not graph.is_explored(hop):
            return route, None
        seen = {position}
        for ahead in range(1, MAX_HUB_HOPS + 1):
            # A click state is a hub like any page: an address it links to is fetched as it stands.
            if not graph.is_explored(hop) or hop in seen:
                break
            seen.add(hop)
            links = self._onward(hop, walk.left_out, is_idle)
            if not links:
                break
            nxt = self.policy.choose(self._decision(hop, links, clicks + ahead, walk, ahead=ahead)).route
            if nxt is None:
                break
            if not graph.is_visited(nxt):
                return nxt, hop
            hop = graph.landing(nxt)
        # The plan did not reach one: an unvisited link a state of that page showed (the page after a
        # click on it: a pager's next page, a "show all") is reached without redoing the click.
        # The page is the one `route` lands on: a start page redirecting to a single-page app's view
        # (`/admin` → `/admin#/blog/1`) holds its click states under the view it landed on.
        landed = graph.landing(route)
        # A click that changed the address (a script's menu pushing `#/people/1`) lands on that view.
        # The page landed on first: its own unvisited link when the plan went round its click states
        # (a script pager's pages, each a state the look-ahead may choose) instead.
        states = [
            graph.landing(s) for s, page, _ in graph.store.link_table.clicks() if page in (route, landed)
        ]
        for shown in dict.fromkeys([landed, *states] if landed != route else states):
            if graph.is_explored(shown):
                nxt = next(
                    (r for r in self._onward(shown, walk.left_out, is_idle) if not graph.is_visited(r)), None
                )
                if nxt is not None:
                    return nxt, shown
        return route, None

    def unvisited(self, failed: set[str]) -> list[str]:
        """Routes memory knows (linked from a remembered page) but has not visited, that may be clicked,
        did not fail this session, and are not controls learned to lead nowhere new; in link-table order."""
        is_idle = idle_test(
            self.graph.idle_controls(),
            self.graph.click_of,
            self.graph.store.link_table.words_of,
            view_families(self.graph),
        )
        left = {r for r in self.context.unvisited() if self._may_visit(r, failed, is_idle)}
        return [r for r in self.graph.linked() if r in left]

    def _any_unvisited(self, failed: set[str], is_idle: Callable[[str, str], bool]) -> bool:
        """Whether `unvisited` is not empty (it stops at the first such route)."""
        return any(self._may_visit(r, failed, is_idle) for r in self.context.unvisited())

    def _may_visit(self, route: str, failed: set[str], is_idle: Callable[[str, str], bool]) -> bool:
        """For a route known and not visited: may it be clicked (`unvisited`)?"""
        return (
            route not in failed
            and self.engine.followable(route)
            and any(not is_idle(route, src) for src in self.graph.store.link_table.linking_to(route))
        )

    def travel(self, position: str, goals: set[str]) -> str | None:
        """First click toward the nearest of `goals`: along a shortest path over the remembered links
        from here, else by way of the start page, else (the map does not lead there) directly.

        The search stops at the depth of the nearest goal: a trip costs the part of the map nearer
        than where it leads, not the whole map."""
        return self._travel(position, goals)[0]

    def travel_past_hubs(self, position: str, goals: set[str]) -> tuple[str | None, str | None]:
        """`travel`, going past remembered pages as `past_hubs` does: when every page on the way is
        explored, the nearest goal is opened directly as a link of the last one (a hub round trip, a
        page reloaded and a click redone to reach a link memory holds, costs clicks and finds
        nothing). Returns (target, the page whose link it is, or None)."""
        first, path = self._travel(position, goals)
        memory = self.config.memory
        if self.policy.uses_model or not (memory.visited and memory.link_table) or memory.capacity:
            return first, None
        graph = self.graph
        if path is None and first == self.engine.start_route():
            # Only the start page leads there, by way of a click a script's page must redo (a single-
            # page app's menu item showing another view, whose links memory holds): reloading the
            # start page is a repeat click per goal (ho12_yancy: 24 of 100). Paths of links alone are
            # left as they were.
            way = _nearest(first, goals, self._remembered())
            if way is not None and any(CLICK_MARK in r for r in way):
                path = way
        if path is None or len(path) < 3 or not all(graph.is_explored(graph.landing(r)) for r in path[1:-1]):
            return first, None
        return path[-1], path[-2]

    def _remembered(self) -> Callable[[str], list[str]]:
        table, followable = self.graph.store.link_table.table(), self.engine.followable
        return lambda src: [d for d in table.get(src, ()) if d != src and followable(d)]

    def _travel(self, position: str, goals: set[str]) -> tuple[str | None, list[str] | None]:
        """(first click, the whole path from `position` when the map leads there from here)."""
        goals = goals - {position}
        if not goals:
            return None, None
        table, followable = self.graph.store.link_table.table(), self.engine.followable

        def onward(src: str) -> list[str]:
            return [d for d in table.get(src, ()) if d != src and followable(d)]

        start = self.engine.start_route()
        for source in dict.fromkeys((position, start)):
            path = _nearest(source, goals, onward)
            if path is not None:
                return (path[1], path) if source == position else (start, None)
        return min(goals), None


def _nearest(source: str, goals: set[str], onward: Callable[[str], list[str]]) -> list[str] | None:
    """The path from `source` to the nearest of `goals` over `onward` (breadth-first in link order;
    among goals equally near, the least route), or None when none is reachable: the path `bfs_paths`
    finds, without searching past the nearest goal's depth."""
    depth: dict[str, int] = {source: 0}
    parent: dict[str, str] = {}
    found: list[str] = []
    for q, p in breadth_first(source, onward):
        if q != source:
            depth[q] = depth[p] + 1
            parent[q] = p
        if found and depth[q] > depth[found[0]]:
            break
        if q in goals:
            found.append(q)
    if not found:
        return None
    path = [min(found)]
    while path[-1] != source:
        path.append(parent[path[-1]])
    return path[::-1]
