"""Version invalidation: after the app changes version, re-test what memory says may have changed.

When a fetched page states a version other than the one memory was written under, every page tested
under the old version becomes "needs retest". The remembered bug pages are re-tested first, along the
shortest tour the *remembered* link table allows (`bughunt.planning.shortest_tour`, computed from
memory, never typed in); then the other pages due, nearest first over remembered links. The planned
walk is kept in the store so an interrupted retest resumes where it stopped.
"""

from __future__ import annotations

import json

from bughunt.planning import bfs_paths, shortest_tour
from bughunt.sim.strategies import step_toward_nearest_unknown
from memgpt_lite.log import logger

from .store import ExplorerStore
from .views import DueView

WALK_KEY = "retest_walk"


def invalidate(store: ExplorerStore, new_version: str, position: str) -> list[str]:
    """Mark pages tested under another version as due, and plan the bug-page tour from `position`.

    Call inside a transaction. Returns the planned walk (routes to fetch, in order)."""
    old = store.meta.get("app_version")
    store.meta.set("app_version", new_version)
    due = store.visits.mark_for_retest(new_version)
    bug_pages = list(dict.fromkeys(b.route for b in store.bug_table.live() if b.status == "open"))
    walk = plan_tour(store.link_table.all(), position, bug_pages)
    store.meta.set(WALK_KEY, json.dumps(walk))
    store.meta.set("version_changed_from", old or "")
    logger.info("app version {} -> {}: {} pages due for retest; bug tour {}", old, new_version, due, walk)
    return walk


def force(store: ExplorerStore, position: str) -> list[str]:
    """`resume --retest`: every remembered page is due, bug pages first, under the current version.

    Call inside a transaction."""
    store.visits.mark_all_for_retest()
    bug_pages = list(dict.fromkeys(b.route for b in store.bug_table.live() if b.status == "open"))
    walk = plan_tour(store.link_table.all(), position, bug_pages)
    store.meta.set(WALK_KEY, json.dumps(walk))
    logger.info("re-test forced: {} pages due; bug tour {}", len(store.visits.needs_retest()), walk)
    return walk


def structure_changed(store: ExplorerStore, route: str, old_hash: str) -> int:
    """`route` came back with another DOM structure than memory holds: the app changed without saying
    so. Its template mates — remembered pages that had its old structure or share its URL shape — are
    due for re-test (the page itself was just re-tested by this fetch). Call inside a transaction."""
    from .templates import route_shape

    hashes = store.visits.structure_hashes()
    shape = route_shape(route)
    mates = [
        r for r, h in hashes.items()
        if r != route and (h == old_hash or route_shape(r) == shape)
    ]  # fmt: skip
    for r in mates:
        store.visits.mark_route_for_retest(r)
    return len(mates)


def plan_tour(links: dict[str, list[str]], start: str, targets: list[str]) -> list[str]:
    """The routes to fetch, in order, to visit every target reachable from `start` over `links`."""
    graph = {src: list(dsts) for src, dsts in links.items()}
    reachable = bfs_paths(graph, start)
    goals = [t for t in targets if t != start and t in reachable]
    if not goals:
        return []
    return [str(r) for r in shortest_tour(graph, start, goals).walk[1:]]


def next_retest(store: ExplorerStore, position: str, followable: set[str]) -> tuple[str | None, bool]:
    """(the next route to re-test, or None when nothing is due (retest mode over); whether the planned
    walk is to be dropped — the step writes that, with everything else it changes)."""
    due = set(store.visits.due_pages())  # one address per page, whatever its request token
    walk: list[str] = json.loads(store.meta.get(WALK_KEY) or "[]")
    if walk:
        if walk[0] in followable:
            return walk[0], False
        # The remembered map was wrong here (the link vanished): drop the plan and go nearest-first.
        logger.info("retest tour: {} is not a link of {} any more; replanning", walk[0], position)
    dropped = bool(walk)
    if not due:
        return None, dropped
    table = store.link_table.all()
    here = [r for r in table.get(position, []) if r in followable]
    others = due - {position}
    step = (
        step_toward_nearest_unknown(position, here, DueView(table, others, store.visits.is_seen_page))
        if others
        else None
    )
    if step is None and position in due:
        return position, dropped  # reload the page we stand on
    return step, dropped


def drop_walk(store: ExplorerStore) -> None:
    """Forget the planned walk (inside the step's transaction)."""
    store.meta.set(WALK_KEY, "[]")


def advance_walk(store: ExplorerStore, fetched: str) -> None:
    """Drop the head of the planned walk once it has been fetched (inside the step's transaction)."""
    walk: list[str] = json.loads(store.meta.get(WALK_KEY) or "[]")
    if walk and walk[0] == fetched:
        store.meta.set(WALK_KEY, json.dumps(walk[1:]))
