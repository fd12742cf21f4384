"""Links to a record whose row in a list shows a missing value: the record a tester opens first.

A table of records draws each row alike; a row whose cell is empty, a dash, or a placeholder in
other markup than its column's values (`<i>NULL</i>`, `<em>none</em>`) is a record missing a value
— where code that assumes every record has one breaks (a NULL trimmed as a string, a date
formatted that is not there). The walk samples two or three instances of a record page, in
document order of their links, and a list whose few odd rows sit lower is sampled without them.
Such a row's own links (those no other row of its table shares: the record's page, its edit
page) are wanted like an unsampled page type's instance (`Planner.marked`), one row for each set
of columns missing, so a list of forty rows with four holding a NULL costs one click.

Read on the table's structure alone — its body rows, columns, cell markup — never on a word (which
words are placeholders differs by language and application). Applies to every family that lists
records in tables: database and admin tools (a NULL column), trackers (an issue with no assignee or
due date), shops (a product without a price), address books (a contact without an email).
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

from bughunt.dom import FORM_CONTROLS, Node, body_rows
from bughunt.oracles.table_heads import cells, column_headings
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts

MIN_ROWS = 3
"""Body rows a table needs before one row is odd among the others."""
MAX_KINDS = 3
"""Sets of missing columns marked per table: a sparse table (every row missing something else) is
data, not a few odd records."""
MAX_HEAD_CHARS = 300
_FILLED = re.compile(r"[^\W_]", re.UNICODE)


def missing_value_targets(page: FetchedPage) -> dict[str, str]:
    """The absolute addresses of the own links of one row of each kind of missing value in the
    page's tables (see the module), each with its kind: the table's head and the columns missing,
    the same on every page of one list (its second page's odd row is a kind already opened)."""
    found: dict[str, str] = {}
    for table in tree_facts(page).tagged("table"):
        rows = [r for r in body_rows(table) if sum(1 for c in r.elements if c.tag == "td") >= 2]
        if len(rows) < MIN_ROWS:
            continue
        cells = [[c for c in row.elements if c.tag in ("td", "th")] for row in rows]
        width = max(len(c) for c in cells)
        rows_cells = [(row, c) for row, c in zip(rows, cells, strict=True) if len(c) == width]
        if len(rows_cells) < MIN_ROWS:
            continue
        missing: list[frozenset[int]] = [frozenset() for _ in rows_cells]
        for col in range(width):
            column = [c[col] for _, c in rows_cells]
            shapes = [_shape(cell) for cell in column]
            usual = max(set(shapes), key=shapes.count)
            if shapes.count(usual) * 2 <= len(shapes) or not _FILLED.search(
                column[shapes.index(usual)].text()
            ):
                continue  # no usual filled shape for this column: nothing is missing from it
            for i, cell in enumerate(column):
                if shapes[i] != usual and _placeholder(cell):
                    missing[i] = missing[i] | {col}
        kinds: dict[frozenset[int], int] = {}
        for i, gone in enumerate(missing):
            if gone:
                kinds.setdefault(gone, i)
        if not kinds or len(kinds) > MAX_KINDS or sum(1 for m in missing if m) * 2 >= len(missing):
            continue  # no odd rows, or so many that they are the table's data
        shared = _shared_links(rows_cells)
        head = _head(table)
        for gone, i in kinds.items():
            row = rows_cells[i][0]
            kind = f"{width} {sorted(gone)} {head}"
            for a in row.iter():
                href = a.get("href").strip() if a.tag == "a" else ""
                if href and not href.startswith("#") and href not in shared:
                    found.setdefault(urljoin(page.base, href), kind)
    return found


def _head(table: Node) -> str:
    """The table's column headings (`table_heads.column_headings`: those leading it, not a group's
    heading row inside the body, which differs from one page of the list to the next), two or more."""
    header = column_headings(table)
    heads = cells(header) if header is not None else []
    return " | ".join(c.text() for c in heads)[:MAX_HEAD_CHARS] if len(heads) >= 2 else ""


def _shape(cell: Node) -> tuple[str, ...]:
    """A cell's markup, its text aside: the signatures of its elements, and whether it shows text."""
    return (
        *(n.signature() for n in cell.iter() if n is not cell),
        "text" if _FILLED.search(cell.text()) else "",
    )


def _placeholder(cell: Node) -> bool:
    """Whether a cell shows no value: nothing, a dash, or its whole text in one element of its own
    (`<i>NULL</i>`), with no control or link in it (a cell holding a link or a form is an action)."""
    if any(n.tag in FORM_CONTROLS or n.tag == "a" for n in cell.iter()):
        return False
    text = cell.text()
    if not _FILLED.search(text):
        return True
    inner = cell.elements
    return (
        len(inner) == 1
        and not any(isinstance(c, str) and c.strip() for c in cell.children)
        and (inner[0].text() == text)
    )


def _shared_links(rows_cells: list[tuple[Node, list[Node]]]) -> set[str]:
    """The hrefs two or more rows hold (an author, a category): not the row's own record."""
    seen: dict[str, int] = {}
    for row, _ in rows_cells:
        for href in {a.get("href").strip() for a in row.iter() if a.tag == "a"}:
            seen[href] = seen.get(href, 0) + 1
    return {h for h, n in seen.items() if n >= 2}
