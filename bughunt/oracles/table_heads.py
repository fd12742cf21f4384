"""A table's column headings: which heading stands over which cell.

A list drawn as a table names its columns in a row of heading cells ("Name | Jobs | Status"), which a
reader follows down to the cell under each: the words naming what a count column counts
(`count_targets`, `count_rows`), the field a record's cell shows (`form_values`), what the table is
(`explorer.missing_values`), the column a filter box filters (`explorer.filter_typing`). The row of column
headings is read one way for all of them:
- a heading row is `th` cells, save cells with no text (an empty corner over the rows' buttons, a
  select-all checkbox over a column of row checkboxes);
- the headings lead the table: a heading row after its records is no column heading (a footer's
  "Total | 12", a group's heading row inside the body, which differs from one page of a list to the
  next);
- of the heading rows leading it, the last of more than one cell: a title row of one cell across the
  table (":: Mailboxes") or a group's heading spanning columns over the columns' own names heads no
  one column;
- cells are placed by their `colspan` (HTML's table layout); where a cell spans rows, which heading
  is over which cell is not known.
"""

from __future__ import annotations

from bughunt.dom import Node, colspan, own_rows

MAX_SPAN = 64
"""The most columns one cell is read as spanning (a `colspan` past it is no layout to follow)."""

_CELLS = ("td", "th")


def cells(row: Node) -> list[Node]:
    """The row's own cells."""
    return [c for c in row.elements if c.tag in _CELLS]


def span(cell: Node) -> int | None:
    """The columns a cell spans, or None when it spans rows too (which cell is under which is not known)."""
    if cell.get("rowspan").strip() not in ("", "1"):
        return None
    return min(colspan(cell), MAX_SPAN)


def heading_row(row: Node) -> bool:
    """A row of headings: `th` cells, save cells with no text (see the module)."""
    found = cells(row)
    return (
        bool(found)
        and any(c.tag == "th" for c in found)
        and all(c.tag == "th" or not c.text() for c in found)
    )


def column_headings(table: Node) -> Node | None:
    """The table's row of column headings: of the heading rows before its first record (a row of two
    or more cells that is no heading row), the last of more than one cell, else the first; None when
    no heading row leads it."""
    leading: list[Node] = []
    for row in own_rows(table):
        if heading_row(row):
            leading.append(row)
        elif len(cells(row)) > 1:
            break
    return next((r for r in reversed(leading) if len(cells(r)) > 1), leading[0] if leading else None)


def columns(header: Node) -> list[Node] | None:
    """Each column's heading, a heading spanning columns once for each; None when one spans rows."""
    under: list[Node] = []
    for cell in cells(header):
        width = span(cell)
        if width is None:
            return None
        under += [cell] * width
    return under


def column_of(row: Node, cell: Node) -> int | None:
    """The first column of a cell of `row`, the cells before it placed by their spans; None when one of
    them spans rows, or the cell is not the row's."""
    at = 0
    for c in cells(row):
        if c is cell:
            return at
        width = span(c)
        if width is None:
            return None
        at += width
    return None
