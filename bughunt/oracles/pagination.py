"""Duplicate items across the pages of a paginated list.

The page is compared with its previous page only (rel=prev, a "previous" control, or the same URL
with page N-1, from links and HTMX buttons alike; for a state the browser reached by clicking a
pager's "2"/"Next" at the same URL, the page it was clicked on), so a repeated item is reported once, on the page
that repeats it. Lists are runs of same-structure items, found among mixed siblings (previews beside
tabs and a pager) and matched by their position in the page (container path + item signature). When
the page has a pager, only the runs in the pager's nearest enclosing container count: that is the
list the pager pages. Page furniture is skipped: lists inside `nav`/`header`/`footer` (or ARIA
navigation/banner/contentinfo/menu roles), and lists that are the same or nearly the same on both
pages (a menu whose current item is not a link, a tag cloud).
"""

from __future__ import annotations

from loguru import logger

from bughunt.dom import Node
from bughunt.oracles.base import (
    DEFAULT_CONFIG,
    Fetch,
    Finding,
    OracleConfig,
    evidence,
    page_shape,
    quoted,
    short,
)
from bughunt.oracles.lists import (
    clicked_previous_page,
    find_lists,
    is_pager,
    item_identity,
    item_runs,
    item_title,
    pager_nodes,
    previous_page_url,
)
from bughunt.page import FetchedPage, base_url
from bughunt.urls import same_origin

_FURNITURE_TAGS = frozenset({"nav", "header", "footer"})
_FURNITURE_ROLES = frozenset({"navigation", "banner", "contentinfo", "menu", "menubar", "tablist"})
NEARLY_SAME = 0.75
"""Share of a list's items also on the previous page above which the list is furniture."""


def furniture(node: Node) -> bool:
    """Inside a menu, header or footer: the same on every page, never the paginated content."""
    return any(
        n.tag in _FURNITURE_TAGS or n.get("role") in _FURNITURE_ROLES for n in (node, *node.ancestors())
    )


def _scope(page: FetchedPage, runs: list[tuple[Node, str, list[Node]]]) -> list[tuple[Node, str, list[Node]]]:
    """The runs the page's pager pages: those inside the pager's nearest ancestor holding a run."""
    pagers = pager_nodes(page)
    if not pagers:
        return runs
    pager_ids = {id(p) for p in pagers}
    for ancestor in pagers[0].ancestors():
        inside = [
            r
            for r in runs
            if id(r[0]) not in pager_ids
            and not any(id(a) in pager_ids for a in r[0].ancestors())
            and (r[0] is ancestor or any(a is ancestor for a in r[0].ancestors()))
        ]
        if inside:
            return inside
    return runs


def _content_lists(page: FetchedPage) -> dict[str, list[set[str]]]:
    """Lists by position (container path + item signature), keeping positions that occur once on
    the page, as item identities."""
    base = base_url(page)
    runs = [
        (c, sig, items)
        for c, sig, items in item_runs(page.document)
        if not is_pager(c, items) and not furniture(c)
    ]
    by_key: dict[str, list[list[Node]]] = {}
    for container, sig, items in _scope(page, runs):
        by_key.setdefault(f"{container.path()} > {sig}", []).append(items)
    return {
        key: [item_identity(i, base) for i in lists[0]] for key, lists in by_key.items() if len(lists) == 1
    }


def _titles(page: FetchedPage) -> dict[frozenset[str], str]:
    base = base_url(page)
    titles = {
        frozenset(item_identity(i, base)): item_title(i)
        for _, _, items in item_runs(page.document)
        for i in items
    }
    titles.update(
        {
            frozenset(item_identity(i, base)): item_title(i)
            for _, items in find_lists(page.document)
            for i in items
        }
    )
    return titles


def _previous_page(page: FetchedPage, fetch: Fetch | None) -> FetchedPage | None:
    """The page before this one in its list: the one a pager click was made on, else the previous
    page's URL fetched (same origin only)."""
    clicked = clicked_previous_page(page)
    if clicked is not None or fetch is None:
        return clicked
    prev_url = previous_page_url(page)
    if not prev_url or prev_url == page.url or not same_origin(prev_url, page.url):
        return None
    try:
        return fetch(prev_url)
    except OSError as err:
        logger.debug("pagination oracle could not fetch {}: {}", prev_url, err)
        return None


def check_duplicate_pagination(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig = DEFAULT_CONFIG
) -> list[Finding]:
    if not page.is_html or page.status >= 400:
        return []
    previous = _previous_page(page, fetch)
    if previous is None or previous.status >= 400 or not previous.is_html:
        return []
    here, there = _content_lists(page), _content_lists(previous)
    titles = _titles(page)
    for key, items in here.items():
        if key not in there or not items:
            continue
        before = there[key]
        if items == before:
            continue  # the same list on both pages: furniture, not the paginated content
        seen = set().union(*before) if before else set()
        repeated = [keys for keys in items if keys and keys & seen]
        if not repeated or (len(items) >= 3 and len(repeated) >= NEARLY_SAME * len(items)):
            continue
        names = [short(titles.get(frozenset(k), "") or sorted(k)[0], 80) for k in repeated]
        # One finding per page: the template names no page text (titles and list are evidence).
        return [
            Finding(
                "duplicate_pagination",
                page.route,
                "paginated list repeats items from its previous page",
                evidence(page, names[0], previous_url=previous.url, repeated=quoted(names), list=key),
                shape=page_shape(page),
            )
        ]
    return []
