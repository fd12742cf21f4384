"""A script or handler that stands in one record's cell of a grid where the column's other records show
text: the record's value printed as markup.

A data grid — a table's rows, a widget toolkit's grid (ExtJS's `x-grid3-row`, each row a table of its
own; Dojo's dgrid; a Knockout or AngularJS `foreach` over `<tr>`s; jQuery DataTables) — prints each
record's fields into the same cell of repeated rows. A template's own markup in a cell is in every row
(an avatar's `img` with a fallback handler, a row's menu wiring); a payload a user stored as a record's
name is in that record's row only, where every other row's cell holds words. Neither of the placement
signs of `scripts._suspicious` holds there: the cell's wrappers are `div`s named for layout
(`x-grid3-cell-inner`, `dgrid-column-name`), and the payload is often the whole value, beside no text.

Only an element with an inline handler is read so: a grid a script draws sets its cells' markup, where
a `<script>` never runs, and a legacy page laid out in a table keeps its own inline scripts in cells of
rows that print other things. The element must carry no class nor id (a template names the elements it lays out for its stylesheet,
as `scripts._among_formatted_prose` says too), and the column must be read on at least
`MIN_PEERS` other rows, at least half of them holding text.
"""

from __future__ import annotations

import re

from bughunt.dom import Node, at_path

_CELL_ROLES = frozenset({"gridcell", "cell"})
MAX_CELL_DEPTH = 6
"""How far above the element its cell may be (a toolkit wraps a value in two or three `div`s)."""
MAX_ROW_DEPTH = 5
"""How far above the cell the repeated record (its row) may be (`div.row > table > tbody > tr > td`)."""
MIN_PEERS = 2


def _cell(node: Node) -> Node | None:
    """The grid cell holding `node` (a `td`, or an element of role gridcell/cell) within
    `MAX_CELL_DEPTH` ancestors — or a field of a list's record: the element holding it that is a child
    of an item of a `ul`/`ol` (a script-drawn list prints each record's fields into the same children
    of repeated `li`s: Transmission's and other jQuery clients' torrent lists, a Knockout or Backbone
    `foreach` over `li`, Dojo's list rows)."""
    for depth, a in enumerate(node.ancestors()):
        if depth >= MAX_CELL_DEPTH:
            return None
        if a.tag == "td" or a.get("role").lower() in _CELL_ROLES:
            return a
        item = a.parent
        if (
            item is not None
            and item.tag == "li"
            and item.parent is not None
            and item.parent.tag in ("ul", "ol")
        ):
            return a
    return None


def _alike(a: Node, b: Node) -> bool:
    """Two records of one grid: the same tag, and a class in common or none on either (a row and its
    striped neighbour: `x-grid3-row` and `x-grid3-row x-grid3-row-alt`)."""
    if a.tag != b.tag:
        return False
    return bool(set(a.classes) & set(b.classes)) or not (a.classes or b.classes)


def _row_and_path(cell: Node) -> tuple[Node, list[int]] | None:
    """The repeated record holding `cell` — the nearest ancestor (the cell's own parent first) with at
    least `MIN_PEERS` alike siblings — and the path from it down to the cell (element indexes)."""
    path: list[int] = []
    here = cell
    for _ in range(MAX_ROW_DEPTH):
        parent = here.parent
        if parent is None:
            return None
        siblings = parent.elements
        path.insert(0, next(i for i, c in enumerate(siblings) if c is here))
        if here is not cell and sum(1 for s in siblings if s is not here and _alike(s, here)) >= MIN_PEERS:
            return here, path[1:]
        here = parent
    return None


def _holds_alike(cell: Node, node: Node) -> bool:
    """Does `cell` hold an element like `node` (the same tag with a handler)?"""
    return any(n.tag == node.tag and any(k.startswith("on") for k in n.attrs) for n in cell.iter())


def odd_cell(node: Node) -> Node | None:
    """The grid cell `node` stands in when the same cell of the other records holds text and nothing
    like `node` (see the module), else None."""
    if node.tag == "script" or node.classes or node.get("id"):
        return None
    cell = _cell(node)
    if cell is None:
        return None
    placed = _row_and_path(cell)
    if placed is None:
        return None
    row, path = placed
    parent = row.parent
    if parent is None:
        return None
    peers = [
        peer
        for other in parent.elements
        if other is not row
        and _alike(other, row)
        and (peer := at_path(other, path)) is not None
        and peer.tag == cell.tag
    ]
    if len(peers) < MIN_PEERS or any(_holds_alike(p, node) for p in peers):
        return None
    worded = sum(1 for p in peers if p.text().strip())
    return cell if 2 * worded >= len(peers) else None


_RECORD_MARK = re.compile(r"\d+|(['\"])(?:\\.|(?!\1).)*\1")
"""A record's mark in a handler's code: a number (its index or id) or a quoted string (its key)."""


def every_record(node: Node) -> bool:
    """`node`'s handler is one the grid's template writes on each record: the same cell of at least
    `MIN_PEERS` other records holds an element of the same tag with the same handler, whose code differs
    only in the record's mark (`toggle_enabled(0)`, `toggle_enabled(1)`, `select_row('ab12')`) — and that
    mark is not the same on every record. A script-drawn list binds each row's control to its record;
    a payload a user stored is one record's text (not repeated in every row), and a stored name printed
    on several rows (an author's) repeats the very same code, not a per-record one. The counterpart of
    `odd_cell`: pixl-webapp's and other jQuery tables' per-row checkboxes (`onchange="…(3)"`), legacy PHP
    admin grids (`onclick="toggle(12)"`), Dojo and Knockout rows whose handlers name the row."""
    handler = next((k for k in node.attrs if k.startswith("on")), None)
    cell = _cell(node) if handler is not None else None
    placed = _row_and_path(cell) if cell is not None else None
    if handler is None or placed is None:
        return False
    row, path = placed
    parent = row.parent
    if parent is None:
        return False
    code = node.get(handler)
    shape = _RECORD_MARK.sub("#", code)
    codes = {code}
    for other in parent.elements:
        if other is row or not _alike(other, row) or (peer := at_path(other, path)) is None:
            continue
        codes |= {
            n.get(handler)
            for n in peer.iter()
            if n.tag == node.tag and _RECORD_MARK.sub("#", n.get(handler)) == shape
        }
    return len(codes) > MIN_PEERS
