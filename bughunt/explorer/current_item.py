"""A menu's current item: the control that names the view its page already shows.

A menu of script controls (a sidebar of schemas or tables, a tab bar, a list of folders) selects a
view per item; the page shows one of them under a heading with that item's words ("Blog Posts" in
the menu, `<h2>Blog Posts</h2>` over the table). Clicking that item selects what is selected: the
page stays as it was — and an editor that never marks its current item (no `active` class, no
`aria-current`) gives no other sign of it. Learned for the menu's shape, that idle click took every
other item with it: a Vue editor's sidebar item "People" (the list with three pages, the rows to edit
and delete, the links to the public pages) was never clicked, and the walk stopped after 7 clicks
(corpus ho12_yancy). The idle click of the current item says nothing of items that name other views:
it is learned for the control in its place only (`idle_controls.placed_shape`).

A pager that pages nothing is such a menu too: « 1 » with its arrows disabled (a list of one page)
selects the page shown, and learned for the pager's shape its idle click took "2" and "Next" of every
other list with it (the same editor's people list, three pages, never turned). The idle click of a
pager that does page (an enabled control besides the clicked one) keeps its shape's lesson: its other
pages are reached by way of its "Next" (`pager_ways_on`); learned for the place only, every number of
an admin's script pager was clicked to pages seen already (ho7_starlette_admin: repeats 16 → 23).

Stated on what a page means, for every family with a menu that switches what the page shows: admin
SPAs and editors (their models or schemas), tabs, mail and feed readers (folders, feeds), dashboards.
A heading that holds a control is left out: a list's entry titled by its own script link is an item
of the list, not a view's name.

A menu that marks its current item says so without a heading: the item (or its `li`, at most two
wrappers up) carries `aria-current`, `aria-selected="true"`, `aria-pressed="true"` or a class that
names it current (`selected`, `active`, `current`): a mail reader's folder list whose Inbox is
`li.selected` (Knockout's webmail tutorial binds `css: { selected: … }`), a tab bar's active tab (a
toolkit prefixes the word: ExtJS `x-tab-strip-active`, jQuery UI `ui-tabs-active`, Dojo
`dijitTabChecked` — ExtJS's active Status tab taught every tab of a details panel idle). Its
idle click too says nothing of the other folders (`tests/support/knockout_spa.py`: the Inbox's click
took Archive, Sent and Spam with it, and the walk ended `done` after 8 clicks).
"""

from __future__ import annotations

import re

from bughunt.actions import page_clicks
from bughunt.dom import Node
from bughunt.oracles.pager_reading import active_controls, pager_nodes
from bughunt.oracles.visibility import unseen
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts

HEADINGS = ("h1", "h2", "h3")
"""Where a page names the view it shows."""
_CONTROLS = frozenset({"a", "button", "input", "select"})
CURRENT_CLASSES = frozenset({"active", "current", "is-active", "is-current", "selected", "is-selected"})
"""Classes a menu gives its current item (Bootstrap's `active`, a reader's `selected`)."""
_WRAPPERS = 2
_TOOLKIT_CURRENT = re.compile(r"[-_](active|selected|current)$|[a-z](Active|Selected|Current|Checked)$")
"""A widget toolkit's name for its current tab or item: a prefix, then the word (ExtJS's
`x-tab-strip-active`, jQuery UI's `ui-tabs-active`/`ui-state-active`, Kendo's `k-state-active`, Dojo
dijit's `dijitTabChecked`/`dijitTabActive`)."""


def current_class(name: str) -> bool:
    """Does the class `name` say its element is its menu's current item (`CURRENT_CLASSES`, or a
    toolkit's prefixed name for one, `_TOOLKIT_CURRENT`)."""
    return name in CURRENT_CLASSES or bool(_TOOLKIT_CURRENT.search(name))


def _words(text: str) -> str:
    return " ".join(text.lower().split())


def names_shown_view(page: FetchedPage, label: str) -> bool:
    """Do the words of `label` (a control clicked on `page`) name the view `page` shows: a visible
    heading holding no control says exactly them."""
    said = _words(label)
    if not said:
        return False
    return any(
        _words(h.text()) == said and not unseen(h) and not any(n.tag in _CONTROLS for n in h.iter())
        for h in tree_facts(page).tagged(*HEADINGS)
    )


def current_item(page: FetchedPage, selector: str, label: str) -> bool:
    """Is the control at `selector` on `page` (saying `label`) an item of a menu that may select the
    view shown: its words head the view (`names_shown_view`), or it is a control of a pager of the page
    that pages nothing (no enabled control but, perhaps, itself)."""
    if names_shown_view(page, label):
        return True
    walked = page_clicks(page)
    node = next((n for n in walked.clickables if walked.selectors.of(n) == selector), None)
    if node is None:
        return False
    if marked_current(node):
        return True
    pagers = pager_nodes(page)
    if not pagers:
        return False
    held = {id(a) for a in (node, *node.ancestors())}
    return any(id(p) in held and all(c is node for c in active_controls([p])) for p in pagers)


def marked_current(node: Node) -> bool:
    """Does the control `node` (or its list item, at most `_WRAPPERS` elements up) say it is its menu's
    current item: `aria-current`, `aria-selected`/`aria-pressed` true, or a class naming it current."""
    for depth, n in enumerate((node, *node.ancestors())):
        if depth > _WRAPPERS or n.tag in ("ul", "ol", "nav", "table", "tbody", "body"):
            return False
        if (
            any(current_class(c) for c in n.classes)
            or n.get("aria-current", "false").lower() not in ("", "false")
            or n.get("aria-selected", "").lower() == "true"
            or n.get("aria-pressed", "").lower() == "true"
        ):
            return True
        if n.tag == "li":
            return False
    return False
