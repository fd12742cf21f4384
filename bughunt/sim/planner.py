"""The ``planner`` exploration strategy: planning over what memory knows (see `bughunt.planning`).

It lives in the simulator's layer because the simulator runs it by name; `bughunt.planning` re-exports
it next to the planning used by the explorer's re-tests (shortest tours). It reads only a link table
(`KnownLinks`) and, when it has them, the shape of each node's URL.
"""

from __future__ import annotations

import re
import weakref
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import islice
from typing import Any, Generic, TypeVar, cast

from .bfs import breadth_first
from .memory import KnownLinks, Memory
from .rng import Rng, pick
from .route_keys import page_key, query_pairs

N = TypeVar("N", bound=Hashable)
Rank = tuple[bool, int, bool, bool, int, bool]
"""A fresh link's rank in a choice: an alias, its sampled level, not a click to the next page of this
list, not leading on from here, its referrers, not listed."""

TEMPLATE_SAMPLE = 2
"""Visited instances of a template (route shape, DOM structure) before the planner prefers other
templates: one covers it, a second samples its data (a list that breaks only past its first page)."""


PAGE_KEYS = frozenset({"page", "p", "pg", "pagenum", "page_number"})
"""Query parameters that name a page of a list (`?page=3`)."""

_PREFIXED_PAGE = re.compile(r"^page[_\-.](?!(?:size|count|length|limit|len)$)\w+$", re.I)
"""A page parameter named for one of several lists on a page (`?page_contacts=2`, `?page-comments=3`),
not the size of one (`page_size`)."""


@lru_cache(maxsize=8192)
def is_page_key(key: str) -> bool:
    """Whether a query parameter names a page of a list: one of `PAGE_KEYS`, or one prefixed for a
    list of its own (`page_<list>`, as sites with several paged lists on one page name them)."""
    return key.lower() in PAGE_KEYS or bool(_PREFIXED_PAGE.match(key))


OFFSET_KEYS = frozenset({"offset", "start", "first", "skip", "from", "startwith", "startindex", "startat"})
"""Query keys an offset pager counts rows with (`?offset=20`, DokuWiki's `?first=20`), not pages: the
next page has a higher value, by a page's length."""

_KEY_MARKS = re.compile(r"[@$:_\-]")


@lru_cache(maxsize=8192)
def is_offset_key(key: str) -> bool:
    """Whether a query parameter counts the rows a page starts at: one of `OFFSET_KEYS`, however the
    framework marks or joins it (Roundup's `@startwith`, OData's `$skip`, `start_index`)."""
    return _KEY_MARKS.sub("", key.lower()) in OFFSET_KEYS


QUERY_VIEWS = 3
"""Visited views of one path (the path alone, `?genre=<slug>`, `?sortBy=<slug>&sort=<slug>`: its
query keys, a page number aside) after which another view, or another filter value of one, is the
same state again (`sampled` 2), not a page type to sample: a list's sort, filter and page-size keys
combine into dozens of key sets, each a "new" shape, while the list's records and their own pages
wait. The pages of a visited view stay wanted as instances (page 3 after page 2: the data changes)."""


def _view(template: str) -> tuple[str, frozenset[str]]:
    """A template's path and the query keys that choose what its list shows (a page number aside:
    `?genre=<slug>&page=<n>` is the `genre` view, on another page)."""
    path, _, query = template.partition("?")
    pairs = [pair.partition("=") for pair in query.split("&") if pair]
    if front_controller(path):
        # A front controller's page type is its path (`/doku.php?do=search`), its other keys the view.
        words = [f"{k}={v}" for k, _, v in pairs if v and not v.startswith("<")]
        path += "?" + "&".join(words) if words else ""
        pairs = [(k, eq, v) for k, eq, v in pairs if not v or v.startswith("<")]
    return path, frozenset(k for k, _, _ in pairs if not is_page_key(k))


@lru_cache(maxsize=8192)
def kind_keys(template: str) -> tuple[str, ...]:
    """The keys under which `template` is one kind of page with the same action of other sections:
    its path with one segment before the last that names a section (a word, a hyphenated word)
    replaced by `*`, when the last segment is a literal (`/feedings/add/` and `/sleep/add/` are both `/*/add/`; `/a/<n>/edit` and `/b/<n>/edit`
    both `/*/<n>/edit`). A path ending in a value (`/a/<n>`: a record) or of one segment (a section's
    own page) has none: records and sections are what differs; one section's form, edit or delete
    page is the others' again, with other field names."""
    path, sep, query = template.partition("?")
    parts = path.split("/")
    placed = [i for i, s in enumerate(parts) if s]
    if "#" in template or len(placed) < 2 or not _literal(parts[placed[-1]]):
        return ()
    keys = []
    for i in placed[:-1]:
        if _section(parts[i]):
            keys.append("/".join([*parts[:i], "*", *parts[i + 1 :]]) + sep + query)
    return tuple(keys)


