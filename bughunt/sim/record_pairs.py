"""A record's own pages: a link from a record's page to another page of that same record (issue 25).

The comparison oracles need a *pair*: a record's page and its edit form, whose stored values the form
must show. Template sampling weighs each link by its page type alone, so a record's edit form whose type
is one kind with another section's form (`kind_keys`: a ticket's `/Ticket/Modify.html?id=<n>` beside
a dashboard's `/Dashboards/Modify.html?id=<n>`) waited behind every new page type, and the walk left the
record for good — the ticket's Basics form was never opened in 100 clicks. A link that carries the
identifier of the record the current page shows belongs to that record, as a sub-path does
(`pager_links.leads_on`): another section's form of the same kind edits another record, and the walk
will not come back to this one.

Stated on URL shapes alone: a record named by a number or a generated id under an identifier key in the
query (`?id=25` → `?id=25` on another path, or another action of a front controller:
`?action=show&task_id=5` → `?action=edit&task_id=5`), or by its path's last segment when that is a value
(`/article/<slug>` → `/editor/<slug>`, `/rev/<hash>` → `/shortlog/<hash>`). Applies to every family that
links a record's edit form, history or sub-pages from its page: trackers, CMSes, admin tools, forums,
version-control browsers, in both engines.
"""

from __future__ import annotations

from functools import lru_cache

from .record_views import record_keys
from .route_keys import query_pairs
from .route_shapes import ROUTE_SHAPES_CACHED, route_shape


@lru_cache(maxsize=ROUTE_SHAPES_CACHED)
def _identifiers(route: str) -> tuple[frozenset[tuple[str, str]], str | None]:
    """The query pairs naming the record `route` shows, and its path's last segment when that is a
    value (`route_shape` writes it as `<n>`, `<id>`, `<slug>`…)."""
    template = route_shape(route)
    path, _, query = route.partition("?")
    keys = record_keys(template)
    named = frozenset((k, v) for k, v in query_pairs(query) if k in keys)
    segments = [s for s in path.split("/") if s]
    shaped = [s for s in template.partition("?")[0].split("/") if s]
    last = segments[-1] if segments and len(shaped) == len(segments) and shaped[-1].startswith("<") else None
    return named, last


def carries_record(here: str | None, there: str | None) -> bool:
    """Whether `there` is another page of the record the page at `here` shows: it carries the record's
    identifier (a query pair naming it, or its path's last segment as one of its own), on another path
    — or on the same path under another action (a front controller: a shared key with another value);
    the same page with a key added (a sort, an action run on this page) is this page's own view."""
    if here is None or there is None or here == there:
        return False
    named, last = _identifiers(here)
    here_path, _, here_query = here.partition("?")
    there_path, _, there_query = there.partition("?")
    if named:
        theirs = query_pairs(there_query)
        if named <= set(theirs):
            if there_path != here_path:
                return True
            mine = dict(query_pairs(here_query))
            return any(k in mine and mine[k] != v for k, v in theirs)
    if last is not None and there_path != here_path:
        return last in [s for s in there_path.split("/") if s]
    return False
