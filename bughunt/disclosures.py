"""Controls that open a group of what they hide: clicked once per group, so what the group holds is
offered; not again once open (a second click folds it).

A sidebar, a tree view, an accordion or a settings page folds its groups, and what a folded group
holds is not drawn (a framework's `v-if`/`*ngIf` list) or not shown (a closed `<details>`, a collapsed
panel: its controls are hidden, `actions.HIDDEN_MARK`). The control that unfolds it says so:

- `aria-expanded="false"` (the ARIA disclosure, accordion and tree-view patterns; Bootstrap's
  collapse and accordion toggles carry it) on an element that is no container or field — a tree's
  `role="treeitem"` whose listener is its tree's (one listener for all items: the tree is read as a
  container, the item as nothing) and that is focusable only by arrow keys (`tabindex="-1"`) is a
  control only by this;
  A menu's button says `aria-expanded` too (`aria-haspopup`, a dropdown toggle): what it opens is
  a layer of the chrome, whose items are clicked as before — not this rule's;
- a `<details>`' own `<summary>` while the details is closed;
- an element given a click listener of its own inside a link (`nested_control`): a group's expander
  drawn in the group's link (the group's page is the link's, the expander folds the group under it),
  a tree item's twisty in its item's link, a card's star in the card's link. The browser's read marks
  it (`explorer.acting_elements`); everything else inside a link is the link's.

A tree's leaf (`role="treeitem"` with no `aria-expanded`, no link or control inside: `tree_leaf`) is a
control too: selecting it opens its item (a feed reader's feed, a file manager's folder).

Once open, an `aria-expanded="true"` or `open` disclosure is not offered by this rule (its click folds
the group: a toggle), and an expander in a link keeps its place and label, so its click is the state
already reached (`facts.read_page`).
"""

from __future__ import annotations

from bughunt.dom import Node
from bughunt.focus_controls import ACTS_MARK, CONTAINER_ROLES, LISTENER, NOT_CLICKED


def closed_disclosure(node: Node) -> bool:
    """Does `node` say it opens a group that is closed: `aria-expanded="false"` on an element that is no
    container, landmark or field, or the `<summary>` of a closed `<details>`."""
    if node.tag == "summary":
        parent = node.parent
        return parent is not None and parent.tag == "details" and "open" not in parent.attrs
    if (node.attrs.get("aria-expanded") or "").strip().lower() != "false" or node.tag in NOT_CLICKED:
        return False
    if _opens_menu(node):
        return False
    return (node.attrs.get("role") or "").strip().lower() not in CONTAINER_ROLES


_HOLDS_CONTROL = frozenset(("a", "button", "input", "select", "textarea"))


def tree_leaf(node: Node) -> bool:
    """Is `node` a leaf of a tree view: `role="treeitem"` with no `aria-expanded` (it opens no group)
    and no link or control of its own inside. Selecting a leaf is how a tree view opens its item (the
    WAI-ARIA navigation treeview; Dijit's Tree of a feed reader's feeds, jsTree and Fancytree folder
    trees, MUI's TreeView): its listener is its tree's, one for all items, so nothing else says it
    acts. A leaf holding a link is that link's (the link is followed); an open group's item folds it."""
    if (node.attrs.get("role") or "").strip().lower() != "treeitem" or "aria-expanded" in node.attrs:
        return False
    return not any(
        n.tag in _HOLDS_CONTROL
        or (n.attrs.get("role") or "").strip().lower() in ("button", "link", "treeitem")
        for n in node.iter()
        if n is not node
    )


def _opens_menu(node: Node) -> bool:
    """A menu's or a listbox's button (`aria-haspopup`, Bootstrap's `data-bs-toggle="dropdown"`) says
    `aria-expanded` too: what it opens is a layer of the page's chrome, not a group of its content."""
    popup = (node.attrs.get("aria-haspopup") or "false").strip().lower()
    toggle = (node.attrs.get("data-bs-toggle") or node.attrs.get("data-toggle") or "").strip().lower()
    return popup != "false" or toggle == "dropdown"


def nested_control(node: Node) -> bool:
    """Was `node`, inside a link, read as given a click listener of its own (the only mark the browser's
    read gives an element inside a link): a control nested in the link, not the link's text or icon."""
    return node.attrs.get(ACTS_MARK) == LISTENER and any(
        a.tag == "a" and "href" in a.attrs for a in node.ancestors()
    )
