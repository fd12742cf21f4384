"""Elements a script made into controls: by making them focusable (`tabindex="0"` on a table row, a
column header, a list item or a plain box), or — read in the browser, by what the page does — by giving
them a click listener, a pointer cursor or a shadow tree holding a control (`ACTS_MARK`).

A framework's click handler is a property no markup shows (Svelte's `on:click`, React's `onClick`), but
an accessible one is reachable by keyboard too, and an element that is not focusable by itself becomes
so only by `tabindex` ≥ 0: a records table's rows that open the record in a side panel, a column
header that sorts the list, a card that opens its item. A negative `tabindex` is focusable by script
only (a dialog, a menu's items moved between by arrow keys), and a landmark, a form field or a scroll
container made focusable (`<pre tabindex="0">`, a `role="region"`) is read or typed into, not clicked.
"""

from __future__ import annotations

from bughunt.dom import Node

NOT_CLICKED = frozenset((
    "html", "body", "main", "section", "article", "aside", "nav", "header", "footer", "form", "fieldset",
    "table", "thead", "tbody", "tfoot", "ul", "ol", "dl", "pre", "code", "iframe", "dialog", "video",
    "audio", "canvas", "input", "select", "textarea", "option", "label",
))  # fmt: skip
"""Containers, landmarks and form fields: focusable to be scrolled, read or typed into."""
CONTAINER_ROLES = frozenset((
    "dialog", "alertdialog", "region", "main", "document", "application", "grid", "table", "list",
    "listbox", "tree", "treegrid", "tabpanel", "log", "status", "alert", "textbox", "searchbox",
    "combobox", "slider", "spinbutton", "scrollbar", "separator", "img", "presentation", "none",
))  # fmt: skip


def focus_control(node: Node) -> bool:
    """Is `node` made focusable (`tabindex` ≥ 0) as a control: not a container, landmark or field."""
    raw = node.attrs.get("tabindex")
    if raw is None or node.tag in NOT_CLICKED:
        return False
    try:
        index = int(raw.strip())
    except ValueError:
        return False
    return index >= 0 and (node.attrs.get("role") or "").strip().lower() not in CONTAINER_ROLES


ACTS_MARK = "data-bughunt-acts"
"""The attribute the browser engine's read gives an element that acts when clicked though its markup does
not say so (`bughunt.explorer.acting_elements`): `listener`, `pointer`, or `SHADOW_PREFIX` and the text of
the control in its shadow tree."""
SHADOW_PREFIX = "shadow "
LISTENER = "listener"
"""The `ACTS_MARK` value of an element given a click-like listener (or an `onclick` property)."""


def acts_on_click(node: Node) -> bool:
    """Was `node` read in the browser as acting on click (a listener, a pointer cursor, a shadow control)."""
    return ACTS_MARK in node.attrs and node.tag not in NOT_CLICKED


def shadow_label(node: Node) -> str:
    """What the control in `node`'s shadow tree says, as the browser read it ("" for any other element):
    its own markup is empty, and "Log out" there must be read as such before it is clicked."""
    mark = node.attrs.get(ACTS_MARK, "")
    return mark[len(SHADOW_PREFIX) :].strip() if mark.startswith(SHADOW_PREFIX) else ""


def control_label(node: Node) -> str:
    """What a control says: its text, else the name an icon control carries (`aria-label`, `title`:
    a row's trash icon titled "Delete" is a Delete, and the oracles judge its click as one), else the
    text of the control in its shadow tree."""
    return (node.text() or node.get("aria-label") or node.get("title") or shadow_label(node))[:120]
