"""One record's own pages do not take the budget (`sim.instance_share`): a record whose sub-pages took
their share waits while a sibling record with pages of the same names is left. Routes are made up (a
code host's projects, each with views of its files); issue 25."""

from __future__ import annotations

from bughunt.planning import planner_strategy
from bughunt.sim.instance_share import InstanceShare, crowded_instances, under
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


def test_kept_up_to_date_it_answers_as_read_afresh():
    """Asked at every choice while pages are visited and found (and once after memory lost some), the
    kept reading answers what a reading of the whole sets answers."""
    import random

    rng = random.Random(7)
    repos = ["orbit", "atlas", "kv-store", "lumen"]
    views = ["log", "tree", "commit", "diff", "refs", "about"]
    pool = (
        [
            f"/{r}/{v}/{f}?id={n}"
            for r in repos
            for v in views
            for f in ("a.c", "README", "src")
            for n in range(4)
        ]
        + [f"/{r}/" for r in repos]
        + [f"/{r}/{v}" for r in repos for v in views]
    )
    kept = InstanceShare()
    visited: set[str] = set()
    known: set[str] = set()
    answers = set()
    for step in range(260):
        known.update(rng.sample(pool, 3))
        for _ in range(1 if step < 120 else 5):  # later, every record's known pages run out
            if known - visited:
                visited.add(rng.choice(sorted(known - visited)))
        if step == 200:
            visited = set(sorted(visited)[::2])  # memory lost some pages
            known = set(sorted(known)[::2]) | visited
        for budget in (30, 100):
            got = kept.crowded(visited, known, budget)
            assert got == crowded_instances(visited, known, budget), step
            answers.add(got)
    assert len(answers) > 2  # the walk went through several answers, crowded ones among them


def test_kept_it_lets_a_record_go_once_its_sibling_was_read() -> None:
    """The kept reading sees a sibling's last known page visited: nothing of it waits any more, so the
    record that took its share is no longer held back."""
    kept = InstanceShare()
    visited = {"/", *_pages("orbit")[:20]}
    known = {*visited, *_pages("orbit")[20:], "/zephyr/history/README", "/zephyr/source/README"}
    assert kept.crowded(visited, known, 100) == {"/orbit/"}
    visited |= {"/zephyr/history/README", "/zephyr/source/README"}
    assert kept.crowded(visited, known, 100) == frozenset()
