"""A filter link's badge that counts more than the list it opens holds: the menu's "Inactive 46"
linking `?state=inactive`, on that list's own page, which says "1-10 of 11".

Admin screens, queues and trackers draw a menu of a collection's states, each a link to the list
filtered by that state with its count beside it ("Inactive 11", "Failed (6)", "Open [12]"); the
numbers are often a script's, filled after load from a stats endpoint. The claim is read only where
both sides are in view: on the page of the very list the link opens — the same path and the same
query, the list's place (page, offset) and size (`pager_links.is_size_key`) aside — whose words name one of its
query values (`Inactive` ↔ `state=inactive`: the count is of the list filtered so, not of what is new
in it). That page states its total (its range lines' one total: `count_ranges`). A badge may count a
part of the list — the unread of a folder, the new of a forum — so only a badge **above** the total
contradicts it: no part of a list is larger than the list.

Stated on links, query values and numbers: job queues' and mail folders' menus, trackers' status
tabs, shops' order states, whatever the family.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from bughunt.dom import Node
from bughunt.oracles.count_ranges import range_lines
from bughunt.oracles.lists import targets
from bughunt.oracles.nouns import same_noun
from bughunt.oracles.reading import is_offset_key, is_page_key, resolve
from bughunt.page import FetchedPage, base_url
from bughunt.sim.pager_links import is_size_key
from bughunt.sim.route_keys import query_pairs

_BADGE = re.compile(r"^(?P<word>[^\W\d_][^\W\d_ -]{1,30})\s*[(\[]?\s*(?P<n>\d{1,6})\s*[)\]]?$")
"""One word and a whole number ("Inactive 11", "Failed (6)", "Open [12]")."""


def _list_query(url: str) -> frozenset[tuple[str, str]]:
    """The query pairs that choose the list (its place on its pages and page size aside)."""
    return frozenset(
        (k, v)
        for k, v in query_pairs(urlsplit(url).query, decoded=True)
        if not (is_page_key(k) or is_offset_key(k) or is_size_key(k))
    )


def badge_mismatches(page: FetchedPage) -> list[tuple[Node, int, int]]:
    """(the link, its badge's count, the list's total) for the first filter link to this page's list
    whose badge counts more than the page says the list holds (see the module)."""
    totals = {total for _line, _first, _last, total in range_lines(page)}
    if len(totals) != 1:
        return []
    (total,) = totals
    here = urlsplit(page.url)
    mine = _list_query(page.url)
    if not mine or mine != frozenset(query_pairs(here.query, decoded=True)):
        return []  # judged on the list's own address only: one place per badge, the first page shown
    base = base_url(page)
    for node, href in targets(page.document):
        url = resolve(base, href) if node.tag == "a" else None
        if url is None or urlsplit(url).path != here.path or _list_query(url) != mine:
            continue
        match = _BADGE.match(" ".join(node.text().split()))
        # either side may be the plural ("Drafts" over `status=draft`, "Draft" over `status=drafts`)
        if match is None or not any(same_noun(match.group("word"), v) for _k, v in mine):
            continue
        shown = int(match.group("n"))
        if shown > total:
            return [(node, shown, total)]
    return []
