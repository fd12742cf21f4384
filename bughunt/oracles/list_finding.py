"""Finding the lists on a page: list containers and their items, runs of repeated items among mixed
siblings, and which lists are pagers.

A list container is a `ul`/`ol`/`table`, or any element with two or more element children that all
share one tag and class set (the way server-side templates render a loop). Real templates mix their
loop's items with tabs and a pager in one container, so `item_runs` also finds the repeated items
*among* mixed siblings. Moved whole from `lists.py` (which re-exports these names).
"""

from __future__ import annotations

import re
from functools import lru_cache

from bughunt.dom import FORM_CONTROLS, Node
from bughunt.oracles.table_heads import heading_row

_ITEM_TAGS = frozenset({"article", "li", "section", "tr", "div", "dd", "figure", "p"})


_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


_HEADING_TAGS = frozenset(_HEADINGS)


_PAGER_TEXT = re.compile(r"^(?:\d+|next|prev|previous|first|last|older|newer|[«»‹›←→]+.*|.*[«»‹›←→]+)$", re.I)


def list_items(node: Node, min_items: int = 2) -> list[Node] | None:
    """The items of `node` if it is a list container, else None.

    `ul`/`ol`/`table`/`dl` are lists whatever their length (a `dl`'s items are its terms, each with
    the descriptions after it — a search's matches, a glossary — or the `div`s grouping them); any
    other element needs `min_items` same-signature children (a lone child is usually a layout wrapper,
    not a one-item list)."""
    if node.tag in ("ul", "ol"):
        return [c for c in node.elements if c.tag == "li"]
    if node.tag == "dl":
        return [c for c in node.elements if c.tag == "dt"] or [c for c in node.elements if c.tag == "div"]
    if node.tag == "table":
        bodies = [c for c in node.elements if c.tag == "tbody"] or [node]
        if (records := _record_bodies(bodies)) is not None:
            return records
        every = [r for b in bodies for r in b.elements if r.tag == "tr"]
        # A heading row (`table_heads`: `th` cells, an empty corner among them) is the table's head; a
        # row led by a `th scope=row` beside its values (Django admin's changelist) is a record.
        rows = [r for r in every if not heading_row(r)]
        # A row of one cell spanning the others' columns (the buttons and pager under the records, a
        # group's caption) is the table's furniture beside rows of several cells, not a record; under
        # headings of several columns it is no record alone either: a record fills the columns its
        # headings name, and a line across them all is the table's "<none>", "No users match".
        if any(len(r.elements) > 1 for r in rows) or any(
            len(r.elements) > 1 for r in every if heading_row(r)
        ):
            rows = [r for r in rows if not spanning(r)]
        return _without_dividers(rows)
    fewest = max(1, min_items)
    # a node with fewer children of any kind has fewer elements (most nodes asked: no list is made)
    if node.tag in ("head", "html", "#document", "select", "tr", "p") or len(node.children) < fewest:
        return None
    children = node.elements
    if len(children) < fewest:
        return None
    first = item_signature(children[0])
    if not first:
        return None
    if all(item_signature(c) == first for c in children):
        return children
    return None


DIVIDER_CHARS = 40
"""A divider row's one text is short: a date, a group's name."""

_CONTROLS = FORM_CONTROLS | {"a", "img"}


def _filled(row: Node) -> int | None:
    """How many of the row's cells show text, for a row that may be a divider; None for a row that
    cannot: one with more text than a divider's, or a link, control or image (a record's way in,
    whatever else it lacks), or one cell alone (`spanning`'s, or a one-column table's record)."""
    if row.short_text(DIVIDER_CHARS) is None or any(n.tag in _CONTROLS for n in row.iter()):
        return None
    cells = row.elements
    return sum(1 for c in cells if c.text()) if len(cells) >= 2 else None


def _without_dividers(rows: list[Node]) -> list[Node]:
    """The rows that are records, without the rows laid between them in the same columns: a row whose
    cells are all empty (a spacer, the table's closing border) and a row whose one shown cell holds a
    short text and nothing else (a timeline's or a log's date, a group's name over the rows under it —
    the caption `spanning` reads when it is one cell across the columns, here drawn in the first cell
    with the others left empty). Read only beside records that fill two or more cells or hold a link,
    and only for a row drawn unlike them (another class: a record whose optional cells are empty is
    drawn as the other records are, and stays one)."""
    if len(rows) < 2:
        return rows
    filled = [_filled(r) for r in rows]
    records = {r.signature() for r, f in zip(rows, filled, strict=True) if f is None or f >= 2}
    if not records:
        return rows
    return [r for r, f in zip(rows, filled, strict=True) if f is None or f >= 2 or r.signature() in records]


def _record_bodies(bodies: list[Node]) -> list[Node] | None:
    """The table's row groups when each is one record drawn on several rows (its linked title row,
    then a row of its requester and dates): two or more `tbody`s of the same number of rows, two or
    more, none a caption or header row (a group of headings alone is the table's head). A group of another size, or led by a caption, is a group of
    records (a day's entries under its date), read by its rows."""
    if len(bodies) < 2:
        return None
    records, sizes = [], set()
    for body in bodies:
        rows = [r for r in body.elements if r.tag == "tr"]
        data = [r for r in rows if not heading_row(r)]
        if not data:
            continue  # the column headings' rows (a bare `tr` of `th`s gets a `tbody` of its own)
        if len(data) < len(rows) or any(spanning(r) for r in rows):
            return None
        records.append(body)
        sizes.add(len(rows))
    return records if len(records) >= 2 and len(sizes) == 1 and min(sizes) >= 2 else None


