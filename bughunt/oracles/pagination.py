"""Duplicate items across the pages of a paginated list.

The page is compared with its previous page only (rel=prev, a "previous" link, or the same URL
with page N-1), so a repeated item is reported once, on the page that repeats it. Lists are
matched by their position in the page (the tag/class path). Page furniture is skipped: lists
inside `nav`/`header`/`footer` (or ARIA navigation/banner/contentinfo), and lists that are the same
or nearly the same on both pages (a menu whose current item is not a link, a tag cloud).
"""

from __future__ import annotations

from loguru import logger

from bughunt.html import FetchedPage, Node, base_url, same_origin
from bughunt.oracles.base import Fetch, Finding, evidence, short
from bughunt.oracles.lists import find_lists, is_pager, item_identity, item_title, previous_page_url

_FURNITURE_TAGS = frozenset({"nav", "header", "footer"})
_FURNITURE_ROLES = frozenset({"navigation", "banner", "contentinfo", "menu", "menubar"})
NEARLY_SAME = 0.75
"""Share of a list's items also on the previous page above which the list is furniture."""


def _furniture(node: Node) -> bool:
    return any(
        n.tag in _FURNITURE_TAGS or n.get("role") in _FURNITURE_ROLES for n in (node, *node.ancestors())
    )


def _content_lists(page: FetchedPage) -> dict[str, list[set[str]]]:
    """Lists by path, keeping only paths that occur once on the page, as item identities."""
    base = base_url(page)
    by_path: dict[str, list] = {}
    for container, items in find_lists(page.document):
        if is_pager(container, items) or _furniture(container):
            continue
        by_path.setdefault(container.path(), []).append(items)
    return {
        path: [item_identity(i, base) for i in lists[0]] for path, lists in by_path.items() if len(lists) == 1
    }


def _titles(page: FetchedPage) -> dict[frozenset[str], str]:
    base = base_url(page)
    return {
        frozenset(item_identity(i, base)): item_title(i)
        for _, items in find_lists(page.document)
        for i in items
    }


def check_duplicate_pagination(page: FetchedPage, fetch: Fetch | None = None) -> list[Finding]:
    if fetch is None or not page.is_html or page.status >= 400:
        return []
    prev_url = previous_page_url(page)
    if not prev_url or prev_url == page.url or not same_origin(prev_url, page.url):
        return []
    try:
        previous = fetch(prev_url)
    except OSError as err:
        logger.debug("pagination oracle could not fetch {}: {}", prev_url, err)
        return []
    if previous.status >= 400 or not previous.is_html:
        return []
    here, there = _content_lists(page), _content_lists(previous)
    findings = []
    titles = _titles(page)
    for path, items in here.items():
        if path not in there or not items:
            continue
        before = there[path]
        if items == before:
            continue  # the same list on both pages: furniture, not the paginated content
        seen = set().union(*before) if before else set()
        repeated = [keys for keys in items if keys and keys & seen]
        if not repeated or (len(items) >= 3 and len(repeated) >= NEARLY_SAME * len(items)):
            continue
        names = [short(titles.get(frozenset(k), "") or sorted(k)[0], 80) for k in repeated]
        message = f"paginated list repeats items from the previous page {previous.route}"
        findings.append(
            Finding(
                "duplicate_pagination",
                page.route,
                message,
                evidence(page, names[0], previous_url=previous.url, repeated=names, list=path),
            )
        )
    return findings
