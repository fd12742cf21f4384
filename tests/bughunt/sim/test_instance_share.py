"""One record's own pages do not take the budget (`sim.instance_share`): a record whose sub-pages took
their share waits while a sibling record with pages of the same names is left. Routes are made up (a
code host's projects, each with views of its files); issue 25."""

from __future__ import annotations

from bughunt.planning import planner_strategy
from bughunt.sim.instance_share import crowded_instances, under
from bughunt.sim.memory import Memory
from bughunt.sim.planner import route_shape
from bughunt.sim.rng import mulberry32

VIEWS = ("history", "source", "blame")
FILES = ("a.c", "b.c", "docs/x.md", "docs/y.md", "Makefile", "README", "tests/t1.c")


def _pages(project: str) -> list[str]:
    """A project's pages: each view of each file (21 routes, each a path of its own)."""
    return [f"/{project}/{view}/{name}" for view in VIEWS for name in FILES]


def test_a_record_whose_pages_took_their_share_is_crowded_while_a_sibling_waits() -> None:
    visited = ["/", *_pages("orbit")[:20]]
    known = [*visited, *_pages("orbit")[20:], "/zephyr/history/README", "/zephyr/source/README"]
    assert crowded_instances(visited, known, 100) == {"/orbit/"}
    assert crowded_instances(visited[:15], known, 100) == frozenset()  # below its share (20)
    # a short budget's share is smaller (never fewer than 5)
    assert crowded_instances(visited[:8], known, 30) == {"/orbit/"}


def test_no_sibling_mirroring_it_no_crowding() -> None:
    visited = ["/", *_pages("orbit")[:20]]
    alone = [*visited, *_pages("orbit")[20:]]
    assert crowded_instances(visited, alone, 100) == frozenset()  # one project: its pages are the site
    # a section beside it sharing one name only (`history`) is not a record of its type
    section = [*alone, "/settings/history", "/settings/profile"]
    assert crowded_instances(visited, section, 100) == frozenset()
    # sections whose sub-pages are identifiers share values, not views (`/post/3`, `/category/3`)
    posts = [f"/post/{n}?page={p}" for n in range(1, 6) for p in (1, 2, 3, 4)]
    numbered = [*posts, "/category/1", "/category/2", "/category/3"]
    assert crowded_instances(posts, numbered, 100) == frozenset()
    # a sibling with nothing left to visit: nothing waits
    done = ["/zephyr/history/README", "/zephyr/source/README"]
    assert crowded_instances([*visited, *done], [*alone, *done], 100) == frozenset()


def test_under_a_prefix() -> None:
    assert under("/orbit/history/a.c?rev=3", {"/orbit/"})
    assert under("/orbit", {"/orbit/"})
    assert not under("/orbital/history", {"/orbit/"})


def test_the_planner_leaves_a_crowded_records_pages_for_a_sibling_record() -> None:
    mem = Memory()
    orbit = _pages("orbit")
    mem.write("/", ("/orbit/history/README", "/zephyr/history/README"))
    for route in orbit[:20]:
        mem.write(route, (*orbit, "/"))
    links = (*orbit[20:], "/")
    plain = planner_strategy.with_templates(route_shape)
    choices = {plain(orbit[19], links, mem, mulberry32(s)) for s in range(1000, 1006)}
    assert choices == {orbit[20]}, "without the hint: the record's own next page"
    crowded = planner_strategy.with_templates(route_shape, crowded={"/orbit/"})
    choices = {crowded(orbit[19], links, mem, mulberry32(s)) for s in range(1000, 1006)}
    assert choices == {"/"}, "with it: back toward the sibling record"
