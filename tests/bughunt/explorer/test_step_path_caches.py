"""What a step asks again and again is answered once (issue 28, the step's path): the pure readings of
a route are kept, and the working context's counter is found once, not imported per piece."""

from __future__ import annotations

from bughunt.explorer import loop
from bughunt.explorer.templates import safe_route
from bughunt.sim.planner import _segments, leads_on


def test_a_routes_canonical_form_is_kept():
    safe_route.cache_clear()
    assert safe_route("/a b/c%20d?x=1#frag") == "/a%20b/c%20d?x=1"
    assert safe_route("/a b/c%20d?x=1#frag") == "/a%20b/c%20d?x=1"
    assert safe_route.cache_info().hits == 1
    assert safe_route("no-slash") is None


def test_the_segments_of_a_path_are_kept():
    _segments.cache_clear()
    assert leads_on("/x/y", "/x/y/comments") and leads_on("/x/y", "/x/y?tab=likes")
    assert _segments.cache_info().hits >= 1  # "/x/y" read once for both links
    assert _segments("/a//b#c/d") == ("a", "b")


def test_the_line_counter_is_found_once():
    loop._line_counter.cache_clear()
    assert loop._count("visited (1): /a") == loop._count("visited (1): /a") > 0
    assert loop._line_counter.cache_info().misses == 1
