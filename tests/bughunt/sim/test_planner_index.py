"""The planner's first-page alias check, indexed once per choice: the same answers as the route-by-route
check it replaced, at a cost linear in what memory knows (issue 28: it was 88% of a 1,000-click run)."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import bughunt.sim.first_page_aliases as first_page_aliases
import bughunt.sim.pager_links as pager_links
import bughunt.sim.planner as planner_module
import bughunt.sim.route_keys as route_keys
from bughunt.explorer.templates import TemplateIndex
from bughunt.sim.memory import Memory
from bughunt.sim.planner import FirstPageAliases, Planner, first_page_alias
from bughunt.sim.rng import mulberry32

_NUMBER = re.compile(r"^\d+$")


def _pairs(query: str) -> list[tuple[str, str]]:
    return [(k, v) for k, _, v in (p.partition("=") for p in query.split("&") if p)]


def reference_first_page_alias(route: str, siblings: list[str], seen: list[str]) -> bool:
    """The check as it was before the index (commit 5ca7955), verbatim but for names, plus the alias of
    a page seen with its parameters in another order (the same (path, sorted pairs) key)."""
    path, _, query = route.partition("?")
    if not query:
        return False
    pairs = _pairs(query)
    known = {(r.partition("?")[0], tuple(sorted(_pairs(r.partition("?")[2])))) for r in seen}
    if "&" in query and (path, tuple(sorted(pairs))) in known:
        return True
    for i, (key, value) in enumerate(pairs):
        if value not in ("0", "1"):
            continue
        rest = pairs[:i] + pairs[i + 1 :]
        if (path, tuple(sorted(rest))) not in known:
            continue
        values = [
            int(v)
            for s in siblings
            for k, v in _pairs(s.partition("?")[2])
            if k == key and _NUMBER.match(v) and s.partition("?")[0] == path
        ]
        if not values or int(value) <= min(values):
            return True
    return False


def _random_route(rnd: random.Random) -> str:
    path = rnd.choice(["/", "/list", "/tag/7", "/c/2", "/u/alice", "/list/"])
    pairs = []
    for _ in range(rnd.randrange(4)):
        key = rnd.choice(["page", "p", "sort", "own", "tab"])
        value = rnd.choice(["", "0", "1", "2", "3", "10", "new", "top", "٣"])  # ٣: a non-ASCII digit
        pairs.append(key if value == "" and rnd.random() < 0.5 else f"{key}={value}")
    return path + ("?" + "&".join(pairs) if pairs else "")


def test_the_index_answers_as_the_route_by_route_check():
    answered = {True: 0, False: 0}
    for seed in range(200):
        rnd = random.Random(seed)
        seen = [_random_route(rnd) for _ in range(rnd.randrange(1, 12))]
        siblings = [_random_route(rnd) for _ in range(rnd.randrange(0, 30))] + seen
        # candidates: random routes, and each seen page with a first (or second) page number added
        numbered = [
            f"{r}{'&' if '?' in r else '?'}{rnd.choice(['page', 'p'])}={rnd.choice('0112')}" for r in seen
        ]
        routes = siblings + numbered + [_random_route(rnd) for _ in range(30)]
        index = FirstPageAliases(siblings, seen)
        answers = [index(r) for r in routes]
        assert answers == [reference_first_page_alias(r, siblings, seen) for r in routes], seed
        assert answers == [first_page_alias(r, siblings, seen) for r in routes], seed
        for a in answers:
            answered[a] += 1
    assert min(answered.values()) >= 500, answered  # the draws exercise both answers


def test_the_documented_cases():
    assert FirstPageAliases(["/list?page=2"], ["/list"])("/list?page=1")
    assert FirstPageAliases(["/?own=&page=2"], ["/?own"])("/?own=&page=1")  # an empty value is no value
    assert not FirstPageAliases(["/list?page=0"], ["/list"])("/list?page=1")  # 0 is the first page there
    assert not FirstPageAliases([], ["/other"])("/list?page=1")
    assert not FirstPageAliases(["/list?page=2"], ["/list"])("/list")


def _paginated_memory(lists: int, pages: int) -> tuple[Memory[str], str, list[str]]:
    """Memory of `lists` visited list pages, each linking its pager (`?page=1..pages`) and the other lists."""
    memory: Memory[str] = Memory()
    starts = [f"/list/{i}" for i in range(lists)]
    for start in starts:
        memory.write(start, [*(f"{start}?page={p}" for p in range(1, pages + 1)), *starts])
    return memory, starts[0], list(memory.links(starts[0]))


def test_one_choice_parses_each_known_route_a_bounded_number_of_times(monkeypatch):
    # Counting the query parses of one choice: the route-by-route check parsed every seen page once
    # per query route and every sibling once per 0/1 parameter, O(Q·(V+Q)) — 414,140 parses for the
    # 2,000 query routes and 100 pages here (0.47 s); the index made 4,242 (0.012 s), the same choice.
    calls = 0
    original = route_keys.query_pairs

    def counted(query: str) -> list[tuple[str, str]]:
        nonlocal calls
        calls += 1
        return original(query)

    memory, cur, links = _paginated_memory(lists=100, pages=20)
    monkeypatch.setattr(first_page_aliases, "query_pairs", counted)  # the planner's parses, by module
    monkeypatch.setattr(pager_links, "query_pairs", counted)
    monkeypatch.setattr(route_keys, "query_pairs", counted)  # the token-masked key parses there
    choice = Planner()(cur, links, memory, mulberry32(1000))
    known = 100 * 20 + 100
    assert choice is not None and not choice.endswith("?page=1"), "page 1 is the list itself: ranked last"
    assert calls <= 4 * known, calls


class _PlainView:
    """A memory the planner cannot index (not a `Memory`): it recomputes everything per choice."""

    def __init__(self, memory: Memory[str]) -> None:
        self.memory = memory

    def __contains__(self, node: object) -> bool:
        return node in self.memory

    def __iter__(self):  # noqa: ANN204
        return iter(self.memory)

    def links(self, node: str) -> tuple[str, ...]:
        return tuple(self.memory.links(node))


def _site(rnd: random.Random) -> dict[str, list[str]]:
    """Random pages of a few shapes (paginated lists, profiles with slugs, items), linked at random."""
    pages = ["/"]
    pages += [f"/list/{i}" for i in range(3)]  # linked bare beside its pager: page 1 is an alias
    pages += [f"/list/{i}?page={p}" for i in range(3) for p in range(1, 4)]
    # a sorted page linked with its parameters in either order: one is the other seen again
    pages += [f"/list/{i}?{q}" for i in range(2) for q in ("page=2&sort=top", "sort=top&page=2")]
    pages += [f"/profile/{name}" for name in ("alice", "bob", "carol", "dave", "erin")]
    pages += [f"/profile/{name}/likes" for name in ("alice", "bob")]
    pages += [f"/item/{n}" for n in range(15)]
    return {p: rnd.sample(pages, rnd.randrange(2, 9)) for p in pages}


def test_the_kept_index_chooses_as_the_planner_that_recomputes_everything() -> None:
    from bughunt.explorer.templates import TemplateIndex

    differed = 0
    for seed in range(12):
        rnd = random.Random(seed)
        site = _site(rnd)
        memory: Memory[str] = Memory()
        kept = Planner()  # one planner: its index follows the memory from choice to choice
        index = TemplateIndex()
        hashes: dict[str, str | None] = {}
        siblings: dict[tuple[str, str], list[str]] = {}
        cur = "/"
        for step in range(40):
            if step % 9 == 8 and len(memory) > 2:
                # a link taken out of a remembered page (idle controls are scrubbed so): the index rebuilds
                node = next(iter(memory))
                memory[node] = tuple(memory[node])[1:]
            memory.write(cur, site[cur])
            hashes[cur] = rnd.choice(["h1", "h2"])
            siblings.setdefault((cur, "li"), []).extend(site[cur][:3])
            template_of = index.update(hashes, siblings, list(siblings))
            links = list(memory.links(cur))
            fresh = Planner().with_templates(template_of)(cur, links, _PlainView(memory), mulberry32(step))
            choice = kept.with_templates(template_of)(cur, links, memory, mulberry32(step))
            assert choice == fresh, (seed, step)
            differed += choice != links[0] if links else 0
            if choice is None:
                break
            cur = choice
    assert differed, "the walks must exercise real choices"


def _random_hints(rnd: random.Random, pages: list[str]) -> dict[str, frozenset[str]]:
    """Random probes, variants and saturated templates: every level `sampled` gives is drawn."""
    from bughunt.sim.planner import route_shape

    shapes = sorted({route_shape(p) for p in pages})
    return {
        "probes": frozenset(rnd.sample(pages, rnd.randrange(3))),
        "variants": frozenset(rnd.sample(pages, rnd.randrange(3))),
        "saturated": frozenset(rnd.sample(shapes, rnd.randrange(len(shapes) // 2))),
    }


@dataclass
class _Walk:
    """A seeded walk on a random site that asks two planners each step — one keeping its index across
    steps, one fresh over a plain view of memory — and checks they choose alike. Odd seeds template by
    URL shape alone; even ones by the explorer's templates, which change as pages load (the index
    follows their epochs and changed routes)."""

    seed: int
    site: dict[str, list[str]]
    memory: Memory[str] = field(default_factory=Memory)
    kept: Planner = field(default_factory=Planner)
    templates: TemplateIndex = field(default_factory=TemplateIndex)
    hashes: dict[str, str] = field(default_factory=dict)
    siblings: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    pages: list[str] = field(init=False)  # the site's pages when the walk starts: the hints sample them

    def __post_init__(self) -> None:
        self.pages = list(self.site)

    def choose(self, rnd: random.Random, step: int, cur: str) -> tuple[str | None, Any, Callable[[str], str]]:
        """The step's choice (checked against the fresh planner's), the kept index and the templates."""
        self.hashes[cur] = rnd.choice(["h1", "h2"])
        self.siblings.setdefault((cur, "li"), []).extend(self.site[cur][:3])
        template_of = (
            planner_module.route_shape
            if self.seed % 2
            else self.templates.update(self.hashes, self.siblings, list(self.siblings))
        )
        hints = _random_hints(rnd, self.pages)
        links = list(self.memory.links(cur)) or ["/"]
        fresh = Planner().with_templates(template_of, **hints)
        want = fresh(cur, links, _PlainView(self.memory), mulberry32(step))
        choice = self.kept.with_templates(template_of, **hints)(cur, links, self.memory, mulberry32(step))
        assert choice == want, (self.seed, step)
        return choice, self.kept._indexes[0], template_of


def _buckets_as_counted(index: Any, template_of: Callable[[str], str], unvisited: Iterable[str]) -> bool:
    """The kept index's unvisited pages by template are what a recount gives; False when it keeps none."""
    kept_buckets = index.buckets(template_of)
    if kept_buckets is None:
        return False
    by_template: dict[str, set[str]] = {}
    for q in unvisited:
        by_template.setdefault(template_of(q), set()).add(q)
    assert {t: set(qs) for t, qs in kept_buckets.items() if qs} == by_template
    return True


