"""The list a count label counts, found by the page's structure rather than by the label's neighbour.

A count ("Tasks (7)", "12 bookmarks") states the length of the one list of repeated items in its own
section: the nearest ancestor of the label that holds any content list at all must hold exactly one
(two lists there — a table and a menu, two tabs of cards — leave it unknown which is counted); a
section that holds a list element with no items before it holds a content list ends the search (the
label's list is drawn empty, or by scripts later, and the next list up is another card's). A
content list is a `ul`/`ol`/`table` with items or a run of two or more same-shaped sibling elements
(`lists.item_runs`), but not a pager, not a navigation menu (inside `nav`), not a select widget's
options (an ARIA `listbox` or `combobox`: a control's choices, not records), not a run of form field
boxes (each item a labelled input: a form's layout, not records), not a list inside another list's
items (a card's tags belong to the card), and not the label's own list. Forms, header bars, boxes and
wrappers between the label and the list are passed over because nothing here looks at what stands
between them.

This is read only when the label's neighbour (`counts.labelled_list`) shows no list, and only for a
label that stands alone: a count that is a link counts the list the link opens (`count_links`), and
a count among other counts (a profile's "12 posts · 3 followers") is a summary of several things,
none of them known to be the list below.

Applies to any server-rendered or script-drawn page (admin lists, trackers' reports, search
pages, data browsers, blogs' comment sections): it is stated on lists, labels and sections only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from bughunt.dom import Node
from bughunt.oracles.lists import is_pager, item_runs

SECTION_LEVELS = 6
"""Ancestors of a label searched for its section: a card's header, the card, its column, the main
area — past that a section is the page's chrome, not the label's."""
_STOP = frozenset(("body", "html", "#document"))
_FIELDS = frozenset(("label", "select", "textarea"))


@lru_cache(maxsize=8)
def content_lists(root: Node) -> list[tuple[Node, list[Node]]]:
    """(container, items) of the page's content lists (see the module's docstring), outermost only;
    kept per parsed document, as `lists.find_lists` is: every label of a page asks."""
    runs = [(c, items) for c, _sig, items in item_runs(root) if not is_pager(c, items)]
    kept = [
        (c, items)
        for c, items in runs
        if not _navigation(c)
        and not _choices(c)
        and not field_boxes(items)
        and not all(_controls_only(i) for i in items)
    ]
    inside = {id(n) for _c, items in kept for item in items for n in item.iter() if n is not item}
    return [
        (c, items) for c, items in kept if id(c) not in inside and not any(id(i) in inside for i in items)
    ]


_WORD = re.compile(r"[^\W\d_]{2,}")
_CONTROL_TAGS = frozenset(
    ("a", "button", "select", "option", "label", "input", "script", "style", "template")
)


def _controls_only(node: Node) -> bool:
    """Whether every word of an element is a link's, a button's or a menu's: a menu of actions (a bar's
    "Sort", "Apply action") — also a list of bare links, which the label's neighbour reads."""
    stack: list[Node | str] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _WORD.search(item):
                return False
        elif item.tag not in _CONTROL_TAGS:
            stack.extend(item.children)
    return True


def _navigation(container: Node) -> bool:
    return any(n.tag == "nav" or n.get("role") == "navigation" for n in (container, *container.ancestors()))


_CHOICE_ROLES = frozenset(("listbox", "combobox"))


def _choices(container: Node) -> bool:
    """Whether the list is a form control's choices: the options of a searchable select widget (ARIA
    `listbox`, inside a `combobox`: "Add a monitor" beside "0 Monitors"), not records a count counts."""
    return any(n.get("role") in _CHOICE_ROLES for n in (container, *container.ancestors()))


def field_boxes(items: list[Node]) -> bool:
    """Each item a form field with its label: a form's layout, not a list of records (a list of no
    items is no layout: a table drawn without rows)."""
    return bool(items) and all(any(n.tag in _FIELDS for n in item.iter()) for item in items)


def section_list(
    label: Node, root: Node, parse: Callable[[str], tuple[str, int] | None]
) -> list[Node] | None:
    """The items of the one content list in the label's own section, or None (see the module). A
    label in a table (a record's row "3 Northgate York" reads as a count) or in a list item is none."""
    if any(a.tag in ("a", "li", "tr", "td", "th", "article", "nav") for a in (label, *label.ancestors())):
        return None
    lists = content_lists(root)
    if not lists or _among_counts(label, parse, {id(c) for c, _items in lists}):
        return None
    holders = [(c, {id(a) for a in c.ancestors()} | {id(c)}, items) for c, items in lists]
    mine = {id(a) for a in (label, *label.ancestors())}
    if any(id(i) in mine for _c, items in lists for i in items):
        return None  # a count inside a list's item ("3 comments" on a card) counts what is not shown
    node = label
    for _ in range(SECTION_LEVELS):
        node = node.parent if node.parent is not None else node
        if node.tag in _STOP:
            return None
        held = [(c, items) for c, above, items in holders if id(node) in above]
        if not held and _empty_list(node):
            return None  # the section's own list is drawn empty (or filled by scripts): not the next one's
        if len(held) == 1:
            container, items = held[0]
            return items if _fills(container, node, label) else None
        if held:
            return None  # two lists in the label's section: which one it counts is not known
    return None


_EMPTY_HOLDERS = frozenset(("ul", "ol", "tbody"))


def _empty_list(section: Node) -> bool:
    """Whether the section holds a list element with no items: a card's "0 reminders" over its empty
    `ul` counts that list, and climbing past it would take a list of the next card or column."""
    return any(not n.elements and not _navigation(n) for n in section.find_all(*_EMPTY_HOLDERS))


def _fills(container: Node, section: Node, label: Node) -> bool:
    """Whether the list is what its section shows: at least half of the section's words but the
    label's. A list that is a small part of something else (one article's tags under "Articles (1)",
    the one article being no list) is a detail of that thing, not what the count counts."""
    rest = len(section.text()) - len(label.text())
    return rest <= 0 or 2 * len(container.text()) >= rest


def _among_counts(label: Node, parse: Callable[[str], tuple[str, int] | None], containers: set[int]) -> bool:
    """Whether the label stands among counts of other things (a stats bar: "12 posts", "3 followers"),
    beside words of its own (its bar says what the count leaves out: "Closed tasks are hidden"), or
    holds a link (then it counts what the link opens)."""
    if label.find_all("a"):
        return True
    if label.parent is not None and any(
        s is not label and _prose(s, parse, containers) for s in label.parent.elements
    ):
        return True
    node = label
    for _ in range(2):
        parent = node.parent
        if parent is None:
            return False
        others = [s for s in parent.elements if s is not node and _counts(s, parse)]
        if others:
            return True
        node = parent
    return False


def _counts(node: Node, parse: Callable[[str], tuple[str, int] | None]) -> bool:
    text = " ".join(node.text().split())
    return len(text) <= 60 and parse(text) is not None


_HOLDERS = frozenset(("ul", "ol", "table", "dl", "form"))


def _prose(node: Node, parse: Callable[[str], tuple[str, int] | None], containers: set[int]) -> bool:
    """Words beside a label that are neither controls, nor another count, nor a list or form. A
    `noscript` is no words beside it: its text is shown only where scripts do not run, and a count
    beside one was drawn by the page's scripts ("Javascript needs to be activated to view comments"
    left in a comment thread's box above the "157 Comments" its script wrote)."""
    if node.tag == "noscript":
        return False
    if node.tag in _HOLDERS or node.find_all(*_HOLDERS) or any(id(n) in containers for n in node.iter()):
        return False
    return not _controls_only(node) and not _counts(node, parse)
