"""A link that carries the request's own id (`?…&rid=6b13da486e5e1`: a front controller stamps a drawn id
on a request it forwards internally, and the page's links carry it on) is the same link on every load,
though the id is new each time — as a CSRF token's value is. A feed reader's view links were taken again
under each new id (54 of 100 clicks). A key that happens to be named so but holds a record's number
(`?rid=42`, a room or a revision) still tells pages apart."""

from __future__ import annotations

from bughunt.sim.planner import first_page_alias
from bughunt.sim.route_keys import has_token, page_key


def test_a_link_seen_under_another_request_id_is_a_page_seen() -> None:
    seen = ["/i/?a=normal&get=f_3&rid=6b13da41ce412"]
    assert first_page_alias("/i/?a=normal&get=f_3&rid=6b13da486e5e1", [], seen)
    assert page_key("/x?request_id=0f3a9c2be18d4e77") == page_key("/x?request_id=9c2b0f3ae18d4e77")
    assert has_token("/i/?a=reader&rid=6b13da0e4085b")


def test_a_record_number_under_such_a_key_still_names_another_page() -> None:
    assert not first_page_alias("/rooms?rid=43", [], ["/rooms?rid=42"])
    assert page_key("/rev?rid=1234567890") != page_key("/rev?rid=1234567891")
    assert not has_token("/rooms?rid=42")