def spanning(row: Node) -> bool:
    """A table row of one cell spanning the others' columns: the table's furniture or a group's
    caption, not a record."""
    cells = row.elements
    return len(cells) == 1 and cells[0].get("colspan", "1").strip() not in ("", "1")


_DIGITS = re.compile(r"\d+")


_CUSTOM_ELEMENT = re.compile(r"^[a-z][a-z0-9._]*-[a-z0-9._-]*$")
"""HTML's valid custom element name: a lower-case letter, then a hyphen somewhere (`app-article-preview`,
`sl-card`, `todo-item`)."""


def component_host(node: Node) -> bool:
    """A component's host element: an autonomous custom element (`<app-article-preview>`). A component
    framework (Angular, Lit and other Web Components, Stencil, Vue or Svelte built as custom elements)
    renders each instance of a component inside such an element named for it, so a loop over one
    component is a run of one custom tag — the items of a list, as a server template's loop of
    `div.card`s is. (An unknown tag without a hyphen is no custom element: HTML reserves those.)"""
    tag = node.tag
    # no hyphen, no custom element (most tags asked): told without running the pattern
    return "-" in tag and _CUSTOM_ELEMENT.match(tag) is not None


def item_signature(node: Node) -> str:
    """What a template loop's items share, or "" for an element that cannot be one: tag and classes;
    `article` elements and component hosts (`component_host`) as they are; for another item without
    classes, its tag with its id's pattern (`div#comment-<n>`) or the signature of
    its first child (`div > div.card`). A `table` of one row is a record laid out as a table (an avatar
    beside a post's text, one such table per post), an item like a `div`; a table of rows is a list."""
    host = component_host(node)
    if (
        node.tag not in _ITEM_TAGS
        and not host
        and not (node.tag == "table" and len(list_items(node) or ()) == 1)
    ):
        return ""
    if node.classes or node.tag == "article" or host:
        return node.signature()  # an <article> is a self-contained item by definition, classes or not
    ident = node.get("id")
    if ident and _DIGITS.search(ident):
        return f"{node.tag}#{_DIGITS.sub('<n>', ident)}"
    inner = node.elements
    if len(inner) == 1 and inner[0].classes:
        return f"{node.tag} > {inner[0].signature()}"
    return ""


_LIST_TAGS = frozenset(("ul", "ol", "dl", "table"))
"""The containers `list_items` reads as lists however few their children."""


@lru_cache(maxsize=8)
def find_lists(root: Node) -> list[tuple[Node, list[Node]]]:
    """Every list container with its items, in document order (nested lists included). Cached per
    parsed document (nodes hash by identity): several oracles ask for the same page's lists."""
    # Another element needs two children to be a list (`list_items`): the page's leaves, most of its
    # elements, are passed over without the call.
    return [
        (node, items)
        for node in root.iter()
        if (len(node.children) >= 2 or node.tag in _LIST_TAGS) and (items := list_items(node)) is not None
    ]


@lru_cache(maxsize=8)
def item_runs(root: Node) -> list[tuple[Node, str, list[Node]]]:
    """(container, item signature, items) for every group of two or more children of one element
    that share a tag and class set, whatever siblings they stand among (tabs, a pager, a heading) —
    linked headings too, the items of a flat loop with no wrapper per item; plus every
    `ul`/`ol`/`table` list (signature `li`/`tr`)."""
    runs: list[tuple[Node, str, list[Node]]] = []
    for node in root.iter():
        if node.tag in ("ul", "ol", "table"):
            items = list_items(node)
            if items:
                runs.append((node, "tr" if node.tag == "table" else "li", items))
            continue
        # a group is two children or more: an element of fewer (a leaf, most of a page's) holds none
        if len(node.children) < 2 or node.tag in ("head", "html", "#document", "select", "tr", "p"):
            continue
        groups: dict[str, list[Node]] = {}
        for child in node.elements:
            if sig := item_signature(child) or _linked_heading(child):
                groups.setdefault(sig, []).append(child)
        runs += [(node, sig, items) for sig, items in groups.items() if len(items) >= 2]
    return runs


def _linked_heading(node: Node) -> str:
    """A heading that links somewhere starts an item of a flat loop (`h3 > a`, then the item's text
    and footer as its siblings, no wrapper per item): its signature, else "". A heading without a
    link titles a section, not an item."""
    if node.tag in _HEADINGS and any(a.get("href") for a in node.find_all("a")):
        return node.signature()
    return ""


def is_pager(container: Node, items: list[Node]) -> bool:
    """Pagination controls are lists too; they must not be compared as content."""
    names = " ".join(container.classes + (container.get("id"), container.get("aria-label"))).lower()
    if "pagination" in names or "pager" in names:
        return True
    # Half of the items reading as page numbers or arrows decide it: read no item text past that.
    matched = unmatched = 0
    for item in items:
        if _PAGER_TEXT.match(item.text()):
            matched += 1
        else:
            unmatched += 1
        if matched * 2 >= len(items):
            return True
        if unmatched * 2 > len(items):
            return False
    return False
