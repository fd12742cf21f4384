"""The pages an explorer could reach on a site: a breadth-first crawl through the explorer's own engine.

Ablations on a site whose page list is not known up front (the conduit-htmx site, where each account
sees other pages) measure coverage against this: every page a crawl from the start page reaches,
by the same actions the explorer takes (links, `hx-get` buttons, GET forms with generated values)
and under the same rules (same origin, robots.txt, logout and destructive links never followed). A
crawl only reads: it follows nothing the explorer would not.
"""

from __future__ import annotations

from collections import deque

from .engine import Engine

MAX_PAGES = 2000
"""A crawl stops after this many fetches (a site with unbounded generated pages stays bounded)."""


def reachable_routes(engine: Engine, start: str | None = None, limit: int = MAX_PAGES) -> frozenset[str]:
    """Routes of the pages (outcome "page", after redirects) reachable from `start` (default: the
    engine's start route) with `engine` as it is (logged in or not)."""
    first = start or engine.start_route()
    queue: deque[str] = deque([first])
    queued = {first}
    pages: set[str] = set()
    fetched = 0
    while queue and fetched < limit:
        route = queue.popleft()
        result = engine.fetch(route)
        fetched += 1
        if result.outcome != "page" or result.page is None:
            continue
        pages.add(result.final_route or route)
        for action in engine.actions(result.page):
            target = engine.route_of(action.target)
            if target is None or target in queued or not engine.followable(target):
                continue
            queued.add(target)
            queue.append(target)
    return frozenset(pages)
