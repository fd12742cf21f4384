"""The ``planner`` exploration strategy: planning over what memory knows (see `bughunt.planning`).

It lives in the simulator's layer because the simulator runs it by name; `bughunt.planning` re-exports
it next to the planning used by the explorer's re-tests (shortest tours). It reads only a link table
(`KnownLinks`) and, when it has them, the shape of each node's URL.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

from .bfs import breadth_first
from .memory import KnownLinks
from .rng import Rng, pick

N = TypeVar("N", bound=Hashable)

TEMPLATE_SAMPLE = 2
"""Visited instances of a template (route shape, DOM structure) before the planner prefers other
templates: one covers it, a second samples its data (a list that breaks only past its first page)."""


class Planner:
    """The ``planner`` strategy; `with_routes` gives it each node's route when nodes are not routes.

    Called like any strategy: ``planner(cur, links, memory, rnd)``. Without a route table a node that
    is itself a route (a string starting with ``/``, as the web explorer's nodes are) is its own route;
    any other node has none and is judged by the link table alone.
    """

    __slots__ = ("routes", "template_of", "probes")

    def __init__(
        self,
        routes: Mapping[Hashable, str] | None = None,
        template_of: Callable[[str], str] | None = None,
        probes: frozenset[Hashable] = frozenset(),
    ) -> None:
        self.routes = routes
        self.template_of = template_of
        self.probes = probes

    def with_routes(self, routes: Mapping[Hashable, str]) -> Planner:
        return Planner(routes, self.template_of, self.probes)

    def with_templates(self, template_of: Callable[[str], str], probes: Iterable[Hashable] = ()) -> Planner:
        """The same planner judging templates by `template_of(route)` (the explorer's, which also
        reads the pages' DOM structure) instead of the URL shape alone. `probes` are nodes reached
        only with values the explorer made up (a GET form submitted with generated input): more data
        for a page already seen, so they wait like further instances of a sampled template."""
        return Planner(self.routes, template_of, frozenset(probes))

    def route(self, node: Hashable) -> str | None:
        if self.routes is not None:
            return self.routes.get(node)
        return node if isinstance(node, str) and node.startswith("/") else None

    def template(self, node: Hashable) -> str | None:
        """The node's template (route shape, or `template_of`'s); None for a node without a route."""
        route = self.route(node)
        if route is None:
            return None
        return self.template_of(route) if self.template_of is not None else route_shape(route)

    def __call__(self, cur: N, links: Sequence[N], memory: KnownLinks[N], rnd: Rng) -> N | None:
        """Next node: rarest unvisited neighbour, else the first step toward the best straggler; None when done."""
        remembered = _remembered(cur, links, memory)
        referrers: Counter[N] = Counter()
        for p in remembered:
            for q in memory.links(p):
                referrers[q] += 1
        if cur not in memory:
            for q in links:
                referrers[q] += 1
        covered = Counter(t for t in map(self.template, remembered) if t is not None)

        def sampled(q: N) -> bool:
            # Its template already has enough visited instances: the other templates come first.
            if q in self.probes:
                return True
            t = self.template(q)
            return t is not None and covered[t] >= TEMPLATE_SAMPLE

        fresh = [q for q in links if q not in memory]
        if fresh:
            here = self.route(cur)

            def rank(q: N) -> tuple[bool, int, bool]:
                return sampled(q), referrers[q], not leads_on(here, self.route(q))

            best_rank = min(rank(q) for q in fresh)
            return pick(rnd, [q for q in fresh if rank(q) == best_rank])
        dist, first = _reachable(cur, links, memory)
        targets = [q for q in dist if q != cur and q not in memory]
        if not targets:
            return None
        # straggle: the most other unvisited links any remembered referrer of the target has
        straggle: dict[N, int] = {}
        for p in remembered:
            unknown = [x for x in memory.links(p) if x not in memory]
            for q in unknown:
                straggle[q] = max(straggle.get(q, 0), len(unknown))
        keys = {q: (sampled(q), dist[q], straggle.get(q, 0), referrers[q]) for q in targets}
        best = min(keys.values())
        return first[pick(rnd, [q for q in targets if keys[q] == best])]


planner_strategy = Planner()


def leads_on(here: str | None, there: str | None) -> bool:
    """Does the link to `there` belong to the page at `here`, judging by the two URLs alone?

    True for a sub-path (``/x/y`` → ``/x/y/comments``), the next page of a numbered list (``/x/2`` →
    ``/x/3``, or the same path with one number in the query one higher) and a path that carries the
    current page's last segment, its identifier (``/x/b`` → ``/edit/b``). Such a link is usually
    found only on this page, so leaving it for later costs a return trip. The root leads on to
    nothing in particular: every path extends it.
    """
    if here is None or there is None:
        return False
    here_path, _, here_query = here.partition("?")
    there_path, _, there_query = there.partition("?")
    a, b = _segments(here_path), _segments(there_path)
    if not a:
        return False
    if len(b) > len(a) and b[: len(a)] == a:
        return True
    if len(a) == len(b) and a[:-1] == b[:-1] and _next_number(a[-1], b[-1]):
        return True
    if a == b:
        return _next_query_page(here_query, there_query)
    return a[-1] in b


_NUMBER = re.compile(r"^\d+$")
_ID = re.compile(r"^(?=[0-9a-fA-F-]*\d)[0-9a-fA-F]{8,}(?:-[0-9a-fA-F]{4,})*$")
_SLUG = re.compile(r"^[0-9A-Za-z]+(?:[-_.~][0-9A-Za-z]+)+$")


def _shape_value(value: str) -> str:
    if _NUMBER.match(value):
        return "<n>"
    if _ID.match(value):
        return "<id>"
    if _SLUG.match(value) and not value.replace(".", "").isalpha():
        return "<slug>"
    return value


def route_shape(route: str) -> str:
    """The route with its variable parts replaced, from the URL alone (no page needed)."""
    path, _, query = route.partition("?")
    segments = [_shape_value(s) if s else s for s in path.split("/")]
    shaped = "/".join(segments) or "/"
    if not query:
        return shaped
    params = []
    for pair in query.split("&"):
        key, eq, value = pair.partition("=")
        if not eq:
            params.append(key)
        elif _NUMBER.match(value):
            params.append(f"{key}=<n>")
        else:
            params.append(f"{key}=<slug>")
    return f"{shaped}?{'&'.join(params)}"


def _segments(path: str) -> tuple[str, ...]:
    return tuple(s for s in path.split("#")[0].split("/") if s)


def _next_number(a: str, b: str) -> bool:
    return a.isdigit() and b.isdigit() and int(b) == int(a) + 1


def _next_query_page(here: str, there: str) -> bool:
    """The same query but for one numeric value one higher (``?page=2`` → ``?page=3``)."""
    x, y = here.split("&") if here else [], there.split("&") if there else []
    if len(x) != len(y):
        return False
    diffs = [(p, q) for p, q in zip(x, y, strict=True) if p != q]
    if len(diffs) != 1:
        return False
    (p, q) = diffs[0]
    pk, _, pv = p.partition("=")
    qk, _, qv = q.partition("=")
    return pk == qk and _next_number(pv, qv)


def _remembered(cur: N, links: Sequence[N], memory: KnownLinks[N]) -> list[N]:
    """The remembered pages; a view that cannot list itself gives those reachable over known links."""
    if isinstance(memory, Iterable):
        return list(memory)
    dist, _ = _reachable(cur, links, memory)
    return [p for p in dist if p in memory]


def _reachable(cur: N, links: Sequence[N], memory: KnownLinks[N]) -> tuple[dict[N, int], dict[N, N]]:
    """BFS over the current page's links and remembered links: distance and first step to each node."""
    dist: dict[N, int] = {cur: 0}
    first: dict[N, N] = {}

    def known(p: N) -> Sequence[N]:
        if p == cur:
            return links
        return memory.links(p) if p in memory else ()  # an unvisited page's links are unknown

    for q, p in breadth_first(cur, known):
        if q != cur:
            dist[q] = dist[p] + 1
            first[q] = q if p == cur else first[p]
    return dist, first
