"""The word a tester types into a page's search box: a value the page's own list shows.

A search or filter sent with a made-up word ("test") matches nothing in most applications' data, so
the filtered list — its count, its pages, its rows — is never seen. A person searching a list types
something they see in it: a status, a category, a city a few rows share. That search is non-empty
(some row shows it) and partial (not every row does), so it shows a *filtered* list.

Read on the page's structure alone: the body rows of its tables (`<tr>` of two or more `<td>`), and
the items of its lists (three or more siblings of one tag and classes), never navigation chrome,
form controls, hidden values or headings. The value chosen is one shown by the most rows, short
(a cell's whole text, or one word of a list item), with a letter in it (a number or a date is an
identifier or a range, not a search), shown by at least two rows and not by every row (a column of
"edit" links, a badge every item has). Deterministic: the same page gives the same word.

Applies to every family with a searchable list: admin and database tools (a table's filter), trackers
(issues by status or component), forums and blogs (topics by word), shops (products by category).
"""

from __future__ import annotations

import re

from bughunt.dom import FORM_CONTROLS, Node, body_rows
from bughunt.page import FetchedPage

MIN_ROWS = 3
"""Rows or items a list needs before one of its values is a search: fewer are no list to filter."""
MAX_VALUE_CHARS = 40
MAX_VALUE_WORDS = 4
_CHROME_TAGS = frozenset(("nav", "header", "footer", "menu", "thead", "select", "datalist"))
_CHROME_ROLES = frozenset(("navigation", "menu", "menubar", "tablist", "tab"))
_CONTROLS = FORM_CONTROLS | {"script", "style"}
_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
_WORD = re.compile(r"[^\W\d_]{4,}", re.UNICODE)


def search_word(page: FetchedPage) -> str | None:
    """`list_word` of the page's document, read once per page (for its first form with a box)."""
    return page.derived(_search_word)


def _search_word(page: FetchedPage) -> str | None:
    return list_word(page.document)


def list_word(root: Node) -> str | None:
    """The value a tester would search this page's list for (see the module), or None when the page
    shows no list with a value some but not all of its rows share."""
    tally: dict[str, int] = {}
    order: dict[str, int] = {}

    def count(values: list[set[str]]) -> None:
        if len(values) < MIN_ROWS:
            return
        seen: dict[str, int] = {}
        for shown in values:
            for value in shown:
                seen[value] = seen.get(value, 0) + 1
        for value, rows in seen.items():
            if 2 <= rows < len(values) and rows > tally.get(value, 0):
                tally[value] = rows
                order.setdefault(value, len(order))

    for table in root.find_all("table"):
        if _in_chrome(table):
            continue
        rows = [r for r in body_rows(table) if len([c for c in r.elements if c.tag == "td"]) >= 2]
        columns: dict[int, list[set[str]]] = {}
        for row in rows:
            for i, cell in enumerate(c for c in row.elements if c.tag in ("td", "th")):
                value = _cell_value(cell)
                columns.setdefault(i, []).append({value} if value else set())
        for shown in columns.values():
            count(shown)
    for parent in root.iter():
        if parent.tag in ("table", "tbody", "tr") or _in_chrome(parent):
            continue
        kinds: dict[str, list[Node]] = {}
        for child in parent.elements:
            if child.tag not in _CONTROLS and child.tag not in ("option", "tr", "td", "th", "br", "hr"):
                kinds.setdefault(child.signature(), []).append(child)
        for items in kinds.values():
            if len(items) >= MIN_ROWS:
                count([_item_words(item) for item in items])
    if not tally:
        return None
    return min(tally, key=lambda v: (-tally[v], order[v]))


def _cell_value(cell: Node) -> str | None:
    """A cell's whole text when it is a value a person would type: short, with a letter, and not the
    text of a control."""
    if any(n.tag in _CONTROLS for n in cell.iter()):
        return None
    text = cell.short_text(MAX_VALUE_CHARS)
    if not text or len(text.split()) > MAX_VALUE_WORDS or not _LETTER.search(text):
        return None
    return text


def _item_words(item: Node) -> set[str]:
    """The words (four letters or more) of a list item's text, outside its controls."""
    strings: list[str] = []
    stack: list[Node | str] = item.children[::-1]
    while stack:
        child = stack.pop()
        if isinstance(child, str):
            strings.append(child)
        elif child.tag not in _CONTROLS:
            stack.extend(child.children[::-1])
    return set(_WORD.findall(" ".join(strings)))


def _in_chrome(node: Node) -> bool:
    for up in (node, *node.ancestors()):
        if up.tag in _CHROME_TAGS or up.get("role") in _CHROME_ROLES:
            return True
    return False
