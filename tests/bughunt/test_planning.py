"""Planning over remembered links: the exact re-test tour and the `planner` exploration strategy."""

from __future__ import annotations

import statistics

import pytest

from bughunt import site
from bughunt.planning import bfs_paths, leads_on, planner_strategy, route_shape, shortest_tour
from bughunt.planning_bounds import best_blind_walk, expected_steps_to_all
from bughunt.sim.engine import RunConfig, SimSite, run
from bughunt.sim.memory import Memory
from bughunt.sim.rng import mulberry32
from bughunt.sim.strategies import get_strategy
from bughunt.sim.template_sampling import _view
from memgpt_lite.errors import UsageError
from tests.support.known_links import (
    KnownTable as View,  # the minimal KnownLinks protocol, like the retest view
)


def _is_walk(graph, walk):
    return all(b in graph[a] for a, b in zip(walk, walk[1:], strict=False))


def test_bug_pages_retest_tour_is_15_steps():
    tour = shortest_tour(site.LINKS, site.START_PAGE, site.BUG_PAGES)
    assert tour.steps == 15 and tour.exact
    assert _is_walk(site.LINKS, tour.walk) and set(site.BUG_PAGES) <= set(tour.walk)


def test_tour_by_hand():
    # a -> b -> c, a -> c, c -> a: visiting b and c from a: a b c (2 steps)
    g = {"a": ["c", "b"], "b": ["c"], "c": ["a"]}
    assert shortest_tour(g, "a", ["c", "b"]).walk == ("a", "b", "c")
    # 1 and 3 lie on different branches from 0; either order costs 4 steps
    g2 = {0: [1, 2], 1: [0], 2: [3], 3: [0]}
    t = shortest_tour(g2, 0, [1, 3])
    assert t.steps == 4 and t.walk in ((0, 1, 0, 2, 3), (0, 2, 3, 0, 1))
    assert shortest_tour(g2, 0, [0]).steps == 0


def test_tour_errors():
    with pytest.raises(UsageError, match="not reachable"):
        shortest_tour({0: [1], 1: []}, 0, [2])
    with pytest.raises(UsageError, match="one-way"):
        shortest_tour({0: [1, 2], 1: [], 2: []}, 0, [1, 2])


def test_tour_falls_back_to_nearest_first_for_many_targets(monkeypatch):
    import bughunt.planning as planning

    monkeypatch.setattr(planning, "EXACT_TOUR_LIMIT", 3)
    t = shortest_tour(site.LINKS, 0, range(1, 24))
    assert not t.exact and _is_walk(site.LINKS, t.walk) and set(t.walk) == set(range(24))


def test_bfs_paths_prefers_earlier_links():
    assert bfs_paths({0: [1, 2], 1: [3], 2: [3]}, 0)[3] == [0, 1, 3]


def test_planner_prefers_the_rarest_neighbour_and_stops_when_done():
    mem = Memory()
    mem.write("a", ("n", "x", "y"))
    mem.write("b", ("n", "a", "y"))
    mem.write("c", ("n", "z"))
    # at c, n is linked from all three remembered pages, z only from c: z first
    assert planner_strategy("c", ("n", "z"), mem, mulberry32(1)) == "z"
    done = Memory()
    done.write("a", ("b",))
    done.write("b", ("a",))
    assert planner_strategy("a", ("b",), done, mulberry32(1)) is None


def test_planner_travels_to_an_unvisited_page_when_stuck():
    mem = Memory()
    for page, links in (("h", ("a", "b")), ("a", ("h",)), ("b", ("h", "c"))):
        mem.write(page, links)
    assert planner_strategy("a", ("h",), mem, mulberry32(1)) == "h"  # toward c via h -> b


