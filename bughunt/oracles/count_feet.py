"""A table's foot that counts its rows by kind and disagrees with the rows shown: "File: 28 Folder: 0"
under 27 files.

A listing that mixes kinds of records in one table sums them up in its foot, one count per kind: a file
manager's folder view ("Folders: 2 Files: 18" — Nextcloud's and ownCloud's files table, web file
managers written as one script), a mail client's folder ("Read: 40 Unread: 3"), a tracker's or a
shop's table of mixed records ("Open: 4 Closed: 9"). The kinds partition the rows, so the counts add
up to the records the body lists.

Read only where it means that: the counts stand in the table's own `tfoot`, two or more `Label: N`
pairs of whole numbers (a size "1.48 KB" or "Size: 12 KB" is no count), each label one word, none a
word of amounts or of a total (a foot "Subtotal: 100 Tax: 20 Total: 120" sums money, not rows), and
the page pages nothing (a count of the whole folder above one page of it says more than the page
lists). The records are the body's rows; where rows carry a selection checkbox (a bulk action's), the
rows that carry none are the table's furniture — the way up to the parent folder, an "add" row, a
totals row — and not records.
"""

from __future__ import annotations

import re

from bughunt.dom import Node
from bughunt.oracles.count_labels import NOT_ITEMS
from bughunt.oracles.lists import has_pagination, list_items
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts

_PAIR = re.compile(r"(?P<label>[^\W\d_]{2,30})\s*:\s*(?P<n>\d{1,6})(?![\d.,]*\d)(?=(?P<after>\s*[^\W\d_]*))")
"""`Label: N` and the word after it (a unit makes it no count)."""

_AMOUNTS = frozenset(
    (
        "total subtotal sum amount price cost tax vat balance size weight average avg mean min max "
        "page pages score points due paid discount shipping fee fees"
    ).split()
)
"""Labels of a foot that sums or measures the rows' values rather than counting the rows."""

MIN_PAIRS = 2
"""Counts by kind: one `Label: N` alone in a foot may count anything (a page's, a column's)."""


def foot_mismatches(page: FetchedPage) -> list[tuple[Node, int, int]]:
    """(the foot's cell, the counts' sum, the records listed) for the first table whose foot's counts
    by kind disagree with its rows (see the module)."""
    facts = tree_facts(page)
    if not facts.has("tfoot"):
        return []
    for foot in facts.by_tag["tfoot"]:
        table = next((a for a in foot.ancestors() if a.tag == "table"), None)
        if table is None:
            continue
        counted = _counts(foot)
        if counted is None:
            continue
        cell, stated = counted
        records = _records(table)
        if records is None or stated == len(records):
            continue
        if has_pagination(page):
            return []
        return [(cell, stated, len(records))]
    return []


def _counts(foot: Node) -> tuple[Node, int] | None:
    """(the foot's element that holds its counts, their sum), or None for a foot that counts no kinds."""
    cells = [c for c in foot.iter() if c.tag in ("td", "th")] or [foot]
    for cell in cells:
        pairs = [
            (m.group("label").casefold(), int(m.group("n")))
            for m in _PAIR.finditer(cell.text())
            if not NOT_ITEMS.search(m.group("after"))
        ]
        if len(pairs) < MIN_PAIRS:
            continue
        labels = [label for label, _ in pairs]
        if len(set(labels)) < len(labels) or _AMOUNTS & set(labels):
            return None
        return cell, sum(n for _, n in pairs)
    return None


def _records(table: Node) -> list[Node] | None:
    """The table's records: its body's rows, less those without the selection checkbox the others carry
    (when the most do: a checkbox in a few rows is a column of the records, not a selection)."""
    rows = [r for r in list_items(table) or [] if not any(a.tag in ("tfoot", "thead") for a in r.ancestors())]
    checked = [r for r in rows if any(_checkbox(n) for n in r.iter())]
    if checked and len(rows) - len(checked) <= len(checked):
        # most rows carry one: those that do not are furniture (a folder of one file and its way up)
        return checked
    return rows or None


def _checkbox(node: Node) -> bool:
    return node.tag == "input" and node.get("type").lower() == "checkbox"
