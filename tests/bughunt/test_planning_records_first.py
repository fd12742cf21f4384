"""A list's records never opened come before page types a page offers only in its navigation.

A memory written here, shaped like a code host's pages (corpus fossil_scm): a report lists three
tickets and links its own SQL view; the walk stands on the SQL view, whose links are all tool pages
of types not seen yet (a tree, a blame, a raw file). Taking the nearest new type each time walked such
tool pages for a hundred clicks — every page offers another — while the tickets, one click back, were
never opened.
"""

from __future__ import annotations

from bughunt.sim.memory import Memory
from bughunt.sim.planner import planner_strategy
from bughunt.sim.rng import mulberry32

SEEDS = range(8)
TICKETS = ("/ticket/a1b2c3d4e5", "/ticket/f6a7b8c9d0", "/ticket/0a1b2c3d4e")
TOOLS = ("/tree", "/blame", "/raw")


def template(route: str) -> str:
    head, _, tail = route.rpartition("/")
    return f"{head}/<id>" if any(c.isdigit() for c in tail) else route


def memory(*, opened: bool = False) -> Memory[str]:
    mem: Memory[str] = Memory()
    mem.write("/", ("/report/1", "/files"))
    mem.write("/report/1", (*TICKETS, "/reportsql/1", "/"))
    mem.write("/reportsql/1", (*TOOLS, "/report/1"))
    if opened:
        mem.write(TICKETS[0], ("/report/1",))
    return mem


def choices(records: tuple[str, ...], links: tuple[str, ...] = (*TOOLS, "/report/1"), **kw: bool) -> set[str]:
    planner = planner_strategy.with_templates(template, records=records)
    return {planner("/reportsql/1", links, memory(**kw), mulberry32(s)) for s in SEEDS}


def test_the_walk_goes_back_to_the_list_whose_records_were_never_opened():
    assert choices(TICKETS) == {"/report/1"}


def test_without_records_the_nearest_new_page_type_is_taken():
    assert choices(()) <= set(TOOLS)


def test_once_a_record_of_the_list_is_open_the_page_here_is_walked_on():
    assert choices(TICKETS, opened=True) <= set(TOOLS)


def test_a_link_that_leads_on_from_this_page_is_still_taken_first():
    links = (*TOOLS, "/reportsql/1/edit", "/report/1")
    assert choices(TICKETS, links) == {"/reportsql/1/edit"}


def test_the_planner_that_recomputes_everything_chooses_the_same():
    class Plain:
        def __init__(self, mem: Memory[str]) -> None:
            self.mem = mem

        def __contains__(self, node: object) -> bool:
            return node in self.mem

        def __iter__(self):  # noqa: ANN204
            return iter(self.mem)

        def links(self, node: str) -> tuple[str, ...]:
            return tuple(self.mem.links(node))

    planner = planner_strategy.with_templates(template, records=TICKETS)
    links = (*TOOLS, "/report/1")
    assert planner("/reportsql/1", links, Plain(memory()), mulberry32(1)) == "/report/1"


def test_on_the_list_a_record_of_a_type_never_opened_comes_before_the_list_s_own_views():
    # the walk that went back to the report opens a ticket there, not the report's next view
    planner = planner_strategy.with_templates(template, records=TICKETS)
    mem: Memory[str] = Memory()
    mem.write("/", ("/report/1", "/files"))
    links = (*TICKETS, "/report/1?view=tree", "/")
    mem.write("/report/1", links)
    assert {planner("/report/1", links, mem, mulberry32(s)) for s in SEEDS} <= set(TICKETS)
    without = planner_strategy.with_templates(template)
    assert {without("/report/1", links, mem, mulberry32(s)) for s in SEEDS} == {"/report/1?view=tree"}
