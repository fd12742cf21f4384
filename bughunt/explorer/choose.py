"""Where to click next: the re-test walk while pages are due, else the policy's choice among the
current page's links, else travel over the remembered link table to what is left.

`Chooser.choose` reads memory and writes nothing: what it decides about the re-test walk (drop a plan
the site no longer matches) is written by the step it leads to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bughunt.planning import bfs_paths
from bughunt.sim.rng import derive_seed, mulberry32

from . import retest
from .config import SessionConfig
from .engine import Engine
from .graph import ExplorationGraph
from .harness import StepOutcome
from .hints import SessionHints
from .policies import Decision, Option, Policy
from .views import View, render_working_context


@dataclass(slots=True)
class Choice:
    """A route to load (None: nothing left), what choosing cost in tokens, whether it re-tests, and
    whether the planned re-test walk is to be dropped."""

    target: str | None
    tokens: int = 0
    retesting: bool = False
    drop_walk: bool = False


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
        # A link to the page itself (`#`, the same URL) is never progress; a route that failed this
        # session is left for the next one.
        links = [
            r for r in graph.links_of(position)
            if r != position and r not in walk.failed and engine.followable(r)
        ]  # fmt: skip
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
        n = graph.step_count() + 1
        decision = Decision(
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
            planner=self.hints.planner(graph, position, links) if self.policy.reads_templates else None,
        )
        choice = self.policy.choose(decision)
        if choice.route is None:
            # The policy sees nothing left (its view may be smaller than memory, or a page trapped
            # it): with pages known but unvisited, travel to them over the remembered link table.
            return Choice(
                self.travel(position, set(self.unvisited(walk.failed))), choice.tokens, drop_walk=dropped
            )
        return Choice(choice.route, choice.tokens, drop_walk=dropped)

    def unvisited(self, failed: set[str]) -> list[str]:
        """Routes memory knows (linked from a remembered page) but has not visited, that may be clicked
        and did not fail this session."""
        visited = set(self.graph.visited())
        return [
            r
            for r in self.graph.linked()
            if r not in visited and r not in failed and self.engine.followable(r)
        ]

    def travel(self, position: str, goals: set[str]) -> str | None:
        """First click toward the nearest of `goals`: along a shortest path over the remembered links
        from here, else by way of the start page, else (the map does not lead there) directly."""
        goals = goals - {position}
        if not goals:
            return None
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
                return paths[best][1] if source == position else start
        return min(goals)