def _literal(segment: str) -> bool:
    return "<" not in segment and not segment.isdigit()


def _section(segment: str) -> bool:
    """A segment a section may be named by: a word, or a hyphenated one (`tummy-time`, shaped `<slug>`)."""
    return _literal(segment) or segment == "<slug>"


class QueryViews:
    """What the visited templates show of each path: its views (`_view` of every visited template)
    and the kinds of page they are (`kind_keys`)."""

    __slots__ = ("seen", "per_path", "kinds")

    def __init__(self, covered: Mapping[str, int]) -> None:
        visited = [t for t, n in covered.items() if n > 0]
        self.seen = {_view(t) for t in visited}
        self.per_path = Counter(path for path, _ in self.seen)
        self.kinds = Counter(key for t in visited for key in kind_keys(t))

    def level(self, template: str, seen: int, samples: int) -> int | None:
        """2 for a template of a path viewed `QUERY_VIEWS` ways already that is a new view of it, or
        one more filter value of a sampled view (the same records, chosen again); 1 for a template
        not visited of a kind `TEMPLATE_SAMPLE` visited templates of other sections are (`kind_keys`:
        a third form of one kind waits, as a third instance of a template does, for the kinds of page
        not seen yet); else None."""
        path, keys = _view(template)
        viewed = ("?" in template or bool(keys)) and self.per_path[path] >= QUERY_VIEWS
        if viewed and ((path, keys) not in self.seen or (keys and seen >= samples)):
            return 2
        if seen == 0 and any(self.kinds[key] >= TEMPLATE_SAMPLE for key in kind_keys(template)):
            return 1
        return None


