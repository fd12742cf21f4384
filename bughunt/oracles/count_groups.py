"""Groups that each count their own list with a bare number, and a click that left a number behind.

A board or a grouped list draws a run of alike groups — a Kanban board's lanes, a mail client's
folders opened side by side, a grouped task list's sections — each with its name, a badge holding
only a number, and its list of items under it. The badge's words say nothing ("14"), so no count label
is read there; and the group is itself an item of the run, so its list is no content list of the page
(`count_sections`). What the number counts shows in the page before a click: when every group of the
run holds exactly as many items as its badge says (two groups at least, items in them), the badges
count their lists. A click that redrew the lists in place — a search typed into the board's box
(`filter_typing`), a tag filter, a sort that files a card twice — must redraw the counts with them:
a group of the same run, found at the same place, whose badge now disagrees with its list is a count
that missed the change (corpus ho29_tasksmd: a lane's counter counted the lane before the search).

Read only on a click state (`FetchedPage.clicked_from`) and only where the page before it proves the
reading, so a badge counting something else (unread items, a lazily drawn list's total) never is.
Applies to boards, grouped lists and dashboards of any family whose groups are drawn with counts.
"""

from __future__ import annotations

import re

from bughunt.dom import Node, at_path
from bughunt.page import FetchedPage

_NUMBER = re.compile(r"\d{1,6}")
MIN_GROUPS = 2
"""Groups a run needs: one group's badge matching its list may be chance."""

Path = tuple[int, ...]


def _path(node: Node, top: Node) -> Path | None:
    """Element indexes from `top` down to `node`, or None when `node` is not under `top`."""
    steps: list[int] = []
    here = node
    while here is not top:
        parent = here.parent
        if parent is None:
            return None
        steps.append(next(i for i, c in enumerate(parent.elements) if c is here))
        here = parent
    return tuple(reversed(steps))


def _badge(group: Node) -> Node | None:
    """The one element of `group` whose whole text is a number and that holds no other element."""
    found = [n for n in group.iter() if not n.elements and _NUMBER.fullmatch(n.text().strip())]
    return found[0] if len(found) == 1 else None


def _holder(group: Node, badge: Node) -> Node | None:
    """The element of `group` that holds its list: not the badge's, with the most element children."""
    above = {id(a) for a in badge.ancestors()}
    best: Node | None = None
    for node in group.iter():
        if node is group or id(node) in above or node is badge:
            continue
        if best is None or len(node.elements) > len(best.elements):
            best = node
    return best if best is not None and len(best.elements) > 0 else None


def _runs(root: Node) -> list[tuple[Node, str, Path, Path]]:
    """Runs proved to count their lists (see the module): (the run's parent, the groups' signature,
    the badge's path in a group, the list holder's path in a group)."""
    runs = []
    for parent in root.iter():
        by_kind: dict[str, list[Node]] = {}
        for child in parent.elements:
            by_kind.setdefault(child.signature(), []).append(child)
        for kind, groups in by_kind.items():
            if len(groups) < MIN_GROUPS:
                continue
            placed = set()
            for group in groups:
                badge = _badge(group)
                holder = _holder(group, badge) if badge is not None else None
                if badge is None or holder is None or int(badge.text().strip()) != len(holder.elements):
                    break
                placed.add((_path(badge, group), _path(holder, group)))
            else:
                if len(placed) == 1:
                    badge_path, holder_path = placed.pop()
                    if badge_path is not None and holder_path is not None:
                        runs.append((parent, kind, badge_path, holder_path))
    return runs


def group_mismatches(page: FetchedPage) -> list[tuple[Node, int, int]]:
    """(badge, number shown, items listed) of each group whose badge disagrees with its list on a click
    state whose page before proved the run's badges count their lists."""
    if page.clicked_from is None:
        return []
    before = page.clicked_from[0]
    out: list[tuple[Node, int, int]] = []
    for parent, kind, badge_path, holder_path in _runs(before.document):
        where = _path(parent, before.document)
        now = at_path(page.document, where) if where is not None else None
        if now is None:
            continue
        for group in (c for c in now.elements if c.signature() == kind):
            badge, holder = at_path(group, badge_path), at_path(group, holder_path)
            if badge is None or holder is None or not _NUMBER.fullmatch(badge.text().strip()):
                continue
            shown, listed = int(badge.text().strip()), len(holder.elements)
            if shown != listed:
                out.append((badge, shown, listed))
    return out