def test_the_searches_cut_short_choose_as_the_full_search() -> None:
    # Sites with pages no remembered link reaches from where the planner stands (an island linked only
    # from itself, links scrubbed from a page): the trip's search finds no target of the best kind
    # known and weighs every reachable one; elsewhere it stops at the first layer holding one.
    trips = bucketed = 0
    for seed in range(40):
        rnd = random.Random(1000 + seed)
        site = _site(rnd)
        island = [f"/island/{n}" for n in range(4)]
        for page in island:
            site[page] = rnd.sample(island, 2)
        site[rnd.choice(list(site))].append(island[0])
        walk = _Walk(seed, site)
        memory = walk.memory
        cur = "/"
        for step in range(60):
            memory.write(cur, site[cur])
            if step % 7 == 6:
                node = rnd.choice(list(memory))
                memory[node] = ()  # a remembered page's links scrubbed: parts cut off
            choice, index, template_of = walk.choose(rnd, step, cur)
            # what the index keeps is what it would count afresh
            known = {q for p in memory for q in memory[p] if q not in memory}
            assert set(index.unvisited) == known, (seed, step)
            # each remembered page's links to pages not remembered, which a trip's stragglers read
            opened = {p: sum(1 for q in memory[p] if q not in memory) for p in memory}
            assert index.open_links == opened, (seed, step)
            linked = [q for p in memory for q in memory[p]]
            assert index.aliases() == Planner()._aliases(cur, list(memory), linked), (seed, step)
            bucketed += _buckets_as_counted(index, template_of, known)
            trips += choice in memory  # a step on a trip to a page farther away
            if choice is None:
                break
            cur = choice
    assert trips >= 20, trips  # the walks travel, not only step to a link
    assert bucketed >= 500, bucketed  # the explorer's templates are followed (odd seeds: URL shapes)