class Planner:
    """The ``planner`` strategy; `with_routes` gives it each node's route when nodes are not routes.

    Called like any strategy: ``planner(cur, links, memory, rnd)``. Without a route table a node that
    is itself a route (a string starting with ``/``, as the web explorer's nodes are) is its own route;
    any other node has none and is judged by the link table alone.
    """

    __slots__ = (
        "routes", "template_of", "probes", "samples", "popularity", "saturated", "listed", "variants",
        "next_pages", "start", "_indexes",
    )  # fmt: skip

    def __init__(
        self,
        routes: Mapping[Hashable, str] | None = None,
        template_of: Callable[[str], str] | None = None,
        probes: frozenset[Hashable] = frozenset(),
        samples: Mapping[str, int] | None = None,
        popularity: Mapping[Any, int] | None = None,  # keyed by node (Mapping is invariant in its key)
        saturated: frozenset[str] = frozenset(),
        listed: frozenset[Hashable] = frozenset(),
        variants: frozenset[Hashable] = frozenset(),
        next_pages: frozenset[Hashable] = frozenset(),
        start: Hashable | None = None,
    ) -> None:
        self.routes = routes
        self.template_of = template_of
        self.probes = probes
        self.samples = samples or {}
        self.popularity = popularity or {}
        self.saturated = saturated
        self.listed = listed
        self.variants = variants
        self.next_pages = next_pages
        self.start = start
        # The `KnownIndex` of the memory last planned over, shared by every planner derived from this
        # one (`with_routes`, `with_templates`: one per choice), so it outlives a choice.
        self._indexes: list[KnownIndex[Any]] = []

    def _derived(self, planner: Planner) -> Planner:
        planner._indexes = self._indexes
        return planner

    def _index(self, cur: Hashable, memory: KnownLinks[Any]) -> KnownIndex[Any] | None:
        """The memory's index, brought up to date; None for a memory it cannot follow (a view that
        is not a `Memory`, or one that has not remembered the current page yet)."""
        if not isinstance(memory, Memory) or cur not in memory:
            return None
        indexes = self._indexes
        if not indexes or indexes[0].memory() is not memory or indexes[0].routes is not self.routes:
            indexes[:] = [KnownIndex(memory, self.routes)]
        index = indexes[0]
        index.sync()
        return index

    def with_routes(self, routes: Mapping[Hashable, str]) -> Planner:
        return self._derived(
            Planner(
                routes,
                self.template_of,
                self.probes,
                self.samples,
                self.popularity,
                self.saturated,
                self.listed,
                self.variants,
                self.next_pages,
                self.start,
            )
        )

    def with_templates(
        self,
        template_of: Callable[[str], str],
        probes: Iterable[Hashable] = (),
        samples: Mapping[str, int] | None = None,
        popularity: Mapping[Any, int] | None = None,  # keyed by node (Mapping is invariant in its key)
        saturated: Iterable[str] = (),
        listed: Iterable[Hashable] = (),
        variants: Iterable[Hashable] = (),
        next_pages: Iterable[Hashable] = (),
        start: Hashable | None = None,
    ) -> Planner:
        """The same planner judging templates by `template_of(route)` (the explorer's, which also
        reads the pages' DOM structure) instead of the URL shape alone. `probes` are nodes reached
        only with values the explorer made up (a GET form submitted with generated input): more data
        for a page already seen, so they wait like further instances of a sampled template.
        `samples` overrides `TEMPLATE_SAMPLE` for some templates: one instance samples a fragment (an
        HTMX partial, a state of the page it is swapped into rather than a page type), a template
        guessed from link positions alone may want one more. `popularity` counts how often the pages seen so far link to each node: among
        instances of one template the most linked (the busiest author, the most used tag) is the one
        most likely to hold enough data to break, so it is taken first. `saturated` templates showed
        one DOM structure on every visited instance (at least two): further instances wait until the
        templates whose instances differ (the data changes the page) are sampled. `listed` are the
        current page's links from the items of its lists (previews, rows), not from its navigation:
        among links that rank alike they come first, since the navigation is on every page and can
        wait while a page's own items are reachable from it (and are where its data is). `variants`
        are the own links of a page whose DOM breaks the structure its template's other instances
        share (your own profile among others' profiles; the explorer's `_variant_items`): such a page
        relates to the session differently, and so, most likely, do the pages only it links to (your
        own articles, with their edit and delete actions). Each is wanted like an instance of an
        unsampled template. `next_pages` are the current page's clicks to the next page of its list
        where the list has no addresses (a pager of buttons that swaps the table in place): wanted
        like an unsampled template and before the page's other links, since the page's click states
        are one template and its pager would wait behind every row's buttons. `start` is the
        session's start page: when memory knows a page of a type sampled less than any link here
        offers, and no known link from here leads to it (a second project's pages, linked only from
        its own pages, once the session has moved into the first), the walk goes back to the start
        page when that page leads there, as a person would, rather than open every further instance
        of the types here."""
        return self._derived(
            Planner(
                self.routes,
                template_of,
                frozenset(probes),
                samples,
                popularity,
                frozenset(saturated),
                frozenset(listed),
                frozenset(variants),
                frozenset(next_pages),
                start,
            )
        )

    def route(self, node: Hashable) -> str | None:
        return _route(self.routes, node)

    def template(self, node: Hashable) -> str | None:
        """The node's template (route shape, or `template_of`'s); None for a node without a route."""
        route = self.route(node)
        if route is None:
            return None
        return self.template_of(route) if self.template_of is not None else route_shape(route)

    def __call__(self, cur: N, links: Sequence[N], memory: KnownLinks[N], rnd: Rng) -> N | None:
        """Next node: rarest unvisited neighbour, else the first step toward the best straggler; None when done."""
        index = self._index(cur, memory)
        if index is not None:
            return self._indexed(cur, links, memory, rnd, index)
        # A memory the planner cannot index: everything counted afresh (the reference `_indexed` answers as).
        remembered = _remembered(cur, links, memory)
        referrers: Counter[N] = Counter()
        for p in remembered:
            for q in memory.links(p):
                referrers[q] += 1
        if cur not in memory:
            for q in links:
                referrers[q] += 1
        # Each node's template is asked for again and again below (every remembered page, every node
        # reachable): computed once per choice.
        templates: dict[N, str | None] = {}

        def template(q: N) -> str | None:
            if q not in templates:
                templates[q] = self.template(q)
            return templates[q]

        covered = Counter(t for t in map(template, remembered) if t is not None)
        # What is reachable over known links, found at most once per choice (both the check for a
        # better page elsewhere and the trip there need it).
        reach: list[tuple[dict[N, int], dict[N, N]]] = []

        def reachable() -> tuple[dict[N, int], dict[N, N]]:
            if not reach:
                reach.append(_reachable(cur, links, memory))
            return reach[0]

        sampled = self._sampled(template, covered, QueryViews(covered))

        again = self._aliases(cur, remembered, referrers)
        fresh = [q for q in links if q not in memory]
        if fresh:
            ranks, best_rank, stay = self._ranks(cur, fresh, again, sampled, referrers)
            if stay or not _better_elsewhere(cur, reachable()[0], memory, again, sampled, best_rank[1]):
                level = best_rank[1]

                def better(q: N) -> bool:
                    return q not in memory and q not in again and sampled(q) < level

                if not stay and (home := self._home(cur, memory, better)) is not None:
                    return home
                best = [q for q in fresh if ranks[q] == best_rank]
                if self.popularity:
                    best = self._most_linked(fresh, ranks, best_rank, template)
                return pick(rnd, best)
            # Every link here is one more instance of a page type already seen, while memory knows
            # a page of a type seen less (or not at all): that one first.
        dist, first = reachable()
        targets = [q for q in dist if q != cur and q not in memory]
        if not targets:
            return None
        # straggle: the most other unvisited links any remembered referrer of the target has
        straggle: dict[N, int] = {}
        for p in remembered:
            unknown = [x for x in memory.links(p) if x not in memory]
            for q in unknown:
                straggle[q] = max(straggle.get(q, 0), len(unknown))
        keys = {q: (q in again, sampled(q), dist[q], straggle.get(q, 0), referrers[q]) for q in targets}
        nearest = min(keys.values())
        return first[pick(rnd, [q for q in targets if keys[q] == nearest])]

    def _indexed(
        self, cur: N, links: Sequence[N], memory: KnownLinks[N], rnd: Rng, index: KnownIndex[Any]
    ) -> N | None:
        """`__call__` over a memory its `KnownIndex` follows: the same choice, at the cost of what it
        must look at rather than of all memory. Whether a better page is known elsewhere is first asked
        of the known unvisited nodes (no search when none is), and the search over known links stops
        at the first node that answers it; a trip's search stops at the first layer holding a target
        of the best kind any known unvisited node has (nearer layers hold none, farther ones are
        farther), and the stragglers are counted for that layer's targets alone."""
        referrers: Counter[N] = index.referrers  # read only
        buckets = index.buckets(self.template_of)
        # the index knows the template of every known unvisited node (what the searches ask about)
        kept: Mapping[N, str | None] = index.bucket_of if buckets is not None else {}
        templates: dict[N, str | None] = {}

        def template(q: N) -> str | None:
            if q in kept:
                return kept[q]
            if q not in templates:
                templates[q] = self.template(q)
            return templates[q]

        covered = index.covered(self.template_of)
        if covered is None:
            covered = Counter(t for t in map(template, memory) if t is not None)  # type: ignore[call-overload]
        views = QueryViews(covered)
        sampled = self._sampled(template, covered, views)
        again: set[N] = index.aliases()
        fresh = [q for q in links if q not in memory]
        # Every known unvisited node: the targets a search can reach are among these. The least
        # `sampled` of those not aliases, and of the aliases (3: none), from the index's per-template
        # sets when it keeps them (a template's members share its level but for probes and variants).
        extra = [q for q in fresh if q not in index.unvisited]
        least = [3, 3]  # [not an alias, an alias]
        if buckets is None:
            nodes: Iterable[N] = [*index.unvisited, *extra]
        else:
            special = self.probes | self.variants
            nodes = [*(cast(N, q) for q in special if q in index.unvisited), *extra]
            for t, members in buckets.items():
                if not members:
                    continue
                level = 0 if t is None else self._sampled_template(t, covered, views)
                if level >= least[0] and level >= least[1]:
                    continue
                for q in members:
                    if q in special:
                        continue
                    if q in again:
                        least[1] = min(least[1], level)
                    else:
                        least[0] = min(least[0], level)
                        break
        for q in nodes:
            if q not in memory:
                alias = q in again
                least[alias] = min(least[alias], sampled(q))
        search = _Search(cur, links, memory)
        if fresh:
            ranks, best_rank, stay = self._ranks(cur, fresh, again, sampled, referrers)
            level = best_rank[1]

            def better(q: N) -> bool:
                return q not in memory and q not in again and sampled(q) < level

            if stay or not (least[0] < level and search.find(better)):
                if not stay and least[0] < level and (home := self._home(cur, memory, better)) is not None:
                    return home
                best = [q for q in fresh if ranks[q] == best_rank]
                if self.popularity:
                    best = self._most_linked(fresh, ranks, best_rank, template)
                return pick(rnd, best)
        if least == [3, 3]:
            return None
        bound = (False, least[0]) if least[0] < 3 else (True, least[1])
        layer = search.layer_with(lambda q: q not in memory and (q in again, sampled(q)) == bound)
        if layer is None:  # no target of that kind is reachable: every target is weighed
            targets = [q for q in search.dist if q != cur and q not in memory]
        else:
            targets = layer
        if not targets:
            return None
        unknown: dict[N, int] = {}

        def straggle(q: N) -> int:
            # the most other unvisited links any remembered referrer of the target has
            most = 0
            for p in index.linkers.get(q, ()):
                if p not in unknown:
                    unknown[p] = sum(1 for x in memory.links(p) if x not in memory)
                most = max(most, unknown[p])
            return most

        dist = search.dist
        keys = {q: (q in again, sampled(q), dist[q], straggle(q), referrers[q]) for q in targets}
        nearest = min(keys.values())
        return search.first[pick(rnd, [q for q in targets if keys[q] == nearest])]

    def _home(self, cur: N, memory: KnownLinks[N], better: Callable[[N], bool]) -> N | None:
        """The start page, when memory knows its links, it is not the current page, and a `better`
        node is reachable from it over known links (the caller found none reachable from here)."""
        start = cast(N, self.start)
        if start is None or start == cur or start not in memory:
            return None
        return start if _Search(start, memory.links(start), memory).find(better) else None

    def _ranks(
        self, cur: N, fresh: Sequence[N], again: Collection[N], sampled: Callable[[N], int],
        referrers: Mapping[N, int],
    ) -> tuple[dict[N, Rank], Rank, bool]:  # fmt: skip
        """Each fresh link's rank (lower is better), the best rank, and whether to stay: take a link
        from here rather than look for a better page elsewhere."""
        here = self.route(cur)

        # A link that leads on from here (this page's tab, its next page) before a rarer one: the
        # rarer one is an item other lists show too, this one hangs off this page alone.
        def rank(q: N) -> Rank:
            return (
                q in again,
                sampled(q),
                q not in self.next_pages,
                not leads_on(here, self.route(q)),
                referrers.get(q, 0),
                q not in self.listed,
            )

        ranks = {q: rank(q) for q in fresh}
        best_rank = min(ranks.values())
        # The next page of this list, even of a sampled type, is best taken now: coming back for it
        # later costs a trip. (Another sub-page of a sampled type waits like any instance.)
        stay = not (best_rank[0] or best_rank[1]) or any(
            not r[0] and (q in self.next_pages or next_page(here, self.route(q))) for q, r in ranks.items()
        )
        return ranks, best_rank, stay

    def _sampled_template(self, t: str, covered: Mapping[str, int], views: QueryViews) -> int:
        """`sampled` of a node of template `t` that is neither a probe nor a variant. `views` are the
        visited views of each path (`QueryViews`)."""
        if t in self.saturated:
            return 2
        seen, samples = covered.get(t, 0), self.samples.get(t, TEMPLATE_SAMPLE)
        if (level := views.level(t, seen, samples)) is not None:
            return level
        return 0 if seen < samples else 1

    def _sampled(
        self, template: Callable[[N], str | None], covered: Mapping[str, int], views: QueryViews
    ) -> Callable[[N], int]:
        def sampled(q: N) -> int:
            # 0: its template wants more visited instances; 1: it has enough, the other templates
            # come first; 2: saturated (its instances all showed one DOM structure, or it is broken):
            # one more is the same state again.
            if q in self.probes:
                return 1
            if q in self.variants or q in self.next_pages:
                return 0
            t = template(q)
            return 0 if t is None else self._sampled_template(t, covered, views)

        return sampled

    def _aliases(self, cur: N, remembered: Sequence[N], known: Iterable[N]) -> set[N]:
        """Known, unvisited nodes that are a remembered page at a first-page address (`first_page_alias`):
        visiting one is seeing that page again."""
        routes = {q: r for q in known if (r := self.route(q)) is not None and "?" in r}
        if not routes:
            return set()
        seen = [r for r in map(self.route, [*remembered, cur]) if r is not None]
        alias = FirstPageAliases([*routes.values(), *seen], seen)
        done = set(remembered)
        return {q for q, r in routes.items() if q not in done and alias(r)}

    def _most_linked(
        self,
        fresh: list[N],
        ranks: Mapping[N, tuple[Any, ...]],
        best: tuple[Any, ...],
        template: Callable[[N], str | None],
    ) -> list[N]:
        """The candidates when the pages' link counts are known: each template whose best instance
        ranks best offers its most linked instance (the rarest of those, then the first listed)."""
        by_template: dict[object, list[N]] = {}
        for q in fresh:
            if ranks[q][:2] == best[:2]:
                by_template.setdefault(template(q) or q, []).append(q)
        chosen: set[N] = set()
        for qs in by_template.values():
            if min(ranks[q] for q in qs) != best:
                continue
            ahead = [q for q in qs if q in self.next_pages]
            if ahead:  # the next page of this list, not the most linked of the page's other clicks
                chosen.add(ahead[0])
                continue
            top = max(self.popularity.get(q, 0) for q in qs)
            tops = [q for q in qs if self.popularity.get(q, 0) == top]
            least = min(ranks[q] for q in tops)
            # Still tied: the one listed first (a site lists its busiest or newest items first).
            chosen.add(next(q for q in tops if ranks[q] == least))
        return [q for q in fresh if q in chosen]


