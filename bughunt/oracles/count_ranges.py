"""Range lines ("Showing 11 to 20 of 64 items") and the one list each describes: the rows a range
says a page holds, and the total it states for the whole list however it is paged. Moved whole from
`counts.py` (which re-exports the public names).
"""

from __future__ import annotations

from bughunt.dom import Node
from bughunt.oracles.count_labels import _innermost, parse_range
from bughunt.oracles.counted_list import _one_list_in, _without_placeholder
from bughunt.page import FetchedPage

RANGE_LEVELS = 4
"""Ancestors of a range line searched for the one list it describes (a card's footer, then the card)."""


def range_lines(page: FetchedPage) -> list[tuple[Node, int, int, int]]:
    return page.derived(_find_range_lines)


def _find_range_lines(page: FetchedPage) -> list[tuple[Node, int, int, int]]:
    return _innermost(page, parse_range)


def _described_list(line: Node) -> list[Node] | None:
    """The items of the one list a range line describes: the nearest ancestor holding lists other
    than pagers holds exactly one table (else exactly one list); None when that is not clear."""
    node = line
    around = {id(a) for a in line.ancestors()}
    for _ in range(RANGE_LEVELS):
        if node.parent is None:
            return None
        node = node.parent
        holds, items = _one_list_in(node, around)
        if holds:
            return items
    return None


def range_mismatches(page: FetchedPage) -> list[tuple[Node, int, int]]:
    """(line, rows the range says, rows listed) for each range line the list under it contradicts:
    "11 to 20 of 64" says ten rows are on this page (fewer on the last page: the range ends at the
    total), whatever the pager says; a range ending past its total contradicts itself."""
    out = []
    for line, first, last, total in range_lines(page):
        items = _without_placeholder(_described_list(line))
        if items is None:
            continue
        said = _rows_said(first, last, total)
        if len(items) > said and first > 1:
            continue  # a later page showing rows of the page before: the pager's bug, not the count's
        if said != len(items) or last > total:
            out.append((line, said, len(items)))
    return out


def _rows_said(first: int, last: int, total: int) -> int:
    """The rows a range says its page holds. A range of an empty list says none ("0 to 0 of 0"); one
    that starts at 0 over a list that has rows counts from 0, as its pager's offset does ("Showing
    0-19 of 43": twenty rows — Rack/Sinatra dashboards and offset-paged admin tools print the offset
    itself), where reading the 0 as "no rows" made every first page a mismatch."""
    if first == 0 and total == 0:
        return 0
    return max(last - first + 1, 0)


def _range_total(page: FetchedPage, items: list[Node]) -> int | None:
    """The total a range line states for the list whose items are `items` ("1 to 10 of 37": 37), or
    None when no range line describes that list."""
    for line, _first, _last, total in range_lines(page):
        described = _described_list(line)
        if items and described and described[0] is items[0]:
            return total
    return None
