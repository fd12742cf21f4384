"""No one record's own pages take the click budget: once the pages under one record took a share of
the budget, and a sibling record with pages of the same names waits, the pages under the first wait
like a saturated type's (issue 25).

A record with pages of its own below its address — a repository's views of each file at each commit
(`/<repo>/log/src/a.c?id=…`, `/<repo>/diff/README?id=…&id2=…`), a project's issues, wiki and files, a
mailbox's folders — offers more page types than the budget: views × paths × query keys, each a new
route shape, so each is wanted as an unsampled template and the walk reads one record's combinations
while its siblings in the list wait. A bug that lives in one record's data (a message quoting markup,
the first commit of a small repository, a long history's second page) is then never reached. The
record's share is `activity_share.ACTIVITY_SHARE` of the budget (never fewer than `MIN_INSTANCES`
pages), the same share one page type may take.

A record is a path prefix (`/kv-store/` of `/kv-store/diff/src/a.c`) that a sibling prefix (the same
path but for its last segment, `/atlas/`) mirrors: the pages known under both start with at least
`SHARED_VIEWS` names in common (`log`, `tree`, `commit`…: words, not values) — the views every record
of the type has.
The URL alone says it, whatever the record's name looks like (a word, a hyphenated slug, a number)
and before either record's page is loaded. A site with one record of a type (one project) is left
alone: its pages are the site. Stated on routes alone, for any family whose records have sub-pages.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable

from .activity_share import ACTIVITY_SHARE, MIN_INSTANCES

SHARED_VIEWS = 2
"""Names of sub-pages two prefixes must share to be records of one type: one in common (`new`,
`edit`) may be two sections' actions."""

_VIEW_NAME = re.compile(r"^[^\W\d_][^\W\d]*$")
"""A sub-page's name is a word (`log`, `tree`, `merge_requests`): identifiers below two sections
(`/post/3`, `/category/3`) are values, which two lists of small numbers always share."""


def _segments(route: str) -> tuple[str, ...]:
    path = route.split("#", 1)[0].split("?", 1)[0]
    return tuple(s for s in path.split("/") if s)


def _prefix(segments: tuple[str, ...]) -> str:
    return "/" + "/".join(segments) + "/"


def crowded_instances(visited: Iterable[str], known: Iterable[str], budget: int) -> frozenset[str]:
    """The records (path prefixes ending in `/`) whose visited pages — their own and those under them —
    reached their share of a `budget` of clicks while a sibling record of theirs, below its share, has
    pages known and unvisited (see the module)."""
    if budget <= 0:
        return frozenset()
    seen = set(visited)
    cap = max(MIN_INSTANCES, math.ceil(ACTIVITY_SHARE * budget))
    counts: Counter[tuple[str, ...]] = Counter()
    for route in seen:
        segments = _segments(route)
        for k in range(1, len(segments) + 1):
            counts[segments[:k]] += 1
    full = sorted((p for p, n in counts.items() if n >= cap), key=len)
    if not full:
        return frozenset()
    # each prefix's parent → value at that depth → the names of the sub-pages below it, and whether one
    # of its pages is known and unvisited
    views: dict[tuple[str, ...], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    waiting: set[tuple[str, ...]] = set()
    depths = {len(p) for p in full}
    for route in {*seen, *known}:
        segments = _segments(route)
        for k in depths:
            if len(segments) > k:
                if _VIEW_NAME.match(segments[k]):
                    views[segments[: k - 1]][segments[k - 1]].add(segments[k])
                if route not in seen:
                    waiting.add(segments[:k])
    crowded: list[tuple[str, ...]] = []
    for prefix in full:
        if any(prefix[: len(c)] == c for c in crowded):
            continue  # below a record already crowded
        siblings = views.get(prefix[:-1], {})
        own = siblings.get(prefix[-1], set())
        if any(
            value != prefix[-1]
            and len(names & own) >= SHARED_VIEWS
            and (prefix[:-1] + (value,)) in waiting
            and counts[prefix[:-1] + (value,)] < cap
            for value, names in siblings.items()
        ):
            crowded.append(prefix)
    return frozenset(_prefix(p) for p in crowded)


def under(route: str, prefixes: Collection[str]) -> bool:
    """Whether `route` is one of `prefixes` or a page below one."""
    path = route.split("#", 1)[0].split("?", 1)[0]
    path = path if path.endswith("/") else path + "/"
    return any(path.startswith(p) for p in prefixes)