planner_strategy = Planner()


def leads_on(here: str | None, there: str | None) -> bool:
    """Does the link to `there` belong to the page at `here`, judging by the two URLs alone?

    True for a sub-path (``/x/y`` → ``/x/y/comments``), the next page of a numbered list (``/x/2`` →
    ``/x/3``, or the same path with one number in the query one higher), another view of the same
    page (one more query parameter, ``/x/y`` → ``/x/y?tab=likes`` or ``?page=2``; a sibling tab of a
    resource, ``/x/7/likes`` → ``/x/7/followers``) and a path that carries the current page's last
    segment, its identifier (``/x/b`` → ``/edit/b``). Such a link is usually
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
    if len(a) == len(b) >= 3 and a[:-1] == b[:-1] and not a[-1].isdigit() and not b[-1].isdigit():
        # Another view of one resource (`/x/7/history` beside `/x/7/comments`: its tabs); under a
        # section alone (`/settings/a`, `/settings/b`) siblings are pages of their own.
        return True
    if a == b:
        # The same page with one more parameter is a view of it (a tab, a filter, the next page of
        # a list whose first page carries no number: `/x` → `/x?page=2`).
        x, y = query_pairs(here_query), query_pairs(there_query)
        return _next_query_page(here_query, there_query) or (len(y) == len(x) + 1 and all(p in y for p in x))
    return a[-1] in b


def next_page(here: str | None, there: str | None) -> bool:
    """Is `there` the next page of the numbered list at `here` (``/x/2`` → ``/x/3``, ``?page=2`` →
    ``?page=3``, ``/x`` → ``/x?page=2``), judging by the URLs alone?"""
    if here is None or there is None:
        return False
    here_path, _, here_query = here.partition("?")
    there_path, _, there_query = there.partition("?")
    a, b = _segments(here_path), _segments(there_path)
    if a and len(a) == len(b) and a[:-1] == b[:-1] and _next_number(a[-1], b[-1]):
        return True
    if a != b:
        return False
    x, y = query_pairs(here_query), query_pairs(there_query)
    if len(y) == len(x) + 1 and all(p in y for p in x):
        # the first page carries no number: the second says 2, or an offset past the first rows
        ((key, value),) = [p for p in y if p not in x]
        return value == "2" or (is_offset_key(key) and value.isdigit() and int(value) > 0)
    return _next_query_page(here_query, there_query)


_NUMBER = re.compile(r"^\d+$")
_INTEGER = re.compile(r"^-?\d+$")
_ID = re.compile(
    r"^(?=[0-9a-fA-F.-]*\d)(?:[0-9a-fA-F]{8,}(?:-[0-9a-fA-F]{4,})*|[0-9a-f]{7,40}(?:\.{2,3}[0-9a-f]{7,40})?)$"
)
"""A record's generated identifier: a long hexadecimal one or a UUID, or a version's hash as version
control abbreviates it (7 lowercase hex digits and more) and a range of two (`2e09a6f..9b6bc80`, a
git-backed wiki's compare page), so one page's revisions are one page type, not one each."""
_SLUG = re.compile(r"^[0-9A-Za-z]+(?:[-_.~][0-9A-Za-z]+)+$")


def _shape_value(value: str) -> str:
    if _NUMBER.match(value):
        return "<n>"
    if _ID.match(value):
        return "<id>"
    if _SLUG.match(value) and not value.replace(".", "").isalpha():
        return "<slug>"
    return value


_SCRIPT_PATH = re.compile(r"\.(?:php\d?|phtml|cgi|pl|aspx?|jsp|cfm)$", re.I)
"""A path that names a script (`/doku.php`, `/index.php`, `/cgi-bin/wiki.cgi`): a front controller,
which routes by its query what other sites route by their path."""
_QUERY_WORD = re.compile(r"^[a-z]{2,24}$|^[A-Za-z][a-z]+(?:[A-Z][a-z]+){1,5}$")
"""A word a view key's value names a page type with: lowercase (`recent`), or a class-like name of
a few capitalised words (`BoardViewController`, `taskModification`) as query-routed apps name their
controllers; not a record's key (`Start`, `ABC12`)."""
VIEW_KEYS = frozenset(
    {
        "do",
        "action",
        "act",
        "a",
        "op",
        "cmd",
        "mode",
        "view",
        "module",
        "mod",
        "controller",
        "c",
        "task",
        "page",
    }
)
"""Query keys by which front controllers choose the page to show (`?do=recent`, `?action=edit`,
`?controller=board&action=show`, `?page=usermanager`): a lowercase word there is the page type asked
for, as a path word names one elsewhere (`/recent`, `/edit`). Other words (`?id=start`, `?q=test`,
`?srt=mtime`) are values: the record shown, the words searched, a sort."""


def front_controller(path: str) -> bool:
    """Whether a path routes by its query (`front_controller`'s view keys name the page type): a
    script (`/doku.php`) or the site's root (`/?controller=Board&action=show&id=3`, an app routed
    by its query string alone, whose every page is at `/`)."""
    return path in ("", "/") or bool(_SCRIPT_PATH.search(path))


ROUTE_SHAPES_CACHED = 1 << 16
"""Distinct routes whose shapes `route_shape` keeps: more than a 5,000-click exploration of a 15,000-page
site knows, at a few hundred bytes each."""


@lru_cache(maxsize=ROUTE_SHAPES_CACHED)
def route_shape(route: str) -> str:
    """The route with its variable parts replaced, from the URL alone (no page needed). A pure function
    of the string, kept for the routes seen: the explorer's templates ask it for every known route at
    every step (14 million calls, 28% of a 1,000-click planner run on 14,678 pages, before this cache)."""
    base, mark, state = route.rpartition("#")
    if mark and base and state and not state.startswith("/"):
        # `page#state`, a state of the page reached by a click with no URL of its own
        # (`/a/b#click-3f2e`), is shaped as a sub-page, so the states of one page type are one type,
        # not one each. A hash router's fragment is its path (`/#/tag/x`) and is shaped as one.
        path, sep, query = route_shape(base).partition("?")
        return f"{path.rstrip('/')}/#{_shape_value(state)}" + (f"?{query}" if sep else "")
    path, _, query = route.partition("?")
    segments = [_shape_value(s) if s else s for s in path.split("/")]
    shaped = "/".join(segments) or "/"
    if not query:
        return shaped
    params = []
    # A front controller's page type stays, as a path's words do: with every value a `<slug>`,
    # `/doku.php?do=recent` and `?do=index`, `?do=media` were one page type, sampled twice.
    front = front_controller(path)
    for pair in query.split("&"):
        key, eq, value = pair.partition("=")
        if not eq:
            params.append(key)
        elif _NUMBER.match(value):
            params.append(f"{key}=<n>")
        elif front and key.lower() in VIEW_KEYS and _QUERY_WORD.match(value):
            params.append(f"{key}={value}")
        else:
            params.append(f"{key}=<slug>")
    # The same parameters in another order are one page type (`?size=25&page=2`, `?page=1&size=25`:
    # a pager that appends its key to the query it was given).
    return f"{shaped}?{'&'.join(sorted(params))}"


def first_page_alias(route: str, siblings: Iterable[str], seen: Iterable[str]) -> bool:
    """Is `route` a page already `seen` with a first-page number added (``/list?page=1`` beside
    ``/list``), judging by the URLs alone? The number must be 0 or 1 and the smallest one that
    `siblings` (the links beside it) give that parameter; an empty value equals no value
    (``?own=&page=1`` is ``?own`` page 1). Most pagers link their first page by number while the
    list itself is linked without one: the same page at two addresses. A page `seen` with the same
    query parameters in another order (``?b=2&a=1`` beside ``?a=1&b=2``: links built by appending
    to the query they were given) is one too. (One route; to ask about many against the same
    siblings, build one `FirstPageAliases`.)"""
    return FirstPageAliases(siblings, seen)(route)


class FirstPageAliases:
    """`first_page_alias` for many routes against one set of siblings and seen pages: the seen pages'
    (path, query) keys and, per (path, parameter), the smallest number the siblings give it are
    indexed once (O(siblings + seen)), so each route costs only its own parameters. Asking route by
    route rebuilt both for every route — O(routes × (siblings + seen)) per choice, most of the
    planner's time on a site with thousands of paginated lists. Siblings and seen pages can be added
    later (`add_sibling`, `add_seen`): what `KnownIndex` keeps from choice to choice."""

    __slots__ = ("_seen", "_least")

    def __init__(self, siblings: Iterable[str] = (), seen: Iterable[str] = ()) -> None:
        self._seen: set[tuple[str, tuple[tuple[str, str], ...]]] = set()
        self._least: dict[tuple[str, str], int] = {}
        for sibling in siblings:
            self.add_sibling(sibling)
        for route in seen:
            self.add_seen(route)

    def add_sibling(self, sibling: str) -> None:
        path, _, query = sibling.partition("?")
        least = self._least
        for key, value in query_pairs(query):
            if _NUMBER.match(value):
                number = int(value)
                if (path, key) not in least or number < least[(path, key)]:
                    least[(path, key)] = number

    def add_seen(self, route: str) -> None:
        self._seen.add(page_key(route))

    def seen_in_another_order(self, route: str) -> bool:
        """Whether a page seen has `route`'s path and query parameters (in any order)."""
        return page_key(route) in self._seen

    def __call__(self, route: str) -> bool:
        path, _, query = route.partition("?")
        if not query:
            return False
        if "&" in query and self.seen_in_another_order(route):
            return True
        pairs = query_pairs(query)
        for i, (key, value) in enumerate(pairs):
            if value not in ("0", "1"):
                continue
            rest = pairs[:i] + pairs[i + 1 :]
            if (path, tuple(sorted(rest))) not in self._seen:
                continue
            least = self._least.get((path, key))
            if least is None or int(value) <= least:
                return True
        return False


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
    (`sync`; a memory of fixed links grows at its end), so a choice no longer costs O(known links)
    here; any other change (a page's links taken out, an evicted page) rebuilds the index."""

    __slots__ = (
        "memory", "routes", "_items", "referrers", "_aliases", "_candidates", "_covered", "_template_of",
        "_followed", "unvisited", "linkers", "_log", "bucket_of", "_buckets", "_bucketed", "_by_path",
        "_stale", "_alias_true", "_rewrites", "_by_key",
    )  # fmt: skip

    def __init__(self, memory: Memory[N], routes: Mapping[Hashable, str] | None) -> None:
        self.memory, self.routes = weakref.ref(memory), routes  # the index never keeps a memory alive
        self._items: list[tuple[N, Sequence[N]]] = []
        self._rewrites = memory.rewrites
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
            # only added at the end since the last look (`Memory.rewrites`)
            new = list(islice(memory.items(), old, None))
        else:
            self.__init__(memory, self.routes)  # type: ignore[misc]
            new = list(memory.items())
        aliases, candidates, referrers, routes = self._aliases, self._candidates, self.referrers, self.routes
        unvisited, linkers, log, stale = self.unvisited, self.linkers, self._log, self._stale
        for p, links in new:
            if p in unvisited:
                del unvisited[p]
                log.append((p, False))
            r = _route(routes, p)
            if r is not None:
                aliases.add_seen(r)
                aliases.add_sibling(r)
                stale.add(r.partition("?")[0])
                self._alias_true.update(self._by_key.pop(page_key(r), ()))
            for q in links:
                referrers[q] += 1
                linkers.setdefault(q, []).append(p)
                if q not in memory and q not in unvisited:
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
        self._items.extend(new)

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


@lru_cache(maxsize=ROUTE_SHAPES_CACHED)
def _segments(path: str) -> tuple[str, ...]:
    # asked of the current page's path for every link a choice weighs (`leads_on`), and again each
    # time a link is weighed from another page
    return tuple(s for s in path.split("#")[0].split("/") if s)


def _next_number(a: str, b: str) -> bool:
    return a.isdigit() and b.isdigit() and int(b) == int(a) + 1


def _next_query_page(here: str, there: str) -> bool:
    """The same query but for one numeric value one higher (``?page=2`` → ``?page=3``), or an offset
    higher (``?first=20`` → ``?first=40``)."""
    x, y = here.split("&") if here else [], there.split("&") if there else []
    if len(x) != len(y):
        return False
    diffs = [(p, q) for p, q in zip(x, y, strict=True) if p != q]
    if len(diffs) != 1:
        return False
    (p, q) = diffs[0]
    pk, _, pv = p.partition("=")
    qk, _, qv = q.partition("=")
    if pk != qk:
        return False
    if is_offset_key(pk) and _INTEGER.match(pv) and qv.isdigit():
        return int(qv) > int(pv)
    return _next_number(pv, qv)


def _better_elsewhere(
    cur: N,
    dist: Mapping[N, int],
    memory: KnownLinks[N],
    again: set[N],
    sampled: Callable[[N], int],
    level: int,
) -> bool:
    """Does memory know an unvisited node, reachable from here (`dist`), of a template sampled less
    than `level`?"""
    return any(q not in memory and q not in again and sampled(q) < level for q in dist if q != cur)


def _remembered(cur: N, links: Sequence[N], memory: KnownLinks[N]) -> list[N]:
    """The remembered pages; a view that cannot list itself gives those reachable over known links."""
    if isinstance(memory, Iterable):
        return list(memory)
    dist, _ = _reachable(cur, links, memory)
    return [p for p in dist if p in memory]


class _Search(Generic[N]):
    """`_reachable`, advanced only as far as a question needs: the nodes found so far, in the order
    `_reachable` finds them, with their distances and first steps; later questions go on from there."""

    __slots__ = ("cur", "dist", "first", "_walk", "_done")

    def __init__(self, cur: N, links: Sequence[N], memory: KnownLinks[N]) -> None:
        def known(p: N) -> Sequence[N]:
            if p == cur:
                return links
            return memory.links(p) if p in memory else ()  # an unvisited page's links are unknown

        self.cur = cur
        self.dist: dict[N, int] = {cur: 0}
        self.first: dict[N, N] = {}
        self._walk = breadth_first(cur, known)
        next(self._walk)  # (cur, cur)
        self._done = False

    def _next(self) -> N | None:
        if self._done:
            return None
        step = next(self._walk, None)
        if step is None:
            self._done = True
            return None
        q, p = step
        self.dist[q] = self.dist[p] + 1
        self.first[q] = q if p == self.cur else self.first[p]
        return q

    def find(self, wanted: Callable[[N], bool]) -> bool:
        """Is a node found so far or reachable `wanted` (not the current one)? Searches no further
        than the first that is."""
        if any(wanted(q) for q in self.dist if q != self.cur):
            return True
        while (q := self._next()) is not None:
            if wanted(q):
                return True
        return False

    def layer_with(self, wanted: Callable[[N], bool]) -> list[N] | None:
        """The `wanted` nodes of the nearest layer holding one, in the order found; None (the whole
        map searched) when no reachable node is `wanted`."""
        depth: int | None = None
        found: list[N] = []
        for q in [q for q in self.dist if q != self.cur]:
            if depth is not None and self.dist[q] > depth:
                return found
            if wanted(q):
                depth = self.dist[q] if depth is None else depth
                found.append(q)
        while (n := self._next()) is not None:
            if depth is not None and self.dist[n] > depth:
                return found
            if wanted(n):
                depth = self.dist[n] if depth is None else depth
                found.append(n)
        return found if depth is not None else None


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
