"""A page heading that states how many rows the page's one table holds ("12 rows where genre_id = 3").

A data browser, an admin's list or a search page says above its table how many rows match, often
with what they match (`where …`, `for …`, `matching …`), and draws filter forms and facet lists
between the heading and the table: the count oracle's label-over-list reading (`counts.labelled_list`)
sees neither the count (its qualifier holds numbers) nor the table (not right after it). When the page
has one heading stating such a total, exactly one table with data rows after it, and no way on to a
later page (`lists.has_pagination`: a pager, or one "Next page" link to a later page) and the page
is the list's first (its URL names no later page: the last page of a list has no way on either), the
table is all the rows there are, and the total is their number.
"""

from __future__ import annotations

import re

from bughunt.dom import Node
from bughunt.oracles.lists import has_pagination
from bughunt.oracles.reading import names_later_page
from bughunt.page import FetchedPage

_HEADING_TOTAL = re.compile(
    r"^(?P<n>\d{1,6})\s+(?:rows?|records?|results?|entries|entry|items?|matches)"
    r"(?:\s+(?:where|for|matching|with|in)\b.{1,120})?$",
    re.I,
)
"""`12 rows`, `12 rows where genre_id = 3`, `3 results for "lamp"`: a total and what it is of."""

HEADINGS = ("h1", "h2", "h3", "h4")


def _data_rows(table: Node) -> int:
    """Rows of the table with at least one data cell (its header row aside), its own rows only."""
    rows = [r for r in table.iter() if r.tag == "tr" and _owner(r) is table]
    return sum(1 for r in rows if any(c.tag == "td" for c in r.elements))


def _owner(row: Node) -> Node | None:
    node = row.parent
    while node is not None and node.tag != "table":
        node = node.parent
    return node


def heading_mismatches(page: FetchedPage) -> list[tuple[Node, int, int]]:
    """(heading, the total it states, the rows the table holds) when they differ; else nothing."""
    totals: list[tuple[Node, int]] = []
    order: dict[int, int] = {}
    tables: list[Node] = []
    for at, node in enumerate(page.document.iter()):
        order[id(node)] = at
        if node.tag in HEADINGS:
            match = _HEADING_TOTAL.match(" ".join(node.text().split()))
            if match:
                totals.append((node, int(match.group("n"))))
        elif node.tag == "table" and _data_rows(node):
            tables.append(node)
    if len(totals) != 1 or len(tables) != 1:
        return []
    (heading, shown), (table,) = totals[0], tables
    if order[id(table)] < order[id(heading)] or any(_owner(t) is not None for t in tables):
        return []
    rows = _data_rows(table)
    # a later page of the list (its last, with no way on: `?_next=20`) shows the rows left, not all
    if rows == shown or has_pagination(page) or names_later_page(page.url):
        return []
    return [(heading, shown, rows)]
