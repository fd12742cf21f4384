"""Planning over remembered links: the exact re-test tour and the `planner` exploration strategy."""

from __future__ import annotations

import statistics

import pytest

from bughunt import site
from bughunt.planning import bfs_paths, planner_strategy, shortest_tour
from bughunt.sim.engine import RunConfig, SimSite, run
from bughunt.sim.memory import Memory
from bughunt.sim.rng import mulberry32
from bughunt.sim.strategies import get_strategy
from memgpt_lite.errors import UsageError


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


def test_planner_is_registered_and_beats_frontier():
    get_strategy("planner")
    seeds = range(1000, 1200)
    planner = [run(RunConfig("planner"), s) for s in seeds]
    frontier = [run(RunConfig("frontier"), s) for s in seeds]
    assert (
        statistics.fmean(r.coverage for r in planner) > 0.99 > statistics.fmean(r.coverage for r in frontier)
    )
    assert sum(r.coverage == 1 for r in planner) >= 180
    bugs = [run(RunConfig("planner", until_all_bugs=True), s).steps for s in seeds]
    assert statistics.fmean(bugs) < 29


def test_planner_does_not_depend_on_node_names():
    # relabel every page with an opaque string: the walk must be the same walk, relabelled
    name = {p: f"page-{(p * 7919) % 101:03d}" for p in range(site.N_PAGES)}
    relabelled = SimSite(
        links={name[p]: tuple(name[q] for q in qs) for p, qs in site.LINKS.items()},
        start=name[0],
        bugs=frozenset(name[b] for b in site.BUG_PAGES),
    )
    for seed in (1000, 1001, 1002):
        a = run(RunConfig("planner"), seed)
        b = run(RunConfig("planner"), seed, relabelled)
        assert b.path == [name[p] for p in a.path]


def test_planner_works_with_a_view_that_cannot_list_itself():
    class View:  # only the minimal KnownLinks protocol, like the explorer's retest view
        def __init__(self, table):
            self.table = table

        def __contains__(self, node):
            return node in self.table

        def links(self, node):
            return self.table.get(node, ())

    table = {"h": ("a", "b"), "a": ("h",), "b": ("h", "c")}
    assert planner_strategy("a", ("h",), View(table), mulberry32(1)) == "h"
    assert planner_strategy("b", ("h", "c"), View(table), mulberry32(1)) == "c"
