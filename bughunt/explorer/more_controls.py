"""A list's "Load more" control: the way on of a list that grows in place instead of turning its page.

Feed readers, timelines, comment threads and admin tables draw no pager under a long list but a button
after it ("Load more", "Show more articles", "See more") whose script fetches the next batch and appends
it (a cursor of the last item shown). It is the list's way on as much as a pager's "Next": the cap of
clicks a page offers (`MAX_CLICKS_PER_PAGE`, spent in document order on each item's own buttons) must not
cut it, and the planner wants it before the page's other clicks (`PageFacts.next_pages`), so the
pagination oracle sees the grown list (`pagination._appended`: the next batch starting again with an
item already shown). A feed reader's stream footer came after 20 articles' buttons and was never
clicked in 100 clicks.

Read on the control's words alone (a verb of showing and "more", or "more" with what it counts — no
application's markup), outside menus, headers and footers, and never a control that opens a menu
("More ▾": `aria-haspopup`, a dropdown toggle) or one that is disabled.
"""

from __future__ import annotations

import re

from bughunt.actions import HIDDEN_MARK, clickable
from bughunt.dom import Node
from bughunt.oracles.pagination import furniture
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts

_MORE = re.compile(
    r"^\s*(?:(?:load|show|see|view|get|fetch)\s+)?more(?:\s+[a-z]+){0,2}\s*(?:\.\.\.|…)?\s*$"
    r"|^\s*(?:load|show)\s+(?:older|earlier|next)(?:\s+[a-z]+){0,2}\s*$",
    re.I,
)
_MENU_WORDS = frozenset({"options", "actions", "settings", "tools", "info", "details", "menu", "filters"})
"""What a "More …" that opens a menu or a panel says it holds: no batch of the list."""


def more_controls(page: FetchedPage) -> list[Node]:
    """The page's controls that load more of a list in place, in document order."""
    return list(page.derived(_more_controls))


def _more_controls(page: FetchedPage) -> list[Node]:
    found: list[Node] = []
    for node in tree_facts(page).tagged("button", "a"):
        label = " ".join(node.text().split())
        if not _MORE.match(label) or _MENU_WORDS & set(label.lower().split()):
            continue
        if node.get("aria-haspopup") or "dropdown" in (
            node.get("data-toggle") or node.get("data-bs-toggle") or ""
        ):
            continue
        if furniture(node) or not _may_click(node):
            continue
        found.append(node)
    return found


def _may_click(node: Node) -> bool:
    """A control a person can click: `clickable`, or a submit button (a script's handler, set as a
    property no attribute shows, fetches the batch; without one, its form's write is refused — exploring
    never writes), unless disabled or hidden."""
    if clickable(node):
        return True
    attrs = node.attrs
    return (
        node.tag == "button"
        and "disabled" not in attrs
        and attrs.get("aria-disabled") != "true"
        and HIDDEN_MARK not in attrs
    )