def test_a_trip_reads_only_the_map_up_to_its_target() -> None:
    # A chain of 2,000 remembered pages, each linking an unvisited page of a sampled type: the only page
    # of a new type is three links on. The full search read every remembered page's links (2,000).
    memory: Memory[str] = Memory()
    chain = [f"/node/{i}" for i in range(2000)]
    for i, page in enumerate(chain):
        memory.write(page, [chain[i + 1] if i + 1 < len(chain) else chain[0], f"/item/{i}"])
    for i in range(2):
        memory.write(f"/item/{i}", [])  # the item type is sampled
    memory.write(chain[0], [])
    memory[chain[3]] = [chain[4], "/item/3", "/fresh/x"]
    reads = 0
    links_of = memory.links

    class Counted(Memory[str]):
        def links(self, node: str) -> tuple[str, ...]:
            nonlocal reads
            reads += 1
            return tuple(links_of(node))

    counted: Counted = Counted()
    dict.update(counted, memory)
    cur, links = chain[1], [chain[2], "/item/1"]  # both remembered: a trip
    want = Planner()(cur, links, _PlainView(memory), mulberry32(1))
    assert Planner()(cur, links, counted, mulberry32(1)) == want == chain[2]
    assert reads <= 10, reads


def test_the_index_follows_links_a_page_changes_between_visits() -> None:
    """A page visited again keeps the remembered links it still shows (`Memory.write`), and the kept
    index takes back what it counted of the others (`Memory.replaced`) instead of rebuilding: what it
    keeps is what it would count afresh, and the choices are the full recount's."""
    replaced = 0
    for seed in range(30):
        rnd = random.Random(2000 + seed)
        site = _site(rnd)
        pages = list(site)
        walk = _Walk(seed, site)
        memory = walk.memory
        cur = "/"
        for step in range(60):
            if cur in memory and rnd.random() < 0.6:
                # the page shows other links this time: one gone, one new (a made-up value in a form's
                # address, a record added to its list), now and then one linked twice
                links = list(site[cur])
                if links:
                    links.pop(rnd.randrange(len(links)))
                new = f"/search?q=w{seed}-{step}" if rnd.random() < 0.7 else rnd.choice(pages)
                site.setdefault(new, ["/"])
                links.append(new)
                if rnd.random() < 0.2:
                    links.append(links[0])
                site[cur] = links
                replaced += 1
            before = memory.links(cur) if cur in memory else None
            memory.write(cur, tuple(site[cur]))
            # a page visited again keeps the remembered links it still shows, and no others
            shown = set(site[cur])
            want_links = tuple(site[cur]) if before is None else tuple(q for q in before if q in shown)
            assert tuple(memory.links(cur)) == want_links
            choice, index, template_of = walk.choose(rnd, step, cur)
            linked = [q for p in memory for q in memory[p]]
            assert index.referrers == Counter(linked), (seed, step)
            assert {q: sorted(ps) for q, ps in index.linkers.items()} == {
                q: sorted(p for p in memory for r in memory[p] if r == q) for q in set(linked)
            }, (seed, step)
            assert set(index.unvisited) == {q for q in linked if q not in memory}, (seed, step)
            assert index.open_links == {p: sum(1 for q in memory[p] if q not in memory) for p in memory}
            _buckets_as_counted(index, template_of, index.unvisited)
            assert memory.rewrites == 0, "a replaced page's links are followed, not rebuilt"
            if choice is None:
                break
            cur = choice
    assert replaced >= 300, replaced


