"""A control a widget toolkit shows disabled by a class on the widget drawn around it.

A toolkit draws a button or a tab as a small tree of elements and disables the widget by a class on
its outer element, not by the `disabled` attribute (a link has none): ExtJS's `x-item-disabled` on a
tab's `li` or a button's `table.x-btn`, Dojo dijit's `dijitDisabled`/`dijitTabDisabled`, jQuery UI's
`ui-state-disabled`, Kendo's `k-state-disabled`, Element's and Bulma's `is-disabled`, MUI's
`Mui-disabled`, Vuetify's `v-btn--disabled`, PrimeNG's `p-disabled`. Its click does nothing, and the
walk learned from it that the shape leads nowhere (`idle_controls`) — the tab strip of a torrent
client's details panel, enabled only once a row is selected, was clicked disabled and never again.

A class token is read as "disabled" when it is that word or ends so (`-disabled`, `_disabled`,
`--disabled`, camel case `…Disabled`); it disables the control when it is on the control or on an
ancestor (`MAX_WIDGET_DEPTH` up at most) that says no more than the control does — the widget around
it, not a table row of a disabled account whose Enable button must stay a control.
"""

from __future__ import annotations

import re

from bughunt.dom import Node

_CAMEL = re.compile(r"[a-z]Disabled$")
MAX_WIDGET_DEPTH = 6
"""How far above a control the widget's outer element may be (`table.x-btn > tbody > tr > td > em >
button`)."""


def _disabled_token(token: str) -> bool:
    lower = token.lower()
    return lower == "disabled" or lower.endswith(("-disabled", "_disabled")) or bool(_CAMEL.search(token))


def _carries(node: Node) -> bool:
    names = node.attrs.get("class") or ""
    return "isabled" in names and any(_disabled_token(t) for t in names.split())


def widget_disabled(node: Node) -> bool:
    """Is `node` shown disabled by a class on itself or on the widget drawn around it (see the module)."""
    if _carries(node):
        return True
    said = None
    for depth, a in enumerate(node.ancestors()):
        if depth >= MAX_WIDGET_DEPTH or a.tag in ("body", "html", "#document", "form"):
            return False
        if not _carries(a):
            continue
        if said is None:
            said = node.text()
        if a.text() != said:
            return False  # it says more than the control: a row, a panel, a form — not the widget
        return True
    return False
