"""A list's pager whose links carry the whole search in the query is followed (issue 25).

Ticket trackers and report screens page their results with links holding the search itself: the
columns' format, the query, the order (~1,000 characters once encoded). Such a route is a page the
explorer names, keeps in its link table and follows; a route longer than `MAX_ROUTE_CHARS` is not.
"""

from __future__ import annotations

from urllib.parse import quote

from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.templates import safe_route
from bughunt.urls import MAX_ROUTE_CHARS

COLUMNS = ",".join(
    f"'<b><a href=\"/Ticket/Display.html?id=__id__\">__{c}__</a></b>/TITLE:{c}'"
    for c in ("id", "Subject", "Status", "QueueName", "Owner", "Priority", "Requestors", "Created", "Told")
)
PAGE_2 = (
    "/Search/Results.html?Format="
    + quote(COLUMNS)
    + "&Order=ASC&OrderBy=id&Page=2&Query="
    + quote("Queue = 'IT Support' AND Status = '__Active__'")
)


def test_a_pager_link_carrying_its_search_is_a_route_kept_and_followed():
    assert 700 < len(PAGE_2) < MAX_ROUTE_CHARS
    engine = HttpEngine("http://127.0.0.1:9/", respect_robots=False)
    route = engine.route_of(PAGE_2)
    assert route is not None and "Page=2" in route
    assert safe_route(route) is not None


def test_a_longer_route_than_the_bound_is_neither_named_nor_kept():
    engine = HttpEngine("http://127.0.0.1:9/", respect_robots=False)
    long = "/Search/Results.html?Query=" + "x" * MAX_ROUTE_CHARS
    assert engine.route_of(long) is None and safe_route(long) is None
