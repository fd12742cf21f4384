"""The routes memory knows that are addresses (`ExplorationGraph.known_pages`), as a set kept up to
date from the store's writes: the planner's hints read which of them changed at every choice, and
listing them from the whole link table each time grew with the map (~20 ms a choice at 5,000 clicks on
a site of 14,678 pages).

It watches the store's in-memory copies as the working context's `views.ContextIndex` does: a write
names the routes it touched (a page's links, the routes it links to, a page visited or whose outcome
changed), and a dropped copy (`Changes.generation`) reads the whole set again.
"""

from __future__ import annotations

from collections.abc import Iterable

from .graph import CLICK_MARK, ExplorationGraph


class KnownPages:
    """`graph.known_pages()` as a set (`routes`), and what changed in it since the last `changes`."""

    def __init__(self, graph: ExplorationGraph) -> None:
        self.graph = graph
        self.routes: set[str] = set()
        self._generation = -1
        self._pending: set[str] = set()
        graph.store.changes.watchers.add(self)

    def touched(self, routes: Iterable[str]) -> None:
        self._pending.update(routes)

    def changes(self) -> tuple[set[str], set[str]]:
        """(routes now known that were not, routes known before that are not) since the last call;
        `routes` is brought up to date."""
        graph = self.graph
        generation = graph.store.changes.generation
        if self._generation != generation:
            old = self.routes
            self.routes = set(graph.known_pages())
            self._pending.clear()
            self._generation = generation
            return self.routes - old, old - self.routes
        added: set[str] = set()
        removed: set[str] = set()
        pending, self._pending = self._pending, set()
        routes = self.routes
        for r in pending:
            known = CLICK_MARK not in r and graph.is_known(r)
            if known and r not in routes:
                routes.add(r)
                added.add(r)
            elif not known and r in routes:
                routes.discard(r)
                removed.add(r)
        return added, removed