def test_planner_is_registered_and_covers_every_seed_within_30_steps():
    get_strategy("planner")
    seeds = range(1000, 1200)
    planner = [run(RunConfig("planner"), s) for s in seeds]
    frontier = [run(RunConfig("frontier"), s) for s in seeds]
    assert all(r.coverage == 1 for r in planner)
    assert statistics.fmean(r.coverage for r in frontier) < 0.95
    bugs = [run(RunConfig("planner", until_all_bugs=True), s).steps for s in seeds]
    assert statistics.fmean(bugs) < 28


def _opaque(word: str) -> str:
    return f"w{sum(ord(c) * 31**i for i, c in enumerate(word)) % 99991}"


def test_planner_reads_url_shape_not_words():
    # every page renamed to an opaque id, every path segment to an opaque word (digits kept: they
    # are what marks a numbered page): the same walk, relabelled
    name = {p: f"page-{(p * 7919) % 101:03d}" for p in range(site.N_PAGES)}

    def route(p: int) -> str:
        segs = site.PAGES[p].route.strip("/").split("/")
        return "/" + "/".join(s if s.isdigit() else _opaque(s) for s in segs if s)

    relabelled = SimSite(
        links={name[p]: tuple(name[q] for q in qs) for p, qs in site.LINKS.items()},
        start=name[0],
        bugs=frozenset(name[b] for b in site.BUG_PAGES),
        routes={name[p]: route(p) for p in range(site.N_PAGES)},
    )
    for seed in range(1000, 1010):
        for until in (False, True):
            a = run(RunConfig("planner", until_all_bugs=until), seed)
            b = run(RunConfig("planner", until_all_bugs=until), seed, relabelled)
            assert b.path == [name[p] for p in a.path]


def test_planner_without_routes_uses_the_link_table_alone():
    bare = SimSite(links=site.LINKS, start=site.START_PAGE, bugs=frozenset(site.BUG_PAGES))
    covered = [run(RunConfig("planner"), s, bare).coverage for s in range(1000, 1200)]
    assert 0.99 < statistics.fmean(covered) < 1  # the route priors are what closes the gap


@pytest.mark.parametrize(
    ("here", "there", "expected"),
    [
        ("/article/a", "/article/a/comments", True),  # sub-path
        ("/feed/2", "/feed/3", True),  # next numbered page
        ("/feed/2", "/feed/4", False),
        ("/list?page=2&q=x", "/list?page=3&q=x", True),
        ("/list?page=2&q=x", "/list?page=3&q=y", False),
        ("/item/42", "/edit/42", True),  # carries this page's identifier
        ("/", "/login", False),  # every path extends the root
        ("/article/a", "/profile/author", False),
        ("/settings/password", "/settings/delete", False),  # a sibling is not a child
        ("/people/ann/likes", "/people/ann/followers", True),  # another tab of one resource
        ("/people/ann/likes", "/people/bob/followers", False),  # a tab of another resource
        ("/people/ann", "/people/ann?tab=likes", True),  # one more parameter: a view of this page
        ("/list?q=x", "/list?q=x&page=2", True),  # the next page of an unnumbered first page
        ("/list?q=x", "/list?q=y", False),
        (None, "/x", False),
    ],
)
def test_leads_on(here, there, expected):
    assert leads_on(here, there) is expected


def test_planner_takes_the_link_that_leads_on_from_here():
    mem = Memory()
    mem.write("/", ("/x", "/x/1"))
    # at /x both fresh links are seen once; /x/y extends /x, /z does not
    for seed in range(20):
        assert planner_strategy("/x", ("/z", "/x/y"), mem, mulberry32(seed)) == "/x/y"


def test_planner_works_with_a_view_that_cannot_list_itself():
    table = {"h": ("a", "b"), "a": ("h",), "b": ("h", "c")}
    assert planner_strategy("a", ("h",), View(table), mulberry32(1)) == "h"
    assert planner_strategy("b", ("h", "c"), View(table), mulberry32(1)) == "c"


