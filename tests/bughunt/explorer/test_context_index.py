"""What a policy reads every step is kept up to date on write (issue 28): the visited set, the link
table with the pages linking to each route, the routes known but not visited and the working
context's token count give what reading and rendering the whole store gives, after every kind of
write — a rolled-back one too."""

from __future__ import annotations

import random

import pytest

from bughunt.explorer.choose import _nearest
from bughunt.explorer.graph import CLICK_MARK, ExplorationGraph
from bughunt.explorer.known_pages import KnownPages
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.views import ContextIndex, MemoryConfig, render_working_context
from bughunt.planning import bfs_paths
from memgpt_lite.context.tokens import TokenCounter

CONFIGS = (
    MemoryConfig(),
    MemoryConfig(link_table=False),
    MemoryConfig(capacity=3),
    MemoryConfig(bug_list=False),
)


def _routes(rnd: random.Random) -> list[str]:
    return [f"/p/{rnd.randrange(40)}" for _ in range(rnd.randrange(0, 6))] + (
        [f"/p/{rnd.randrange(40)}{CLICK_MARK}ab"] if rnd.random() < 0.1 else []
    )


def _naive_known_unvisited(store: ExplorerStore) -> list[str]:
    table = store.link_table.all()
    return sorted({d for ds in table.values() for d in ds} - set(store.visits.visited()))


def _check(
    store: ExplorerStore,
    indexes: list[ContextIndex],
    count: TokenCounter,
    position: str,
    known: KnownPages,
    mirror: set[str],
) -> None:
    graph = ExplorationGraph(store)
    # the known pages as a set, and its changes replayed on a copy, are the list read from the store
    added, removed = known.changes()
    assert not added & removed
    assert not added & mirror and removed <= mirror
    mirror -= removed
    mirror |= added
    assert known.routes == mirror == set(graph.known_pages())
    table = store.link_table.all()
    for index in indexes:
        text = render_working_context(store, position, index.config)
        assert index.tokens(position) == count.count_lines(text), (index.config, text)
        assert list(index.unvisited()) == _naive_known_unvisited(store)
    for route in {d for ds in table.values() for d in ds} | set(table):
        sources = [src for src, dsts in table.items() if route in dsts]
        made_on = [
            click[0] for src in sources if (click := graph.click_of(src)) and CLICK_MARK not in click[0]
        ]
        want = sorted({src for src in sources if CLICK_MARK not in src} | set(made_on))
        assert graph.linking_to(route) == want
        assert graph.is_known(route) == (route in graph.known())
    rows = store.db.execute(
        "SELECT route, outcome, structure_hash FROM pages ORDER BY first_visited_at, rowid"
    )
    rows = list(rows)
    assert store.visits.visited() == [r["route"] for r in rows]
    assert store.visits.explored() == [r["route"] for r in rows if r["outcome"] == "page"]
    assert store.visits.structure_hashes() == {
        r["route"]: r["structure_hash"] for r in rows if r["outcome"] == "page"
    }


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kept_figures_match_the_store_after_every_kind_of_write(tmp_path, seed):
    rnd = random.Random(seed)
    count = TokenCounter()
    store = ExplorerStore(tmp_path / "s")
    try:
        indexes = [ContextIndex(store, config, count.count_lines) for config in CONFIGS]
        known, mirror = KnownPages(ExplorationGraph(store)), set[str]()
        clock = 100.0
        for i in range(120):
            route = f"/p/{rnd.randrange(40)}"
            # the clock sometimes goes back: the visited set is ordered by first-visit time all the same
            clock += rnd.choice((1.0, 1.0, 0.0, -3.0))
            what = rnd.random()
            try:
                with store.transaction():
                    if what < 0.6:
                        outcome = rnd.choice(("page", "page", "page", "http_error", "redirect"))
                        # (no links: a fetch that failed keeps the page's links, its outcome changes)
                        links = _routes(rnd) if rnd.random() < 0.8 else None
                        store.visits.record(route, outcome, 200, "1", links, clock)
                        store.visits.set_structure_hash(route, rnd.choice(("h1", "h2", None)))
                    elif what < 0.7:
                        store.visits.mark_route_for_retest(route)
                    elif what < 0.75:
                        store.visits.mark_for_retest(rnd.choice(("1", "2")))
                    elif what < 0.8:
                        store.bug_table.insert(
                            f"fp{i % 5}", route, "server_error", "m", {}, "open", "1", clock, i
                        )
                    elif what < 0.85:
                        store.notebook.add_note(f"note {i}\n2 lines, {route}", 1, i, clock, author="harness")
                    elif what < 0.88:
                        store.visits.forget(["http_error"])
                    elif what < 0.9:
                        store.expire(clock - 20)
                    else:
                        store.visits.record(route, "page", 200, "1", _routes(rnd), clock)
                        store.notebook.add_note(f"rolled back {i}", 1, i, clock)
                        raise KeyboardInterrupt  # the step is rolled back: the copies must be too
            except KeyboardInterrupt:
                pass
            if i % 3 == 0:
                _check(store, indexes, count, route, known, mirror)
        _check(store, indexes, count, "/p/0", known, mirror)
    finally:
        store.close()


