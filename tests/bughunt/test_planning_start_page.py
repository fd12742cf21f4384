"""The planner goes back to the start page when what is left is linked only from pages before this one.

A memory written here: the start page links to two projects; the second project's list, where the
walk now is, links only to its records' edit forms (a saturated page type), while the first
project's search results — a page type not seen yet — are linked from the first project's list
alone. No known link from here leads there: without the start page the walk opened every further
edit form of the second project (48 of them on a real shared-budget app) before anything else.
"""

from __future__ import annotations

from bughunt.sim.memory import Memory
from bughunt.sim.planner import planner_strategy
from bughunt.sim.rng import mulberry32

SEEDS = range(8)


def template(route: str) -> str:
    head, _, tail = route.rpartition("/")
    return f"{head}/<n>" if tail.isdigit() else route


def memory() -> Memory:
    mem = Memory()
    mem.write("/", ("/a/", "/b/"))
    mem.write("/a/", ("/", "/a/?q=test"))
    edits = [f"/b/edit/{n}" for n in range(1, 7)]
    mem.write("/b/", tuple(edits))
    for visited in edits[:3]:
        mem.write(visited, ("/b/",))
    return mem


def choices(start: str | None) -> set[str]:
    planner = planner_strategy.with_templates(template, saturated={"/b/edit/<n>"}, start=start)
    links = ("/b/edit/4", "/b/edit/5", "/b/edit/6")
    return {planner("/b/", links, memory(), mulberry32(s)) for s in SEEDS}


def test_a_page_type_not_seen_yet_linked_only_before_this_page_is_reached_by_the_start_page():
    assert choices(start="/") == {"/"}


def test_without_a_start_page_or_with_nothing_better_the_links_here_are_taken():
    assert choices(start=None) <= {"/b/edit/4", "/b/edit/5", "/b/edit/6"}
    planner = planner_strategy.with_templates(template, saturated={"/b/edit/<n>"}, start="/")
    mem = memory()
    mem.write("/a/?q=test", ("/a/",))
    assert planner("/b/", ("/b/edit/4",), mem, mulberry32(1)) == "/b/edit/4"
