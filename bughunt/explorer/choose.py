"""Where to click next: the re-test walk while pages are due, else the policy's choice among the
current page's links, else travel over the remembered link table to what is left.

`Chooser.choose` reads memory and writes nothing: what it decides about the re-test walk (drop a plan
the site no longer matches) is written by the step it leads to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bughunt.page import FetchedPage
from bughunt.planning import bfs_paths
from bughunt.sim.rng import derive_seed, mulberry32

from . import retest
from .config import SessionConfig
from .engine import Engine
from .graph import ExplorationGraph
from .harness import StepOutcome
from .hints import SessionHints
from .idle_controls import idle_test
from .policies import Decision, Option, Policy
from .views import View, render_working_context

MAX_HUB_HOPS = 3
"""Remembered pages a choice may go past without reloading them (`Chooser.past_hubs`)."""


@dataclass(slots=True)
class Choice:
    """A route to load (None: nothing left), what choosing cost in tokens, whether it re-tests, and
    whether the planned re-test walk is to be dropped."""

    target: str | None
    tokens: int = 0
    retesting: bool = False
    drop_walk: bool = False
    via: str | None = None
    """The remembered page whose link `target` is, when the choice went past it without reloading it
    (`Chooser.past_hubs`); None when `target` is a link of the current position."""


@dataclass(slots=True)
class Whereabouts:
    """The session's walk so far, as the choice needs it."""

    previous: str | None = None
    """The page before the current position: where a Back leads from a dead end."""
    failed: set[str] = field(default_factory=set)
    """Routes whose fetch failed in this session (after retries): left for the next session."""
    last: StepOutcome | None = None
    last_text: str = ""
    site_text: list[str] = field(default_factory=list)
    """What the last response said besides its page text (headers, labels): for the note gate."""
    page: FetchedPage | None = None
    """The page loaded at the current position: what a GET clicked there is compared with."""


@dataclass(slots=True)
class Chooser:
    graph: ExplorationGraph
    engine: Engine
    policy: Policy
    config: SessionConfig
    hints: SessionHints
    view: View
    count: Callable[[str], int]

    def choose(self, position: str, clicks: int, walk: Whereabouts) -> Choice:
        graph, engine = self.graph, self.engine
        # A link to the page itself (`#`, the same URL) is never progress, nor is a control learned to
        # lead nowhere new (`idle_controls`); a route that failed this session is left for the next one.
        is_idle = idle_test(graph.idle_controls(), graph.click_of)
        links = self._onward(position, walk.failed, is_idle)
        due = graph.due()
        dropped = False
        if due:
            target, dropped = retest.next_retest(graph.store, position, set(links))
            if target is None:
                # The remembered map from here does not lead to what is due: go round by the start page.
                target = self.travel(position, set(due) - walk.failed)
            if target is not None:
                tokens = self.count(render_working_context(graph.store, position, self.config.memory))
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
            target, via = self.travel_past_hubs(position, set(self.unvisited(walk.failed)))
            return Choice(target, choice.tokens, drop_walk=dropped, via=via)
        target, via = self.past_hubs(position, choice.route, clicks, walk, is_idle)
        if via is None and target in self._explored() and not self.unvisited(walk.failed):
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
            working_context=render_working_context(graph.store, position, self.config.memory),
            step=n,
            budget_left=self.config.budget - clicks,
            last=walk.last,
            page_text=walk.last_text,
            actions=[Option(r, *self.hints.actions.get(r, ("link", ""))) for r in links],
            site_text=walk.site_text,
            planner=(
                self.hints.planner(graph, position, links, standing=not ahead)
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
        explored = self._explored()
        if route not in explored:
            return route, None
        visited = set(graph.visited())
        seen = {position}
        hop = route
        for ahead in range(1, MAX_HUB_HOPS + 1):
            # A click state is a hub like any page: an address it links to is fetched as it stands.
            if hop not in explored or hop in seen:
                break
            seen.add(hop)
            links = self._onward(hop, walk.failed, is_idle)
            if not links:
                break
            nxt = self.policy.choose(self._decision(hop, links, clicks + ahead, walk, ahead=ahead)).route
            if nxt is None:
                break
            if nxt not in visited:
                return nxt, hop
            hop = nxt
        # The plan did not reach one: an unvisited link a state of that page showed (the page after a
        # click on it: a pager's next page, a "show all") is reached without redoing the click.
        for state, page, _ in graph.store.link_table.clicks():
            if page == route and state in explored:
                nxt = next((r for r in self._onward(state, walk.failed, is_idle) if r not in visited), None)
                if nxt is not None:
                    return nxt, state
        return route, None

    def _explored(self) -> set[str]:
        return set(self.graph.explored())

    def unvisited(self, failed: set[str]) -> list[str]:
        """Routes memory knows (linked from a remembered page) but has not visited, that may be clicked,
        did not fail this session, and are not controls learned to lead nowhere new."""
        visited = set(self.graph.visited())
        is_idle = idle_test(self.graph.idle_controls(), self.graph.click_of)
        onward = {d for src, dsts in self.graph.link_table().items() for d in dsts if not is_idle(d, src)}
        return [
            r
            for r in self.graph.linked()
            if r in onward and r not in visited and r not in failed and self.engine.followable(r)
        ]

    def travel(self, position: str, goals: set[str]) -> str | None:
        """First click toward the nearest of `goals`: along a shortest path over the remembered links
        from here, else by way of the start page, else (the map does not lead there) directly."""
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
        if path is None or len(path) < 3 or not set(path[1:-1]) <= self._explored():
            return first, None
        return path[-1], path[-2]

    def _travel(self, position: str, goals: set[str]) -> tuple[str | None, list[str] | None]:
        goals = goals - {position}
        if not goals:
            return None, None
        graph = {
            src: [d for d in dsts if d != src and self.engine.followable(d)]
            for src, dsts in self.graph.link_table().items()
        }
        start = self.engine.start_route()
        for source in dict.fromkeys((position, start)):
            paths = bfs_paths(graph, source)
            reachable = [g for g in goals if g in paths]
            if reachable:
                best = min(reachable, key=lambda g: (len(paths[g]), g))
                return (paths[best][1], paths[best]) if source == position else (start, None)
        return min(goals), None
