"""A list's bounds, not its middle (issue 25): from a list's second page on, the last page its pager
offers is taken, and the pages between wait like any instance of a sampled type.

A forum's numbered lists (`?page=1` … `?page=21` on every page of each) were read page after page
(53 of 100 clicks), since the next page of a list was always taken from the page before it; the
topics, where the stored data is, came last."""

from __future__ import annotations

from bughunt.planning import planner_strategy
from bughunt.sim.memory import Memory
from bughunt.sim.pager_links import page_number, page_of
from bughunt.sim.rng import mulberry32
from bughunt.sim.route_shapes import route_shape

SEEDS = range(1000, 1012)


def _choices(cur: str, links: tuple[str, ...], mem: Memory) -> set[str]:
    return {planner_strategy(cur, links, mem, mulberry32(s)) for s in SEEDS}


def test_page_numbers_read_from_the_query():
    assert page_number("/tag/bug?page=4") == 4
    assert page_number("/tag/bug") is None
    assert page_number("/queue?start=0") == 1
    assert page_number("/queue?start=40") == 2, "an offset past the first rows: at least the second page"
    assert page_of("/tag/bug", "/tag/bug?page=9") == 9
    assert page_of("/tag/bug?page=2", "/tag/bug?page=9") == 9
    assert page_of("/tag/bug?page=2", "/tag/help?page=9") is None, "another list"
    assert page_of("/posts?sort=new&page=2", "/posts?page=9") is None, "another view of the list"
    assert page_of("/posts?page_size=5&page=2", "/posts?page=9&page_size=5") == 9, "keys in another order"
    assert page_of("/posts?page=2", "/posts/9") is None


def _forum(mem: Memory, pages: int) -> tuple[str, ...]:
    """A forum whose list `/tag/bug` numbers its pages 1…`pages` on each page, two topics a page, and
    whose layout links sections of types not seen yet. Page 1 and 2 and two topics are visited."""
    sections = ("/profile/alice", "/posts/create")
    pager = tuple(f"/tag/bug?page={n}" for n in range(1, pages + 1))
    mem.write("/", ("/tag/bug", *sections))
    mem.write("/tag/bug", ("/", *sections, "/posts/topic-1", "/posts/topic-2", *pager))
    mem.write("/posts/topic-1", ("/", *sections))
    mem.write("/posts/topic-2", ("/", *sections))
    return ("/", *sections, "/posts/topic-3", "/posts/topic-4", *pager)


def test_from_the_second_page_the_last_page_is_taken():
    mem = Memory()
    links = _forum(mem, 9)
    mem.write("/tag/bug?page=2", links)
    # page 3 is the next page, of a type sampled (two pages of the list seen): from page 2 on the list's
    # last page is what is taken, not the next one
    assert _choices("/tag/bug?page=2", links, mem) == {"/tag/bug?page=9"}


def test_once_its_bounds_are_read_the_middle_pages_wait_for_a_page_not_seen():
    mem = Memory()
    _forum(mem, 9)
    # the list's pages link its topics and its pager alone; a profile (a type not seen) is linked from
    # the home page
    links = ("/", "/posts/topic-3", "/posts/topic-4", *(f"/tag/bug?page={n}" for n in range(1, 10)))
    for n in (2, 9, 3):
        mem.write(f"/tag/bug?page={n}", links)
    # on page 3, with page 2 and the last page read, page 4 is one more sampled instance: the walk goes
    # back for the profile (main took page 4, 5, … one after the other, a list's next page always taken
    # from the page before it)
    assert _choices("/tag/bug?page=3", links, mem) == {"/"}


def test_the_last_page_is_taken_over_the_lists_most_linked_page():
    # every page of the list links the pages near it, so the next page is the most linked of the pager's
    # pages: among one template's instances the most linked is taken (`popularity`), not the last page
    mem = Memory()
    links = _forum(mem, 9)
    mem.write("/tag/bug?page=2", links)
    popularity = {f"/tag/bug?page={n}": 3 if n == 3 else 1 for n in range(1, 10)}
    planner = planner_strategy.with_templates(route_shape, popularity=popularity)
    chosen = {planner("/tag/bug?page=2", links, mem, mulberry32(s)) for s in SEEDS}
    assert chosen == {"/tag/bug?page=9"}


def test_the_records_a_list_shows_come_before_its_middle_pages():
    # every type seen: the topics not opened yet (instances of a sampled type) before the list's
    # middle pages, which list topics of the same type again (main read page 4, 5, … of each list
    # and opened the topics, where the stored data is, at the end)
    mem = Memory()
    links = ("/", "/posts/topic-3", "/posts/topic-4", *(f"/tag/bug?page={n}" for n in range(1, 10)))
    mem.write("/", ("/tag/bug",))
    mem.write("/tag/bug", ("/", "/posts/topic-1", "/posts/topic-2", *links[3:]))
    for page in ("/posts/topic-1", "/posts/topic-2"):
        mem.write(page, ("/",))
    for n in (2, 9, 3):
        mem.write(f"/tag/bug?page={n}", links)
    assert _choices("/tag/bug?page=3", links, mem) <= {"/posts/topic-3", "/posts/topic-4"}
