"""A record's own page addressed by its query (`?edit=items&where[id]=3`, `/i/?c=feed&id=7`) is a page type,
not one more view of the list that links to it (issue 25: record pages never reached in 100 clicks).

`QueryViews` makes a path's further views wait once it has been visited in `QUERY_VIEWS` ways: the sort,
filter and page-size keys of one list combine into dozens of key sets, each a "new" shape. But an application
that routes by its query alone (a front controller at `/` or a script, which names the page by a key:
`?select=items`, `?edit=items`, `?table=items`) has every page at one path, so after three pages every
further page type — the edit page of a list's rows among them — read as one more view and waited behind the
instances of the types seen first: a database manager's walk opened its rows' edit pages at click 88 of 100.

What tells a record's page from a view is its key: a view chooses *which* records a list shows (words: a sort
column, a filter value, a search, a number of days); a record's page names *one* record by its number or
generated id under an identifier key (`id=7`, `where[id]=3`, `task_id=5`) no visited view of the path carried. Stated on URL shapes
alone: it applies to every family that addresses records by query (PHP front controllers, admin tools,
CGI trackers, feed readers' `?id=`), in both engines; a path-routed record (`/items/7`) never reached
`QueryViews`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .pager_links import is_page_key
from .route_keys import query_parts

_RECORD_VALUES = frozenset({"<n>", "<id>"})
"""What a template shows for a record's number or generated identifier (`route_shape`)."""

_ID_KEY = re.compile(r"(?i)id(?:%5D|\])?$")
"""A key that names a record by its identifier: `id`, `task_id`, `pid`, `itemId`, `where[id]` (encoded
`where%5Bid%5D`). A number under another key is a quantity of a view (`daysback=30`, `desc=1`, `limit=50`)."""


def record_keys(template: str) -> frozenset[str]:
    """The query keys of `template` that name one record: a number or a generated id as value, under a key
    named as an identifier (`_ID_KEY`)."""
    _, _, query = template.partition("?")
    keys = set()
    for pair in query_parts(query):
        key, eq, value = pair.partition("=")
        if eq and value in _RECORD_VALUES and _ID_KEY.search(key) and not is_page_key(key):
            keys.add(key)
    return frozenset(keys)


def names_a_record(template: str, keys: frozenset[str], views: Iterable[frozenset[str]]) -> bool:
    """Whether `template` (a new view of its path, `keys` its view keys) names one record under a key none
    of the path's visited `views` carried: the record's own page, a page type to sample, not a view."""
    own = record_keys(template) & keys
    return bool(own) and not any(own & seen for seen in views)
