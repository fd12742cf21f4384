"""Which copies of a control repeated in every item of a list are clicked.

Copies of one control (one `selector_shape`: equal but for positions and record ids) mostly do the
same thing, so only a few are clicked (`MAX_ALIKE_CLICKS`). But what a copy does may depend on the
item it sits in: a row's menu that opens an edit form of the row's record fails only on a record
missing a field, which its row shows differently (an empty cell, a placeholder in another style).
So the copies clicked are those of items that differ in structure (`structure_hash`: text aside,
one item of each kind), first in document order, then the first of the rest up to the minimum —
and a copy whose own text shows markup written as text (`markup_links.shows_markup`: a card whose tag
reads `<script>…`), wherever it stands: the record a user stored markup in is the one whose opened view
may print it unescaped, as a link so labelled is opened first (`markup_links`); one of a board's 42
cards carrying a pasted `<script>` tag was never opened, only each lane's first (corpus ho29_tasksmd).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bughunt.dom import Node, selector_shape, structure_hash

from .markup_links import shows_markup

MAX_ALIKE_CLICKS = 2
"""Clicks kept per repeated control when its items all look alike."""
MAX_ALIKE_KINDS = 3
"""Clicks kept per repeated control at most: one per kind of item it sits in."""
MAX_MARKED = 1
"""Copies clicked besides the sample because their text shows markup (one shows how it is printed)."""
MAX_MENU = 8
"""Copies at most of a menu of distinct views (`_menu`): each is clicked."""
MAX_MENU_LABEL = 40
"""Characters at most of a menu entry's label."""


def _chain(node: Node) -> list[Node]:
    """`node`'s ancestors from the root down, `node` last."""
    chain = [node]
    while chain[-1].parent is not None:
        chain.append(chain[-1].parent)
    chain.reverse()
    return chain


def _items(copies: Sequence[Node]) -> list[Node]:
    """The item each copy sits in: its ancestor where the copies' ways from the root part."""
    chains = [_chain(n) for n in copies]
    depth = 0
    while all(depth < len(c) for c in chains) and all(c[depth] is chains[0][depth] for c in chains):
        depth += 1
    return [c[min(depth, len(c) - 1)] for c in chains]


def alike_sample(copies: Sequence[Node]) -> list[Node]:
    """The copies of one repeated control to click, in document order: the first copy in each kind
    of item (at most `MAX_ALIKE_KINDS`), then the first others up to `MAX_ALIKE_CLICKS`."""
    if len(copies) <= MAX_ALIKE_CLICKS or _menu(copies):
        return list(copies)
    kinds: set[str] = set()
    kept: set[int] = set()
    for index, item in enumerate(_items(copies)):
        digest = structure_hash(item)
        if digest not in kinds and len(kinds) < MAX_ALIKE_KINDS:
            kinds.add(digest)
            kept.add(index)
    for index in range(len(copies)):
        if len(kept) >= MAX_ALIKE_CLICKS:
            break
        kept.add(index)
    marked = [i for i, n in enumerate(copies) if i not in kept and shows_markup(n.text())]
    kept.update(marked[:MAX_MARKED])
    return [copies[i] for i in sorted(kept)]


def _menu(copies: Sequence[Node]) -> bool:
    """Whether the copies are a menu of distinct views, not one control repeated per item: few (at most
    `MAX_MENU`), each the whole of its item (a section's `<span>` in a bar, a board's card, a `<li>`
    holding only its link) and each named by a short label of its own ("Boards", "People"). A
    favourite button per preview is a part of its item; a records table's rows say more than a name."""
    if len(copies) > MAX_MENU:
        return False
    labels = [" ".join(n.text().split()) for n in copies]
    return (
        all(0 < len(label) <= MAX_MENU_LABEL for label in labels)
        and len(set(labels)) == len(labels)
        and all(item is n or " ".join(item.text().split()) == label
                for item, n, label in zip(_items(copies), copies, labels, strict=True))
    )  # fmt: skip


def alike_groups(candidates: Mapping[str, Node]) -> list[list[Node]]:
    """The page's controls (selector → element, in document order) grouped as copies of one control:
    one `selector_shape`; and also controls anchored on ids of their own that name their record by a
    word, not a number (`#delete-teaching`, `#delete-report`: distinct shapes), when they sit at one
    place of their items — the same tag path and classes — each in an item of its own (a row). A
    layout's buttons side by side with ids of their own (`#start-all`, `#stop-all`) stay apart: they
    are the items themselves, not copies in items. Unmerged, every row's Delete was a click of its own
    (5 of 32 repeat clicks of a Tornado app's server list at 100 clicks, corpus ho9_jupyterhub)."""
    groups: dict[str, list[Node]] = {}
    for selector, node in candidates.items():
        groups.setdefault(selector_shape(selector), []).append(node)
    groups = _split_widgets(groups, candidates)
    by_place: dict[str, list[str]] = {}
    for shape, nodes in groups.items():
        if len(nodes) == 1 and shape.startswith("#") and " " not in shape:
            by_place.setdefault(_place(nodes[0]), []).append(shape)
    for place, shapes in by_place.items():
        nodes = [groups[s][0] for s in shapes]
        if len(nodes) < 2 or any(item is node for item, node in zip(_items(nodes), nodes, strict=True)):
            continue
        if len({_said(n) for n in nodes}) > 1:
            # Each says a thing of its own (an icon toolbar's "Open", "Start all", "Inspector" by their
            # titles, in two bars): a bar's distinct buttons, not one control copied in rows.
            continue
        for shape in shapes:
            del groups[shape]
        groups[place] = nodes
    return _merge_drawn_alike(groups, candidates)


