"""A page heading that states how many rows the page's one table holds ("12 rows where genre_id = 3").

A data browser, an admin's list or a search page says above its table how many rows match, often
with what they match (`where …`, `for …`, `matching …`), and draws filter forms and facet lists
between the heading and the table: the count oracle's label-over-list reading (`counts.labelled_list`)
sees neither the count (its qualifier holds numbers) nor the table (not right after it). When the page
has one heading stating such a total, exactly one table with data rows after it, and no way on to a
later page (`lists.has_pagination`: a pager, or one "Next page" link to a later page) and the page
is the list's first (its URL names no later page: the last page of a list has no way on either), the
table is all the rows there are, and the total is their number.

A search states what it found in the same place ("Found 50 tickets", "12 books found"): the total
of a list whatever its noun, the verb saying it is a total, not what this page shows. Over a list
that pages on, the total is compared with the records of all its pages when they are few enough to
walk (`count_pages._all_pages`): a heading that counts the rows of the page it is on ("Found 50"
over 69 on two pages) is a count that disagrees with its list on every site that pages its results.
A record drawn on several rows, one row group each (`list_finding._record_bodies`), is one record.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bughunt.dom import Node, own_rows
from bughunt.oracles.list_finding import _record_bodies
from bughunt.oracles.lists import has_pagination
from bughunt.oracles.reading import names_later_page
from bughunt.oracles.table_heads import cells, heading_row
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts

_HEADING_TOTAL = re.compile(
    r"^(?P<n>\d{1,6})\s+(?:rows?|records?|results?|entries|entry|items?|matches)"
    r"(?:\s+(?:where|for|matching|with|in)\b.{1,120})?$",
    re.I,
)
"""`12 rows`, `12 rows where genre_id = 3`, `3 results for "lamp"`: a total and what it is of."""
_FOUND_TOTAL = re.compile(
    r"^(?:found\s+(?P<n>\d{1,6})\s+[^\W\d_][\w-]{1,23}|(?P<m>\d{1,6})\s+[^\W\d_][\w-]{1,23}\s+found)"
    r"(?:\s+(?:where|for|matching|with|in)\b.{1,120})?$",
    re.I,
)
"""`Found 50 tickets`, `12 books found`, `Found 3 users matching "ann"`: a search's total, of any noun."""

HEADINGS = ("h1", "h2", "h3", "h4")


def _data_rows(table: Node) -> int:
    """Rows of the table holding cells, its heading rows aside (`table_heads.heading_row`), its own
    rows only."""
    return sum(1 for r in own_rows(table) if cells(r) and not heading_row(r))


def _owner(row: Node) -> Node | None:
    node = row.parent
    while node is not None and node.tag != "table":
        node = node.parent
    return node


def _total(text: str) -> int | None:
    match = _HEADING_TOTAL.match(text) or _FOUND_TOTAL.match(text)
    if match is None:
        return None
    return int(next(n for n in match.groups() if n is not None))


def _groups(table: Node) -> list[Node] | None:
    """The table's row groups when each draws one record on several rows (`_record_bodies`)."""
    return _record_bodies([b for b in table.elements if b.tag == "tbody"])


def _records(table: Node, grouped: bool) -> int:
    """The table's records: its row groups holding data when its list draws a record per group
    (`grouped`, read on the list's first page: a last page of one record is one group), else its
    data rows."""
    if grouped:
        return sum(1 for b in table.elements if b.tag == "tbody" and _data_rows_of(b))
    return _data_rows(table)


def _data_rows_of(body: Node) -> int:
    return sum(1 for r in body.elements if r.tag == "tr" and any(c.tag == "td" for c in r.elements))


def _reading(page: FetchedPage) -> tuple[Node, int, Node] | None:
    """(heading, the total it states, the one table of data rows after it), or None: no such
    heading, more than one, or no single table after it."""
    totals: list[tuple[Node, int]] = []
    tables: list[Node] = []
    facts = tree_facts(page)
    order = facts.places
    for node in facts.tagged(*HEADINGS, "table"):
        if node.tag in HEADINGS:
            shown = _total(" ".join(node.text().split()))
            if shown is not None:
                totals.append((node, shown))
        elif node.tag == "table" and _data_rows(node):
            tables.append(node)
    if len(totals) != 1 or len(tables) != 1:
        return None
    (heading, shown), (table,) = totals[0], tables
    if order[id(table)] < order[id(heading)] or any(_owner(t) is not None for t in tables):
        return None
    return heading, shown, table


def heading_mismatches(
    page: FetchedPage, pages: Callable[[], list[FetchedPage] | None] | None = None
) -> list[tuple[Node, int, int]]:
    """(heading, the total it states, the records the list holds) when they differ; else nothing.
    `pages` gives the list's other pages (None when they cannot all be read): asked only for a
    list that pages on."""
    reading = _reading(page)
    # a later page of the list (its last, with no way on: `?_next=20`) shows the rows left, not all
    if reading is None or names_later_page(page.url):
        return []
    heading, shown, table = reading
    grouped = _groups(table) is not None
    records = _records(table, grouped)
    if has_pagination(page):
        others = pages() if pages is not None else None
        if not others:
            return []
        for other in others:
            theirs = _reading(other)
            if theirs is None:
                return []  # a page of the list not drawn alike: not this list read whole
            records += _records(theirs[2], grouped)
    return [] if records == shown else [(heading, shown, records)]
