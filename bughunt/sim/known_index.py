"""`KnownIndex`: what the planner reads of a whole memory at every choice (referrers, first-page aliases,
known unvisited nodes by template, linkers), kept in step with the memory as it grows.

Cut from `planner` (a pure move): the index is the planner's cost model, its policy is not."""

from __future__ import annotations

import re
import weakref
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from itertools import islice
from typing import Any, Generic, TypeVar

from .first_page_aliases import FirstPageAliases
from .memory import Memory
from .route_keys import page_key
from .route_shapes import route_shape

N = TypeVar("N", bound=Hashable)


def _route(routes: Mapping[Hashable, str] | None, node: Hashable) -> str | None:
    if routes is not None:
        return routes.get(node)
    return node if isinstance(node, str) and node.startswith("/") else None


_FIRST = re.compile(r"(?:^|&)[^&=]*=[01](?:&|$)")
"""A query with a parameter whose value is 0 or 1: the only routes `FirstPageAliases` can call first-page
aliases (one of several parameters may be an alias in another order: `KnownIndex._by_key`)."""


class KnownIndex(Generic[N]):
    """What the planner reads of a whole memory at every choice, kept in step with it: how many
    remembered pages link to each node (`referrers`; a node is known while one does) and the first-page
    alias check's inputs (`FirstPageAliases`), the known unvisited nodes (also by template: `buckets`) and
    the remembered pages linking to each node (`linkers`). Each choice adds what memory gained since the last
    (`sync`; a memory grows at its end, and a page visited again may show other links: `Memory.replaced`),
    so a choice no longer costs O(known links) here; any other change (an evicted page, a page moved
    to the end of an `lru` memory) rebuilds the index."""

    __slots__ = (
        "memory", "routes", "_items", "referrers", "_aliases", "_candidates", "_covered", "_template_of",
        "_followed", "unvisited", "linkers", "_log", "bucket_of", "_buckets", "_bucketed", "_by_path",
        "_stale", "_alias_true", "_rewrites", "_by_key", "open_links",
    )  # fmt: skip

    def __init__(self, memory: Memory[N], routes: Mapping[Hashable, str] | None) -> None:
        self.memory, self.routes = weakref.ref(memory), routes  # the index never keeps a memory alive
        self._items: list[tuple[N, Sequence[N]]] = []
        self._rewrites = memory.rewrites
        memory.replaced.clear()  # this index counts every page's links as they are now
        self.referrers: Counter[N] = Counter()
        self._aliases = FirstPageAliases()
        self._candidates: dict[N, str] = {}
        # A candidate's answer reads only the seen pages and siblings of its own path: kept per
        # candidate, asked again when its path gained one (`_stale`), not for every candidate each choice.
        self._by_path: dict[str, list[N]] = {}
        self._stale: set[str] = set()
        self._alias_true: set[N] = set()
        # Routes of several parameters not yet seen in another order, by their (path, sorted pairs):
        # each becomes an alias when a page of that key is remembered, without asking every choice.
        self._by_key: dict[tuple[str, tuple[tuple[str, str], ...]], list[N]] = {}
        self._covered: Counter[str] = Counter()
        self._template_of: dict[N, str] = {}
        self._followed: tuple[object, int, int, int] = (None, -1, 0, 0)
        # known nodes not remembered, in the order first linked (a dict as an ordered set), and the
        # remembered pages linking to each node: what a trip's search and its stragglers read
        self.unvisited: dict[N, None] = {}
        self.linkers: dict[N, list[N]] = {}
        # each remembered page's links (as many times as it links) to nodes not remembered: a trip's
        # stragglers are weighed by it, and counting it again at every such choice read each
        # referrer's whole link list
        self.open_links: dict[N, int] = {}
        self._log: list[tuple[N, bool]] = []  # (node, became unvisited / was remembered), in order
        self.bucket_of: dict[N, str | None] = {}
        self._buckets: dict[str | None, dict[N, None]] = {}
        self._bucketed: tuple[object, int, int, int] = (None, -1, 0, 0)

    def sync(self) -> None:
        memory = self.memory()
        if memory is None:
            return
        old = len(self._items)
        if memory.rewrites == self._rewrites and len(memory) >= old:
            # only added at the end since the last look (`Memory.rewrites`), or links replaced
            # (`Memory.replaced`)
            new = list(islice(memory.items(), old, None))
            replaced = dict(memory.replaced)
            memory.replaced.clear()
        else:
            self.__init__(memory, self.routes)  # type: ignore[misc]
            new, replaced = list(memory.items()), {}
        linkers, open_links = self.linkers, self.open_links
        # a page now remembered is no longer an open link of the pages remembered before that link it
        # (those remembered with it count it as remembered already: memory holds them all)
        for p, _ in new:
            for linker in linkers.get(p, ()):
                open_links[linker] -= 1
        if replaced:
            # a page remembered since the last look is counted below with its links as they are now
            added = {p for p, _ in new}
            for p, before in replaced.items():
                if p in added:
                    continue
                # only what changed is taken back and counted: the links every page shows stay put
                now, was = Counter(memory[p]), Counter(before)
                self._unlink(p, (was - now).elements(), memory)
                self._link(p, (now - was).elements(), memory)
                open_links[p] = sum(1 for q in memory[p] if q not in memory)
        for p, links in new:
            unvisited = self.unvisited
            if p in unvisited:
                del unvisited[p]
                self._log.append((p, False))
            r = _route(self.routes, p)
            if r is not None:
                self._aliases.add_seen(r)
                self._aliases.add_sibling(r)
                self._stale.add(r.partition("?")[0])
                self._alias_true.update(self._by_key.pop(page_key(r), ()))
            open_links[p] = self._link(p, links, memory)
        self._items.extend(new)

    def _link(self, p: N, links: Iterable[N], memory: Memory[N]) -> int:
        """Count links of remembered page `p`: their referrers and linkers, the unvisited ones, the
        candidate aliases among them. Returns how many lead to pages not remembered."""
        aliases, candidates, referrers, routes = self._aliases, self._candidates, self.referrers, self.routes
        unvisited, linkers, log, stale = self.unvisited, self.linkers, self._log, self._stale
        opened = 0
        for q in links:
            referrers[q] += 1
            linkers.setdefault(q, []).append(p)
            if q not in memory:
                opened += 1
                if q not in unvisited:
                    unvisited[q] = None
                    log.append((q, True))
            if referrers[q] == 1 and (rq := _route(routes, q)) is not None and "?" in rq:
                aliases.add_sibling(rq)
                path, _, query = rq.partition("?")
                stale.add(path)
                if _FIRST.search(query):
                    candidates[q] = rq
                    self._by_path.setdefault(path, []).append(q)
                if "&" in query:
                    if aliases.seen_in_another_order(rq):
                        self._alias_true.add(q)
                    else:
                        self._by_key.setdefault(page_key(rq), []).append(q)
        return opened

    def _unlink(self, p: N, links: Iterable[N], memory: Memory[N]) -> None:
        """Take back what `_link` counted of links `p` no longer shows: a node no page links any more
        is no longer known. (The alias check's inputs only grow: a route seen once stays a sibling.)"""
        referrers, linkers, unvisited = self.referrers, self.linkers, self.unvisited
        for q in links:
            referrers[q] -= 1
            linkers[q].remove(p)
            if not referrers[q]:
                del referrers[q], linkers[q]
                if q in unvisited and q not in memory:
                    del unvisited[q]
                    self._log.append((q, False))

    def _follow(
        self, template_of: Callable[[str], str] | None
    ) -> tuple[Callable[[str], str], int, list[Any]] | None:
        """(the template function, its epoch, the routes it says changed their template), or None when
        a kept table cannot follow it: a route table of its own, or a function without `epoch` and
        `changed` (the planner then counts afresh)."""
        if self.routes is not None:
            return None
        fn: Callable[[str], str] = route_shape if template_of is None else template_of
        epoch: object = 0 if template_of is None else getattr(template_of, "epoch", None)
        changed: object = [] if template_of is None else getattr(template_of, "changed", None)
        if not isinstance(epoch, int) or not isinstance(changed, list):
            return None
        return fn, epoch, changed

    def covered(self, template_of: Callable[[str], str] | None) -> Counter[str] | None:
        """How many remembered pages are of each template: as the planner counts them, from the pages
        remembered since the last call and the routes `template_of` says changed their template. None
        when it cannot tell (no `epoch` and `changed`, as `bughunt.explorer.templates.Templates` has):
        the planner counts them itself."""
        reading = self._follow(template_of)
        if reading is None:
            return None
        fn, epoch, changed = reading
        covered, of = self._covered, self._template_of
        followed, was_epoch, read, counted = self._followed
        if followed is not template_of or was_epoch != epoch:
            covered.clear()
            of.clear()
            read = counted = 0
        for route in changed[read:]:
            old = of.get(route)
            if old is not None:
                covered[old] -= 1
                of[route] = template = fn(route)
                covered[template] += 1
        for p, _links in self._items[counted:]:
            r = _route(None, p)
            if r is not None:
                of[p] = template = fn(r)
                covered[template] += 1
        self._followed = (template_of, epoch, len(changed), len(self._items))
        return covered

    def buckets(self, template_of: Callable[[str], str] | None) -> dict[str | None, dict[N, None]] | None:
        """The known unvisited nodes by template (None: a node without a route), kept as `covered`
        keeps its counts: the nodes gained or remembered since the last call, the routes `template_of`
        says changed their template, all afresh when its epoch moves. None when it cannot tell."""
        reading = self._follow(template_of)
        if reading is None:
            return None
        fn, epoch, changed = reading
        buckets, of = self._buckets, self.bucket_of

        def put(q: N) -> None:
            r = _route(None, q)
            of[q] = t = None if r is None else fn(r)
            buckets.setdefault(t, {})[q] = None

        followed, was_epoch, read, logged = self._bucketed
        if followed is not template_of or was_epoch != epoch:
            buckets.clear()
            of.clear()
            for q in self.unvisited:
                put(q)
        else:
            for q, added in self._log[logged:]:
                if q in of:
                    del buckets[of.pop(q)][q]
                if added:
                    put(q)
            for route in changed[read:]:
                if route in of:
                    del buckets[of.pop(route)][route]
                    put(route)
        self._bucketed = (template_of, epoch, len(changed), len(self._log))
        return buckets

    def aliases(self) -> set[N]:
        """`Planner._aliases` of the memory (the current page remembered)."""
        memory, alias = self.memory(), self._aliases
        if memory is None:
            return set()
        true, candidates = self._alias_true, self._candidates
        for path in self._stale:
            for q in self._by_path.get(path, ()):
                if alias(candidates[q]):
                    true.add(q)
                else:
                    true.discard(q)
        self._stale.clear()
        return {q for q in true if q not in memory}
