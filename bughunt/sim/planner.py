"""The ``planner`` exploration strategy: planning over what memory knows (see `bughunt.planning`).

It lives in the simulator's layer because the simulator runs it by name; `bughunt.planning` re-exports
it next to the planning used by the explorer's re-tests (shortest tours). It reads only a link table
(`KnownLinks`) and, when it has them, the shape of each node's URL.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from typing import Any, TypeVar, cast

from .first_page_aliases import FirstPageAliases as FirstPageAliases
from .first_page_aliases import first_page_alias as first_page_alias
from .instance_share import under
from .known_index import KnownIndex, _route
from .known_search import _better_elsewhere, _reachable, _remembered, _Search
from .memory import KnownLinks, Memory
from .pager_links import MIDDLE_PAGE, page_number, page_of
from .pager_links import is_offset_key as is_offset_key
from .pager_links import is_page_key as is_page_key
from .pager_links import leads_on as leads_on
from .pager_links import next_page as next_page
from .record_pairs import carries_record
from .rng import Rng, pick
from .route_shapes import front_controller as front_controller
from .route_shapes import route_shape as route_shape
from .template_sampling import TEMPLATE_SAMPLE as TEMPLATE_SAMPLE
from .template_sampling import QueryViews
from .template_sampling import kind_keys as kind_keys

# The planner's helpers live in modules of their own (route_shapes, pager_links, first_page_aliases,
# known_index, template_sampling, known_search); the names other modules import from here stay importable.

N = TypeVar("N", bound=Hashable)
Rank = tuple[bool, int, bool, bool, int, bool]
"""A fresh link's rank in a choice: an alias, its sampled level, not a click to the next page of this
list, not leading on from here, its referrers, not listed."""


class Planner:
    """The ``planner`` strategy; `with_routes` gives it each node's route when nodes are not routes.

    Called like any strategy: ``planner(cur, links, memory, rnd)``. Without a route table a node that
    is itself a route (a string starting with ``/``, as the web explorer's nodes are) is its own route;
    any other node has none and is judged by the link table alone.
    """

    __slots__ = (
        "routes", "template_of", "probes", "samples", "popularity", "saturated", "listed", "variants",
        "next_pages", "start", "spent", "marked", "crowded", "_indexes",
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
        spent: frozenset[Hashable] = frozenset(),
        marked: frozenset[Hashable] = frozenset(),
        crowded: frozenset[str] = frozenset(),
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
        self.spent = spent
        self.marked = marked
        self.crowded = crowded
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
                self.spent,
                self.marked,
                self.crowded,
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
        spent: Iterable[Hashable] = (),
        marked: Iterable[Hashable] = (),
        crowded: Iterable[str] = (),
    ) -> Planner:
        """The same planner judging templates by `template_of(route)` (the explorer's, which also
        reads the pages' DOM structure) instead of the URL shape alone. `probes` are nodes reached
        only with values the explorer made up (a GET form submitted with generated input): more data
        for a page already seen, so they wait like further instances of a sampled template — but for
        a form sending to a path no visited page has (a search page), wanted like an unsampled one.
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
        of the types here. `spent` are probes of a form learned to answer a page already visited
        (`repeat_answers`): they wait behind every new page, saturated types' too. `marked` are
        records whose link shows markup written as text (`explorer.markup_links`: stored text holding
        an element, its page where an unescaped print runs it): wanted like an unsampled template's
        instance, and the instance of their template taken first (`_most_linked`) — which template
        to take is chosen as without them. `crowded` are path prefixes of records whose own pages took
        their share of the budget while another record of their type waits
        (`instance_share`): a page under one waits like a saturated type's instance."""
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
                frozenset(spent),
                frozenset(marked),
                frozenset(crowded),
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
            ranks, best_rank, stay, last = self._ranks(
                cur, links, fresh, again, sampled, referrers, self._unsampled(template, covered)
            )
            if stay or not _better_elsewhere(cur, reachable()[0], memory, again, sampled, best_rank[1]):
                level = best_rank[1]

                def better(q: N) -> bool:
                    return q not in memory and q not in again and sampled(q) < level

                if not stay and (home := self._home(cur, memory, better)) is not None:
                    return home
                best = [q for q in fresh if ranks[q] == best_rank]
                if self.popularity:
                    best = self._most_linked(fresh, ranks, best_rank, template, last)
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
            special = self.probes | self.variants | self.marked
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
                    # a list's middle pages wait a level behind the rest of their template (`sampled`)
                    own = sampled(q) if level == 1 or self.crowded else level
                    if q in again:
                        least[1] = min(least[1], own)
                    else:
                        least[0] = min(least[0], own)
                        if own == level:
                            break
        for q in nodes:
            if q not in memory:
                alias = q in again
                least[alias] = min(least[alias], sampled(q))
        search = _Search(cur, links, memory)
        if fresh:
            ranks, best_rank, stay, last = self._ranks(
                cur, links, fresh, again, sampled, referrers, self._unsampled(template, covered)
            )
            level = best_rank[1]

            def better(q: N) -> bool:
                return q not in memory and q not in again and sampled(q) < level

            if stay or not (least[0] < level and search.find(better)):
                if not stay and least[0] < level and (home := self._home(cur, memory, better)) is not None:
                    return home
                best = [q for q in fresh if ranks[q] == best_rank]
                if self.popularity:
                    best = self._most_linked(fresh, ranks, best_rank, template, last)
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
        open_links = index.open_links

        def straggle(q: N) -> int:
            # the most other unvisited links any remembered referrer of the target has
            return max((open_links[p] for p in index.linkers.get(q, ())), default=0)

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
        self, cur: N, links: Sequence[N], fresh: Sequence[N], again: Collection[N],
        sampled: Callable[[N], int], referrers: Mapping[N, int], unsampled: Callable[[N], bool],
    ) -> tuple[dict[N, Rank], Rank, bool, N | None]:  # fmt: skip
        """Each fresh link's rank (lower is better), the best rank, whether to stay: take a link
        from here rather than look for a better page elsewhere, and the list's last page to take now
        (`_last_page`), if any. `links` are all of the page's links, `fresh` those not visited;
        `unsampled` tells a node whose own template has fewer visited instances than it wants."""
        here = self.route(cur)
        # A list's bounds, not its middle: its second page is taken from its first (below); from the
        # second page the last page its pager offers is taken now, and its next page waits like any
        # instance of a sampled type (`sampled`: page 3 on, after the records the list shows). A list
        # that breaks past its first page shows it on the second, one that miscounts its pages on the
        # last (an empty page, a row shown twice), and the count oracles fetch the pages between
        # themselves. Reading page after page spent 53 of 100 clicks on a forum's tag lists and left
        # its topics for the end. The last page is taken from the second page alone: a pager showing
        # a window of pages around the current one offers a later "last" page on every page.
        page = page_number(here) or 1
        past_first = page >= 2
        last = self._last_page(here, links, fresh) if page == 2 else None

        # A link that leads on from here (this page's tab, its next page) before a rarer one: the
        # rarer one is an item other lists show too, this one hangs off this page alone.
        def rank(q: N) -> Rank:
            level = sampled(q)
            there = self.route(q)
            own = carries_record(here, there)
            if own and level == 1 and q not in self.probes and unsampled(q):
                # Another page of the record shown here (its edit form, `record_pairs`) whose type
                # waits only as one kind with other sections' pages: those edit other records, and
                # the walk will not come back for this one — the pair a comparison oracle reads.
                level = 0
            bound = q == last and level < 3
            if bound:
                level = 0
            return (
                q in again,
                level,
                # a search page not seen yet is opened as soon as it is wanted: every page links it,
                # so it would wait behind every page's own links (`referrers`); a page of the record
                # shown here as soon as a form's answer (a form here sends elsewhere: another record)
                q not in self.next_pages and not bound and not (level == 0 and (own or q in self.probes)),
                not (own or leads_on(here, there)),
                referrers.get(q, 0),
                q not in self.listed,
            )

        ranks = {q: rank(q) for q in fresh}
        best_rank = min(ranks.values())
        # The second page of this list (its last, from the second on), even of a sampled type, is best
        # taken now: coming back for it later costs a trip. (Another sub-page of a sampled type waits
        # like any instance.)
        stay = not (best_rank[0] or best_rank[1]) or any(
            not r[0]
            and (q in self.next_pages or q == last or (not past_first and next_page(here, self.route(q))))
            for q, r in ranks.items()
        )
        return ranks, best_rank, stay, last

    def _last_page(self, here: str | None, links: Sequence[N], fresh: Collection[N]) -> N | None:
        """The link to the last page the pager at `here` offers past the current one (the highest
        page number among `links`, `page_of`), when it is `fresh`; None when it offers none or that
        page was read."""
        current = page_number(here) or 1
        pages = [(n, q) for q in links if (n := page_of(here, self.route(q))) is not None and n > current]
        if not pages:
            return None
        last = max(pages, key=lambda p: p[0])[1]
        return last if last in fresh else None

    def _unsampled(
        self, template: Callable[[N], str | None], covered: Mapping[str, int]
    ) -> Callable[[N], bool]:
        def unsampled(q: N) -> bool:
            t = template(q)
            return (
                t is not None
                and t not in self.saturated
                and covered.get(t, 0) < self.samples.get(t, TEMPLATE_SAMPLE)
            )

        return unsampled

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
        # a template's level, once per choice: the searches ask it of every node they pass
        levels: dict[str, int] = {}

        def sampled(q: N) -> int:
            # 0: its template wants more visited instances; 1: it has enough, the other templates
            # come first; 2: saturated (its instances all showed one DOM structure, or it is broken):
            # one more is the same state again; 3: a probe of a form that answered a page already
            # visited (`spent`): a page seen, after even a saturated type's new pages (no trip is
            # planned to one: the level of "nothing left").
            if q in self.probes:
                if q in self.spent:
                    return 3
                # A form that sends to a path no visited page has (the results page of a search box
                # drawn on every page, linked from none) answers with a page type of its own; a list's
                # own filter, or a second answer, is more data for a page seen.
                t = template(q)
                return 0 if t is not None and not views.seen_path(t) else 1
            if q in self.variants or q in self.next_pages or q in self.marked:
                return 0
            t = template(q)
            if t is None:
                return 0
            level = levels.get(t)
            if level is None:
                level = levels[t] = self._sampled_template(t, covered, views)
            if level < 2 and self.crowded and under(self.route(q) or "", self.crowded):
                return 2
            if level == 1 and (page_number(self.route(q)) or 0) >= MIDDLE_PAGE:
                # a later page of a list whose pages are sampled shows the records of its first pages'
                # template again: the records it lists (and the pages not seen) come first
                return 2
            return level

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
        last: N | None = None,
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
            ahead = (
                [q for q in qs if q in self.marked]
                or [q for q in qs if q in self.next_pages]
                or [q for q in qs if q == last and ranks[q] == best]
            )
            if ahead:  # the next (last) page of this list, not the most linked of its other pages
                chosen.add(ahead[0])
                continue
            top = max(self.popularity.get(q, 0) for q in qs)
            tops = [q for q in qs if self.popularity.get(q, 0) == top]
            least = min(ranks[q] for q in tops)
            # Still tied: the one listed first (a site lists its busiest or newest items first).
            chosen.add(next(q for q in tops if ranks[q] == least))
        return [q for q in fresh if q in chosen]


planner_strategy = Planner()
