"""Finding the lists on a page: repeated items, their identities, and pagination links.

A list container is a `ul`/`ol`/`table`, or any element with two or more element children that all
share one tag and class set (the way server-side templates render a loop). Real templates mix their
loop's items with tabs and a pager in one container, so `item_runs` also finds the repeated items
*among* mixed siblings. An item is identified by its own title (a heading, the heading's link, else
its longest link), never by its first link: the first link of a feed preview is its author.
"""

from __future__ import annotations

import re
from functools import lru_cache

from bughunt.dom import Node
from bughunt.page import FetchedPage
from bughunt.urls import absolute

_ITEM_TAGS = frozenset({"article", "li", "section", "tr", "div", "dd", "figure", "p"})
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_PAGER_TEXT = re.compile(r"^(?:\d+|next|prev|previous|first|last|older|newer|[«»‹›←→]+.*|.*[«»‹›←→]+)$", re.I)
# a pager's control for the page after the first: "2", "Next", "›", "下一页"
_SECOND_PAGE_TEXT = re.compile(r"^\s*(?:2|next(?:\s*page)?|[›»>]|下一页)\s*[›»>]?\s*$", re.I)


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
    first = item_signature(children[0])
    if not first:
        return None
    if all(item_signature(c) == first for c in children):
        return children
    return None


_DIGITS = re.compile(r"\d+")


def item_signature(node: Node) -> str:
    """What a template loop's items share, or "" for an element that cannot be one: tag and classes;
    `article` elements as they are; for another item without classes, its tag with its id's pattern (`div#comment-<n>`) or the signature of
    its first child (`div > div.card`)."""
    if node.tag not in _ITEM_TAGS:
        return ""
    if node.classes or node.tag == "article":
        return node.signature()  # an <article> is a self-contained item by definition, classes or not
    ident = node.get("id")
    if ident and _DIGITS.search(ident):
        return f"{node.tag}#{_DIGITS.sub('<n>', ident)}"
    inner = node.elements
    if len(inner) == 1 and inner[0].classes:
        return f"{node.tag} > {inner[0].signature()}"
    return ""


@lru_cache(maxsize=8)
def find_lists(root: Node) -> list[tuple[Node, list[Node]]]:
    """Every list container with its items, in document order (nested lists included). Cached per
    parsed document (nodes hash by identity): several oracles ask for the same page's lists."""
    return [(node, items) for node in root.iter() if (items := list_items(node)) is not None]


@lru_cache(maxsize=8)
def item_runs(root: Node) -> list[tuple[Node, str, list[Node]]]:
    """(container, item signature, items) for every group of two or more children of one element
    that share a tag and class set, whatever siblings they stand among (tabs, a pager, a heading);
    plus every `ul`/`ol`/`table` list (signature `li`/`tr`)."""
    runs: list[tuple[Node, str, list[Node]]] = []
    for node in root.iter():
        if node.tag in ("ul", "ol", "table"):
            items = list_items(node)
            if items:
                runs.append((node, "tr" if node.tag == "table" else "li", items))
            continue
        if node.tag in ("head", "html", "#document", "select", "tr", "p"):
            continue
        groups: dict[str, list[Node]] = {}
        for child in node.elements:
            if sig := item_signature(child):
                groups.setdefault(sig, []).append(child)
        runs += [(node, sig, items) for sig, items in groups.items() if len(items) >= 2]
    return runs


def is_pager(container: Node, items: list[Node]) -> bool:
    """Pagination controls are lists too; they must not be compared as content."""
    names = " ".join(container.classes + (container.get("id"), container.get("aria-label"))).lower()
    if "pagination" in names or "pager" in names:
        return True
    texts = [i.text() for i in items]
    return bool(texts) and sum(bool(_PAGER_TEXT.match(t)) for t in texts) * 2 >= len(texts)


def _heading(item: Node) -> Node | None:
    for tag in _HEADINGS:
        found = [h for h in item.find_all(tag) if h.text()]
        if found:
            return found[0]
    return None


def _title_link(item: Node) -> Node | None:
    """The link that names the item: the one around or inside its heading, else its longest link."""
    heading = _heading(item)
    if heading is not None:
        around = next((a for a in heading.ancestors() if a.tag == "a" and a.get("href")), None)
        if around is not None and around is not item and any(x is item for x in around.ancestors()):
            return around
        inside = [a for a in heading.find_all("a") if a.get("href")]
        return inside[0] if inside else None
    anchors = [a for a in item.find_all("a") if a.get("href") and a.text()]
    return max(anchors, key=lambda a: len(a.text()), default=None)


def item_title(item: Node) -> str:
    heading = _heading(item)
    if heading is not None:
        return heading.text()
    link = _title_link(item)
    if link is not None:
        return link.text()
    text = item.text()
    return text if len(text) <= 120 else ""


def item_identity(item: Node, base: str) -> set[str]:
    """Keys that identify an item: its title and its title link's target (either may be missing)."""
    keys: set[str] = set()
    link = _title_link(item)
    url = absolute(base, link.get("href")) if link is not None else None
    if url:
        keys.add("href:" + url)
    title = " ".join(item_title(item).lower().split())
    if title:
        keys.add("title:" + title)
    return keys


_URL_ATTRS = ("href", "hx-get", "data-hx-get", "data-href", "data-url")


def targets(doc: Node) -> list[tuple[Node, str]]:
    """Elements that lead to another URL without a form: links, and HTMX/data-href buttons."""
    out = []
    for node in doc.iter():
        if node.tag not in ("a", "link", "button", "li", "span", "div", "option"):
            continue
        href = next((node.get(a) for a in _URL_ATTRS if node.get(a)), "")
        if href and (node.tag in ("a", "link") or not node.get("href")):
            out.append((node, href))
    return out


def clicked_previous_page(page: FetchedPage) -> FetchedPage | None:
    """The previous page of a list paged without addresses: the page a click on its pager's
    second-page control ("2", "Next") was made on, when the click left the URL as it was (a single-page
    app's `javascript:` pager; `FetchedPage.clicked_from`)."""
    if page.clicked_from is None:
        return None
    origin, label = page.clicked_from
    return origin if _SECOND_PAGE_TEXT.match(label) and pager_nodes(origin) else None


def pager_nodes(page: FetchedPage) -> list[Node]:
    """The page's pagination controls (lists that are pagers)."""
    return [c for c, items in find_lists(page.document) if is_pager(c, items)]


def has_pagination(page: FetchedPage) -> bool:
    doc = page.document
    if any(
        {"next", "prev", "previous"} & set(n.get("rel").lower().split()) for n in doc.find_all("a", "link")
    ):
        return True
    return bool(pager_nodes(page))