def test_a_trip_is_not_planned_to_a_link_the_page_no_longer_shows() -> None:
    """Two lists whose search box the walk fills with words from the page (`/a?q=one` on the first
    visit, `/a?q=two` later, once the page is shown in another language): the first address is left
    for later (a filter of a page seen waits behind unseen types), and the page never shows it
    again. Remembered with its first links, each list kept promising its lost link from the other
    one: once their items were saturated the walk went back and forth between the two lists until
    the budget ran out (25 of 100 clicks on a shared-budget app). Kept only while the page shows it,
    the walk ends."""
    visits: Counter[str] = Counter()
    items = [f"/{x}/item/{n}" for x in "ab" for n in range(12)]

    def links_of(page: str) -> tuple[str, ...]:
        if page == "/":
            return ("/a", "/b")
        if page in ("/a", "/b"):
            word = "one" if visits[page] == 1 else "two"
            return ("/", "/a", "/b", *(i for i in items if i.startswith(page)), f"{page}?q={word}")
        return (page.partition("?")[0] if "?" in page else page.rsplit("/", 2)[0],)

    def template(route: str) -> str:
        path, _, query = route.partition("?")
        return path.rsplit("/", 1)[0] if "/item/" in path else path + ("?q" if query else "")

    memory: Memory[str] = Memory()
    base = Planner()
    walk, cur, nxt = [], "/", None
    for step in range(80):
        visits[cur] += 1
        links = links_of(cur)
        memory.write(cur, links)
        walk.append(cur)
        # an item type showing one structure on two pages is saturated; the search's answers are probes
        saturated = [t for t in ("/a/item", "/b/item") if sum(p.startswith(t + "/") for p in memory) >= 2]
        probes = [q for p in memory for q in memory[p] if "?q=" in q] + [q for q in links if "?q=" in q]
        planner = base.with_templates(template, saturated=saturated, probes=probes)
        nxt = planner(cur, list(links), memory, mulberry32(step))
        if nxt is None:
            break
        cur = nxt
    assert nxt is None, walk[-8:]  # the walk ends: nothing it knows is left
    assert len(walk) < 60, walk
