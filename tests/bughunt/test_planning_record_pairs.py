"""The pair the form oracle needs (issue 25): a record's edit form opened from the record's page.

A tracker whose ticket page links the ticket's edit form (`/Ticket/Modify.html?id=<n>`) after two other
sections' forms of the same kind were opened (`/Dashboards/Modify.html?id=<n>`, `/Queues/Modify.html?…`):
`kind_keys` made the ticket's form one more form of a sampled kind, and the walk took the ticket's other
new page types and left — the form was never opened in 100 clicks. A link carrying the record's own
identifier belongs to the record (`record_pairs.carries_record`)."""

from __future__ import annotations

from bughunt.planning import planner_strategy
from bughunt.sim.memory import Memory
from bughunt.sim.record_pairs import carries_record
from bughunt.sim.rng import mulberry32
from bughunt.sim.route_shapes import route_shape

SEEDS = range(1000, 1012)


def _choices(cur: str, links: tuple[str, ...], mem: Memory) -> set[str]:
    return {planner_strategy(cur, links, mem, mulberry32(s)) for s in SEEDS}


def test_a_link_carrying_the_records_identifier_is_the_records_own_page():
    assert carries_record("/Ticket/Display.html?id=25", "/Ticket/Modify.html?id=25")
    assert carries_record("/Ticket/Display.html?id=25", "/Ticket/Update.html?Action=Comment;id=25")
    assert carries_record("/article/first-post", "/editor/first-post")
    assert carries_record(
        "/?controller=Task&action=show&task_id=5", "/?controller=Task&action=edit&task_id=5"
    )
    assert not carries_record("/Ticket/Display.html?id=25", "/Dashboards/Modify.html?id=14"), "another record"
    assert not carries_record("/Ticket/Display.html?id=25", "/Ticket/Display.html?Action=Take;id=25"), (
        "the same page with an action added is its own view"
    )
    assert not carries_record("/tickets?page=2", "/tickets?page=3"), "a page number names no record"
    assert not carries_record("/users", "/users/edit"), "a section, not a record"


def test_the_records_edit_form_comes_before_its_other_new_page_types():
    mem = Memory()
    forms = ("/Dashboards/Modify.html?id=14", "/Queues/Modify.html?id=3")
    ticket = "/Ticket/Display.html?id=25"
    own = "/Ticket/Modify.html?id=25"
    others = ("/Reports/Created.html", "/Tools/MyDay.html", "/Prefs/Other.html", "/Approvals/")
    mem.write("/", (*forms, ticket, *others))
    for form in forms:
        mem.write(form, ("/",))
    links = ("/", own, *others)
    mem.write(ticket, links)
    # two forms of the kind `/*/Modify.html?id=<n>` seen: without the record's pair the ticket's form
    # waits behind the four pages of types not seen yet
    assert _choices(ticket, links, mem) == {own}
    # from another page the same form is one more of a sampled kind: the pages not seen come first
    mem.write("/Approvals/", ("/", own, *others[:3]))
    assert own not in _choices("/Approvals/", ("/", own, *others[:3]), mem)


def test_the_records_own_page_comes_before_a_form_sending_to_another_page():
    # the ticket page's "create a linked ticket" form (a GET form to a path not seen: a probe) was
    # opened first, and then the walk left the ticket: the ticket's own pages come first
    mem = Memory()
    ticket = "/Ticket/Display.html?id=25"
    own = "/Ticket/Modify.html?id=25"
    spawn = "/Helpers/SpawnLinkedTicket?CloneTicket=25&CloneQueue=4"
    links = ("/", own, spawn)
    mem.write("/", (ticket,))
    mem.write(ticket, links)
    planner = planner_strategy.with_templates(route_shape, probes=[spawn])
    assert {planner(ticket, links, mem, mulberry32(s)) for s in SEEDS} == {own}
