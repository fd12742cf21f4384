"""A data grid's row is one control: selecting it.

A widget toolkit draws a grid's records as rows of cells that each take the focus or the pointer
(ExtJS's `td.x-grid3-col[tabindex]`, Dojo dgrid's and ARIA grids' `role="gridcell"`, jqGrid, Kendo,
SlickGrid), and one delegated listener on the grid's body selects the row whatever cell was clicked.
Read cell by cell, a row of nine columns was nine controls and the walk clicked them one after
another, each reaching the state the first one had (8 of 14 clicks of a torrent client's web UI
went to row 1's cells). So a row's cells are one control, clicked on its first cell that holds words
(its name, where a selection shows; an empty cell selects the row as well). A control *inside* a cell
(a link, a button, a checkbox) stays a control of its own, and so does a row a `click` binding sits on
(Knockout's and AngularJS's `tr` with a handler is already one element).

And a grid comes after the page's chrome in the document — a toolbar, a filter tree, the columns'
headers — so the page's cap of clicks (`offered_clicks.MAX_CLICKS_PER_PAGE`) was spent before the
first row: nothing was ever selected, and everything a selection enables (a details tab strip, a
toolbar's Remove) was never reached (`first_rows`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bughunt.actions import page_clicks
from bughunt.dom import Node
from bughunt.page import FetchedPage

_CELL_ROLES = frozenset({"gridcell", "cell"})
_ROW_ROLES = frozenset({"row"})
_CONTROL_TAGS = frozenset({"a", "button", "input", "select", "textarea", "summary"})


def _row(cell: Node) -> Node | None:
    """The row a grid cell stands in: its parent `tr`, or its nearest ancestor of role row (two up at
    most: a cell wrapped once)."""
    for depth, a in enumerate(cell.ancestors()):
        if depth > 1:
            return None
        if a.tag == "tr" or a.get("role").lower() in _ROW_ROLES:
            return a
    return None


def grid_row(node: Node) -> Node | None:
    """The row `node` selects when it is a cell of a grid (a `td`, or of role gridcell/cell) that
    is a control only by the script's markup (focusable, a pointer, a role), not a link or a form
    control of its own; else None."""
    if node.tag in _CONTROL_TAGS:
        return None
    # (a header cell — `th`, role columnheader — sorts by its own column: a control of its own)
    if node.tag != "td" and node.get("role").lower() not in _CELL_ROLES:
        return None
    return _row(node)


def one_per_row(candidates: Mapping[str, tuple[Node, str]]) -> dict[str, tuple[Node, str]]:
    """`candidates` (selector → element and label, in order) with each grid row's cells reduced to
    one: the row's first cell that holds words, else its first."""
    rows: dict[int, list[str]] = {}
    for selector, (node, _label) in candidates.items():
        row = grid_row(node)
        if row is not None:
            rows.setdefault(id(row), []).append(selector)
    dropped: set[str] = set()
    for selectors in rows.values():
        if len(selectors) < 2:
            continue
        worded = [s for s in selectors if candidates[s][1].strip()]
        kept = worded[0] if worded else selectors[0]
        dropped.update(s for s in selectors if s != kept)
    return {s: c for s, c in candidates.items() if s not in dropped}


def first_rows(groups: Iterable[list[Node]], sampled: Iterable[Node]) -> set[int]:
    """The first sampled row of each grid — of each group of copies (`alike_controls.alike_groups`: a
    grid's rows clicked on one column are one shape) made of grid rows — as element ids: taken past
    the page's cap of clicks, as a list's way to its next page is."""
    chosen = {id(n) for n in sampled}
    first: set[int] = set()
    for group in groups:
        row = next((n for n in group if id(n) in chosen), None)
        if row is not None and grid_row(row) is not None:
            first.add(id(row))
    return first


def selects_row(page: FetchedPage, selector: str) -> bool:
    """Is the control at `selector` on `page` a grid row (`grid_row`): selecting one record, its click
    says nothing of the other records' rows — an idle selection (the details panel drawn again with
    another record's words, the same markup) taught every row of a torrent client's grid idle, and the
    walk ended `done` at 36 of 100 clicks (`idle_controls.lessons`)."""
    walked = page_clicks(page)
    return any(
        walked.selectors.of(n) == selector and (grid_row(n) is not None or list_row(n))
        for n in walked.clickables
    )


_ITEM_ROLES = frozenset({"option", "listitem", "treeitem", "row"})


def list_row(node: Node) -> bool:
    """Is `node` a record's row of a list a script draws: an item of a `ul`/`ol` (or of role option,
    listitem, treeitem, row) that is a control only by the script (its listener or its pointer), no link
    nor form control. Selecting it (a `selected` class moved to it, the toolbar acting on it) says
    nothing of the other records' rows, as a grid's row does: jQuery UI's selectable lists, Dojo's
    dgrid list rows, a Backbone or Knockout `foreach` list with a click binding on its `li`s."""
    if node.tag in _CONTROL_TAGS or node.get("href"):
        return False
    if node.get("role").lower() in _ITEM_ROLES:
        return True
    return node.tag == "li" and node.parent is not None and node.parent.tag in ("ul", "ol")