def _reference_path(graph: dict[str, list[str]], source: str, goals: set[str]) -> list[str] | None:
    """`Chooser.travel` as it was: every shortest path, then the nearest goal (least route on a tie)."""
    paths = bfs_paths(graph, source)
    reachable = [g for g in goals if g in paths]
    if not reachable:
        return None
    best = min(reachable, key=lambda g: (len(paths[g]), g))
    return list(paths[best])


@pytest.mark.parametrize("seed", range(20))
def test_a_trip_stops_at_the_nearest_goal_and_takes_the_same_path(seed):
    rnd = random.Random(seed)
    nodes = [f"/n{i}" for i in range(60)]
    graph = {n: rnd.sample(nodes, rnd.randrange(0, 4)) for n in nodes}
    for _ in range(10):
        source = rnd.choice(nodes)
        goals = set(rnd.sample(nodes, rnd.randrange(1, 5))) - {source}
        onward = lambda n: [d for d in graph.get(n, ()) if d != n]  # noqa: E731
        want = _reference_path({n: onward(n) for n in graph}, source, goals)
        assert _nearest(source, goals, onward) == want


def test_a_links_line_is_counted_again_only_when_its_links_change(tmp_path):
    """A page is touched whenever a page linking to it is written; its own links line is the same
    until its own links change, so it is not counted again (the count stays exact: above)."""
    counter = TokenCounter()
    counted: list[str] = []

    def count(text: str) -> int:
        counted.append(text)
        return counter.count_lines(text)

    store = ExplorerStore(tmp_path / "s")
    try:
        index = ContextIndex(store, MemoryConfig(), count)
        with store.transaction():
            store.visits.record("/hub", "page", 200, "1", ["/a", "/b"], 1.0)
        index.tokens("/hub")
        with store.transaction():
            store.visits.record("/a", "page", 200, "1", ["/hub", "/b"], 2.0)
        index.tokens("/a")
        counted.clear()
        with store.transaction():  # /b links back to /hub and /a: both are touched, neither changed
            store.visits.record("/b", "page", 200, "1", ["/hub", "/a"], 3.0)
        total = index.tokens("/b")
        assert not [t for t in counted if t.startswith(("links /hub ", "links /a "))]
        assert [t for t in counted if t.startswith("links /b ")]
        assert total == counter.count_lines(render_working_context(store, "/b", MemoryConfig()))
        with store.transaction():  # the hub's links change: its line is counted again
            store.visits.record("/hub", "page", 200, "1", ["/a", "/b", "/c"], 4.0)
        counted.clear()
        total = index.tokens("/hub")
        assert [t for t in counted if t.startswith("links /hub ")]
        assert total == counter.count_lines(render_working_context(store, "/hub", MemoryConfig()))
    finally:
        store.close()