def test_expected_steps_to_all_by_hand():
    # one bug on 1 or 2 with equal chance: the walk 0 1 2 finds it after 1 or 2 steps
    assert expected_steps_to_all([0, 1, 2], 1, 2) == pytest.approx(1.5)
    # a walk that stops early is completed as if every further step found a new page
    assert expected_steps_to_all([0, 1], 1, 2) == pytest.approx(1.5)
    assert expected_steps_to_all([0, 1, 0, 2], 1, 2) == pytest.approx(2.0)
    with pytest.raises(UsageError):
        expected_steps_to_all([0, 1], 3, 2)


def _all_walks(links, start, length):
    walks = [[start]]
    for _ in range(length):
        walks = [[*w, q] for w in walks for q in links[w[-1]]]
    return walks


@pytest.mark.parametrize("graph_seed", range(4))
def test_best_blind_walk_matches_brute_force(graph_seed):
    import random

    r = random.Random(graph_seed)
    n = 6
    links = {v: tuple(r.sample([q for q in range(n) if q != v], 2)) for v in range(n)}
    links[0] = tuple(range(1, n))  # everything reachable
    for v in range(1, n):
        links[v] = (*links[v], 0)
    k = 2
    brute = min(
        expected_steps_to_all(w, k, n - 1) for w in _all_walks(links, 0, 9) if set(w) == set(range(n))
    )
    opt = best_blind_walk(links, 0, k, 100.0)
    assert opt is not None and opt.expected_steps == pytest.approx(brute)
    assert expected_steps_to_all(opt.walk, k, n - 1) == pytest.approx(opt.expected_steps)
    assert all(b in links[a] for a, b in zip(opt.walk, opt.walk[1:], strict=False))
    assert best_blind_walk(links, 0, k, brute - 1e-6) is None


def test_planner_beats_frontier_over_random_bug_placements():
    # the placement-free score: the planner's gain is not an accident of where this site's bugs are
    k, n = len(site.BUG_PAGES), site.N_PAGES - 1

    def score(name):
        return statistics.fmean(
            expected_steps_to_all(run(RunConfig(name, budget=200), s).path, k, n) for s in range(1000, 1100)
        )

    assert score("planner") < score("frontier") - 2


def _synthetic_site(seed: int, opaque: bool) -> SimSite:
    """A random web-app-like site: nav bar, sections with items, sub-pages, numbered pages, cross links."""
    import random

    r = random.Random(seed)
    routes: dict[int, str] = {0: "/"}
    children: dict[int, list[int]] = {0: []}

    def add(parent: int, route: str) -> int:
        i = len(routes)
        routes[i], children[i] = route, []
        children[parent].append(i)
        return i

    words = iter(f"w{k}" for k in r.sample(range(1000), 200))
    sections = [add(0, f"/{next(words)}") for _ in range(r.randint(3, 5))]
    nav = [0, *r.sample(sections, r.randint(1, 3))]
    items = []
    for s in sections:
        for _ in range(r.randint(1, 3)):
            items.append(it := add(s, f"{routes[s]}/{next(words)}"))
            for _ in range(r.choice((0, 0, 1, 2))):
                add(it, f"{routes[it]}/{next(words)}")
        prev = s
        for k in range(2, 2 + r.choice((0, 0, 1, 2, 3))):
            prev = add(prev, f"{routes[s]}/{k}")
    parent = {c: p for p, cs in children.items() for c in cs}
    links = {}
    for p in routes:
        local = [*children[p], *r.sample(items, r.choice((0, 1, 1, 2)))]
        if p and r.random() < 0.5:
            local.append(parent[p])
        links[p] = tuple(
            dict.fromkeys([*(q for q in nav if q != p), *(q for q in local if q not in nav and q != p)])
        )
    links[0] = tuple(dict.fromkeys([*links[0], *sections, *r.sample(items, 3)]))
    if opaque:  # URLs that say nothing about structure
        routes = {p: f"/p{x}" for p, x in zip(routes, r.sample(range(10**6), len(routes)), strict=True)}
    return SimSite(links=links, start=0, bugs=frozenset(r.sample(range(1, len(routes)), 6)), routes=routes)