def _said(node: Node) -> str:
    """What a control says: its words, else its title or ARIA label (an icon's)."""
    return " ".join(node.text().split()) or node.get("title") or node.get("aria-label")


def _split_widgets(groups: dict[str, list[Node]], candidates: Mapping[str, Node]) -> dict[str, list[Node]]:
    """`groups`, with the controls anchored on ids of different kinds of element that each say a thing
    of their own split apart. A widget toolkit numbers every element it draws (ExtJS `ext-gen44`,
    Dojo `dijit_form_Button_3`, jQuery UI `ui-id-5`, GWT `gwt-uid-12`): the ids hold digits, so a
    toolbar's Add, Remove and Preferences, a panel's collapse tool and a tab strip's edge all had the
    one shape `#<id>`, and only two of them were clicked (a corpus ExtJS app's walk ended after 18
    clicks). Copies of one control in a list's items say the same ("Delete" in each row) or sit under
    one anchor (a grid's cells under its body's id); a bar's buttons say different things on anchors
    of different kinds (`button.icon-add`, `div.x-tool-collapse-west`): they are split by that kind
    (rows whose anchors alternate two classes make two groups, each still sampled)."""
    selectors = {id(node): selector for selector, node in candidates.items()}
    split: dict[str, list[Node]] = {}
    for shape, nodes in groups.items():
        labels = [_said(n) for n in nodes]
        anchors = [_anchor(n, selectors.get(id(n), "")) for n in nodes]
        kinds = {a.signature() if a is not None else "" for a in anchors}
        if len(nodes) < 2 or not shape.startswith("#<id>") or len(set(labels)) < 2 or len(kinds) < 2:
            split[shape] = nodes
            continue
        for node, anchor in zip(nodes, anchors, strict=True):
            kind = anchor.signature() if anchor is not None else ""
            split.setdefault(f"{shape}\0{kind}", []).append(node)
    return split


def _anchor(node: Node, selector: str) -> Node | None:
    """The element whose id `selector` starts from: `node` or an ancestor."""
    wanted = selector[1:].split(" ", 1)[0] if selector.startswith("#") else ""
    up: Node | None = node
    while up is not None and wanted and up.get("id") != wanted:
        up = up.parent
    return up


def _merge_drawn_alike(groups: dict[str, list[Node]], candidates: Mapping[str, Node]) -> list[list[Node]]:
    """`groups`, with those whose controls are all drawn alike (`_drawn`) made one: the same control a
    template draws in several sections, each anchored on a section id of its own (a documentation
    page's copy button on every code block, an accordion's "Show more" in every panel) — distinct
    shapes, one control. Unmerged, a 20-section page was 20 clicks of the budget, each toggling one
    more block (a Sphinx site, 38 of 60 browser clicks). Controls that say or lead to different
    things (labels, titles, addresses) stay apart."""
    by_drawn: dict[tuple[str, ...], list[str]] = {}
    for key, nodes in groups.items():
        drawn = {_drawn(n) for n in nodes}
        if len(drawn) == 1:
            by_drawn.setdefault(drawn.pop(), []).append(key)
    merged = [keys for keys in by_drawn.values() if len(keys) > 1]
    if not merged:
        return list(groups.values())
    order = {id(n): at for at, n in enumerate(candidates.values())}
    for keys in merged:
        nodes = sorted((n for k in keys for n in groups.pop(k)), key=lambda n: order[id(n)])
        groups["\0".join(keys)] = nodes
    return list(groups.values())


def _drawn(node: Node) -> tuple[str, ...]:
    """What a control looks like, its place aside: its tag and classes, its parent's, what it says and is
    named by, and where it leads."""
    parent = node.parent
    return (
        node.signature(),
        parent.signature() if parent is not None else "",
        " ".join(node.text().split()),
        node.get("title"),
        node.get("aria-label"),
        node.get("href"),
    )


def _place(node: Node) -> str:
    """Where `node` sits, ids aside: its tag path from the root and its own classes."""
    return " > ".join(n.tag for n in _chain(node)) + "." + ".".join(sorted(node.classes))
