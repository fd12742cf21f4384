"""Which item of a list shows the record a form edits, when no item links to the form.

A form whose URL names no record (`/settings`, `/profile/edit`) is linked from every page's menu, not
from the record's row: the list of accounts shows the signed-in account's row (its name, its web site,
its affiliation under a column header) without a link to the settings. That row is the record: the
item showing the most of the form's filled values — at least `MIN_SHOWN`, and no other item, but the
ones around or inside it, showing as many. Read whole instead, the page's other rows were never told
from this one (a column's first value is another account's), so a value the form dropped went unseen.
"""

from __future__ import annotations

from collections.abc import Callable

from bughunt.dom import Node
from bughunt.oracles.lists import find_lists, item_runs

MIN_SHOWN = 2
"""Filled values of the form an item must show: a name alone is every mention of the account."""


def showing_item(doc: Node, shown: Callable[[Node], int]) -> Node | None:
    """The innermost list item of `doc` showing the most form values (`shown(item)`), when that is at
    least `MIN_SHOWN` and every other item showing as many holds it or is held by it; else None."""
    items = {id(i): i for _, _, run in item_runs(doc) for i in run}
    items.update({id(i): i for _, run in find_lists(doc) for i in run})
    counts = [(n, item) for item in items.values() if (n := shown(item)) >= MIN_SHOWN]
    if not counts:
        return None
    most = max(n for n, _ in counts)
    best = [item for n, item in counts if n == most]
    inner = min(best, key=lambda i: len(i.text()))
    for other in best:
        if other is not inner and not any(a is other for a in inner.ancestors()):
            return None  # two records show as many of the values: neither is known to be the one
    return inner