@pytest.mark.parametrize("opaque", [False, True])
def test_planner_beats_frontier_on_sites_it_was_not_built_for(opaque):
    cov = {"frontier": [], "planner": []}
    for site_seed in range(15):
        s = _synthetic_site(site_seed, opaque)
        for name in cov:
            cov[name] += [
                run(RunConfig(name, budget=s.n_nodes * 5 // 4), seed, s).coverage for seed in range(8)
            ]
    assert statistics.fmean(cov["planner"]) > statistics.fmean(cov["frontier"]) + 0.03


def test_the_same_query_parameters_in_another_order_are_one_page_type():
    assert route_shape("/items/?size=25&page=2") == route_shape("/items/?page=1&size=50")
    assert route_shape("/items/?size=25&page=2") != route_shape("/items/?page=1")


def test_a_path_segment_with_escaped_characters_is_a_value():
    """A framework's route words never hold a space or a quote: a segment with a percent-escape is a
    title, a file name or a saved query the app wrote into the path, one page type for all of them
    (a calendar feed per saved search was one "new" page type each, clicked again and again)."""
    feed = "/NoAuth/iCal/ann/09d9d1dc87bcd124/Queue%20=%20%27Billing%27"
    other = "/NoAuth/iCal/ann/e0e2cc9fff98710d/%28Status%20=%20%27resolved%27%29"
    assert route_shape(feed) == route_shape(other) == "/NoAuth/iCal/ann/<id>/<slug>"
    assert route_shape("/wiki/Main%20Page") == route_shape("/wiki/Release%20notes") == "/wiki/<slug>"
    assert route_shape("/files/%E6%96%87%E6%A1%A3.txt") == "/files/<slug>"  # a name in another script
    assert route_shape("/wiki/Main") == "/wiki/Main"  # a word: maybe the route's own name


def test_a_front_controller_s_query_words_name_its_page_types():
    """`/doku.php?do=recent` and `?do=media` are two page types, as `/recent` and `/media` would be,
    and a search's refinements (`?do=search&sf=1&srt=mtime`) are views of the search page, counted
    against it alone: with every query word a `<slug>`, every page of such a site was one path's views."""
    assert route_shape("/doku.php?id=start&do=recent") != route_shape("/doku.php?id=start&do=index")
    assert route_shape("/index.php?action=edit&id=12") == "/index.php?action=edit&id=<n>"
    assert route_shape("/index.php?action=show&id=intro") == "/index.php?action=show&id=<slug>"  # a value
    assert route_shape("/index.php?q=how-to-sharpen") == "/index.php?q=<slug>"
    assert route_shape("/search?q=shoes") == route_shape("/search?q=boots")  # no script: a value
    assert route_shape("/search?do=find") == "/search?do=<slug>"
    search = _view(route_shape("/doku.php?id=start&do=search&q=test&sf=1&srt=mtime"))
    assert search == ("/doku.php?do=search", frozenset({"id", "q", "sf", "srt"}))
    assert _view(route_shape("/doku.php?id=start&do=recent"))[0] == "/doku.php?do=recent"
    assert _view(route_shape("/tag/python?page=2&sort=new")) == ("/tag/python", frozenset({"sort"}))


def test_an_offset_pager_s_next_page_has_a_higher_offset():
    from bughunt.sim.planner import next_page

    assert next_page("/wiki.php?id=home&do=log", "/wiki.php?do=log&first=20&id=home")
    assert next_page("/wiki.php?do=log&first=20&id=home", "/wiki.php?do=log&first=40&id=home")
    assert next_page("/items?offset=-1", "/items?offset=19")
    assert not next_page("/wiki.php?do=log&first=20&id=home", "/wiki.php?do=log&first=0&id=home")  # newer
    assert not next_page("/items?sort=5", "/items?sort=9")  # not an offset: a value, not the next page
