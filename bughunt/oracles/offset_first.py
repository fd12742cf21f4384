"""The page before an offset pager's page that has no control back: the list's first page.

An offset pager names the row a page starts at (`?offset=9`, `?start=20`). Its page normally links
back (`Previous`, `First`) and the page before is read from that control. A pager that draws its back
controls from the page *number* it computes (`offset / limit + 1`) draws none on a page whose offset is
short of one whole page: a Next link one row short (`offset + limit - 1`) leads to such a page, and its
rows overlap the first page's with no way back to compare them with. The page before it is the list's
first page — the same address without the offset — when, and only when, that page links on to it (the
pagination oracle checks the link after fetching: a list reached another way, a filter link carrying an
offset, starts where its own link said and is compared with nothing).

Stated on offset parameters and pager links only: any offset pager (job queues' admin lists, feed
readers' `?offset=`, trackers' `?start=`), whatever the family.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode, urlsplit, urlunsplit

from bughunt.oracles.reading import is_offset_key
from bughunt.sim.route_keys import query_pairs


def first_page_of_offset(url: str, is_key: Callable[[str], bool] = is_offset_key) -> str | None:
    """`url` without its offset parameter (`/jobs?state=finished&offset=9` → `/jobs?state=finished`),
    or None when it has no offset past the first row. `is_key`: which key is the offset (by default a
    key named as one; `offset_steps` knows another by its links' steps)."""
    parts = urlsplit(url)
    pairs = query_pairs(parts.query, decoded=True)
    first = next((v.strip() for k, v in pairs if is_key(k)), "")
    if not first.isdigit() or int(first) == 0:
        return None
    kept = [(k, v) for k, v in pairs if not is_key(k)]
    return urlunsplit(parts._replace(query=urlencode(kept), fragment=""))
