"""Finding the lists on a page: repeated items, their identities, and pagination links.

A list container is a `ul`/`ol`/`table`, or any element with two or more element children that all
share one tag and class set (the way server-side templates render a loop).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

from bughunt.html import FetchedPage, Node, absolute, base_url

_ITEM_TAGS = frozenset({"article", "li", "section", "tr", "div", "dd", "figure", "p"})
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_PAGER_TEXT = re.compile(r"^(?:\d+|next|prev|previous|first|last|older|newer|[«»‹›←→]+.*|.*[«»‹›←→]+)$", re.I)
_PREV_TEXT = re.compile(r"^(?:[«‹←]\s*)?(?:prev|previous)(?:\s*page)?(?:\s*[«‹←])?$|^[«‹←]$", re.I)


def list_items(node: Node, min_items: int = 2) -> list[Node] | None:
    """The items of `node` if it is a list container, else None.

    `ul`/`ol`/`table` are lists whatever their length; any other element needs `min_items`
    same-signature children (a lone child is usually a layout wrapper, not a one-item list)."""
    if node.tag in ("ul", "ol"):
        return [c for c in node.elements if c.tag == "li"]
    if node.tag == "table":
        bodies = [c for c in node.elements if c.tag == "tbody"] or [node]
        rows = [r for b in bodies for r in b.elements if r.tag == "tr"]
        return [r for r in rows if not r.find_all("th")]
    children = node.elements
    if node.tag in ("head", "html", "#document", "select", "tr", "p") or len(children) < max(1, min_items):
        return None
    first = children[0]
    if first.tag not in _ITEM_TAGS or not first.classes:
        return None
    if all(c.signature() == first.signature() for c in children):
        return children
    return None


def find_lists(root: Node) -> list[tuple[Node, list[Node]]]:
    """Every list container with its items, in document order (nested lists included)."""
    return [(node, items) for node in root.iter() if (items := list_items(node)) is not None]


def is_pager(container: Node, items: list[Node]) -> bool:
    """Pagination controls are lists too; they must not be compared as content."""
    names = " ".join(container.classes + (container.get("id"), container.get("aria-label"))).lower()
    if "pagination" in names or "pager" in names:
        return True
    texts = [i.text() for i in items]
    return bool(texts) and sum(bool(_PAGER_TEXT.match(t)) for t in texts) * 2 >= len(texts)


def item_title(item: Node) -> str:
    for tag in _HEADINGS:
        found = item.find_all(tag)
        if found and found[0].text():
            return found[0].text()
    anchors = [a for a in item.find_all("a") if a.text()]
    if anchors:
        return anchors[0].text()
    text = item.text()
    return text if len(text) <= 120 else ""


def item_identity(item: Node, base: str) -> set[str]:
    """Keys that identify an item: its first link target and its title (either may be missing)."""
    keys: set[str] = set()
    for a in item.find_all("a"):
        url = absolute(base, a.get("href"))
        if url:
            keys.add("href:" + url)
            break
    title = " ".join(item_title(item).lower().split())
    if title:
        keys.add("title:" + title)
    return keys


def _page_number(url: str) -> tuple[str, int] | None:
    """Split a URL into (pattern, page number) when it carries one: `/feed/3`, `?page=3`."""
    parts = urlsplit(url)
    for key, value in parse_qsl(parts.query):
        if key.lower() in ("page", "p", "pg", "pagenum", "page_number") and value.isdigit():
            rest = re.sub(rf"(?<![^&?]){re.escape(key)}=\d+", f"{key}=#", parts.query)
            return f"{parts.path}?{rest}", int(value)
    match = re.search(r"/(\d{1,4})/?$", parts.path)
    if match:
        return parts.path[: match.start()] + "/#", int(match.group(1))
    return None


def _in_sequence(current: str, previous: str) -> bool:
    """Whether `previous` can be the page before `current` in one list: the same URL with page N-1,
    or the bare list URL before page 2 (`/news` → `/news?p=2`, `/` → `/feed/2`). A "previous post"
    link between two articles is not: their lists (comments, sidebars) are not one sequence."""
    here, there = _page_number(current), _page_number(previous)
    if here is None:
        return False
    if there is not None:
        return there[0] == here[0] and there[1] == here[1] - 1
    return here[1] == 2


def previous_page_url(page: FetchedPage) -> str | None:
    """The previous page of a paginated list: rel=prev, a "previous" link, or the URL with N-1."""
    base = base_url(page)
    doc = page.document
    anchors = [a for a in doc.find_all("a") if a.get("href")]
    candidates = [
        absolute(base, n.get("href"))
        for n in doc.iter()
        if n.tag in ("a", "link") and {"prev", "previous"} & set(n.get("rel").lower().split())
    ]
    candidates += [absolute(base, a.get("href")) for a in anchors if _PREV_TEXT.match(a.text())]
    for url in candidates:
        if url and _in_sequence(page.url, url):
            return url
    here = _page_number(page.url)
    if here is None or here[1] < 2:
        return None
    for a in anchors:
        url = absolute(base, a.get("href"))
        there = _page_number(url) if url else None
        if there and there[0] == here[0] and there[1] == here[1] - 1:
            return url
    return None


def has_pagination(page: FetchedPage) -> bool:
    doc = page.document
    if any(
        {"next", "prev", "previous"} & set(n.get("rel").lower().split()) for n in doc.find_all("a", "link")
    ):
        return True
    return any(is_pager(c, items) for c, items in find_lists(doc))
