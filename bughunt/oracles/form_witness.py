"""The one item of a page that shows the record an edit form edits (the form oracle, `forms`).

A form that names no page of its record (`/settings`, an edit form posting to its own page, a form
a click opened in place) is compared with what a person would compare it with: the part of a page
they already saw that shows the record. The candidate pages are the ones memory has — the form's own
page (outside the form), the page a click opened it on (`FetchedPage.clicked_from`), the pages
linking to it (`form_pages.referrers`: the collection's list first). On each, the record is the one
*item* showing the most of the form's filled values: an item is any part of a page that stands for
one thing — an item of a list (a row, a card of a grid, an entry of a feed) or a block of its own
(a definition list, a table, a section, an article, an aside, the main part) — and the innermost of
those showing as many values as any is the record's. Two disjoint items showing as many are two
records the page does not tell apart, unless they are parts of one record (its name in a heading,
its e-mail in a table under it): then their nearest common element is the record, when no two items
of a list show a value for one of the empty fields (a feed whose every card shows its content says
not which card the form edits). Values fewer than an item of a list needs, all in one row of a list,
are that row's — one record among others — unless the row holds or stands beside the page's link to
the form (`_one_row`): a table, or the whole page, around it is no witness either. Stated on what pages mean — a record is where its values are shown
together — not on any application's markup: a members list, a profile's `<dl>`, a card grid, a
ticket's table of properties above its "Modify" form and a single-page app's record view beside the
form its "Edit" opened are one search.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from bughunt.dom import Node
from bughunt.oracles.form_fields import read_fields
from bughunt.oracles.form_values import shown_value
from bughunt.oracles.lists import find_lists, item_runs

Fields = list[tuple[Node, str, str, set[str], bool]]

BLOCKS = frozenset({"dl", "table", "section", "article", "aside", "main", "fieldset", "details"})
"""Elements that stand for one thing of their own (a profile's definition list, a table of properties)."""
_UNSHOWN = frozenset(
    {"script", "style", "head", "template", "noscript", "select", "option", "textarea", "input"}
)
"""What shows no value to a reader: scripts, and controls (a form's own fields hold the values it edits)."""
_WORD = re.compile(r"\w+")
MIN_LISTED = 2
"""Filled values an item of a list must show to be told from the others: a title alone may be any
card's of a feed (the form edits one record; which one, one value does not say)."""
MIN_CHARS = 3
"""A value shorter than this ("5", "no") is shown everywhere on a page: it says nothing of a record."""


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(text.casefold()))


def shown_values(fields: Fields, chosen: Iterable[str] = ()) -> list[str]:
    """The form's filled visible values that can tell a record: typed ones and its chosen options'
    labels, normalised, none a bare short number."""
    values = [v for node, _n, v, _k, visible in fields if v and visible and node.tag != "select"]
    out = []
    for value in [*values, *chosen]:
        norm = _norm(value)
        if len(norm) >= MIN_CHARS and not norm.isdigit() and norm not in out:
            out.append(norm)
    return out


def _edit_forms(doc: Node, fields: Fields) -> set[int]:
    """The forms of `doc` holding the edit form's fields (the form itself, or its copy on the page
    a click opened it on): what they hold is what the form edits, not what the page shows."""
    names = {f[1] for f in fields}
    return {id(f) for f in doc.find_all("form") if names and names <= {x[1] for x in read_fields(f, doc)}}


def _shown_text(node: Node, skip: set[int]) -> str:
    """The words `node` shows a reader, a link's target included (a row shows a stored address as a
    link to it), outside controls and the edit form: one space-padded normalised string."""
    parts: list[str] = []
    stack: list[Node | str] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        if item.tag in _UNSHOWN or id(item) in skip:
            continue
        if item.tag == "a" and item.get("href"):
            parts.append(" " + item.get("href") + " ")
        stack.extend(reversed(item.children))
    return " " + _norm(" ".join(parts)) + " "


def _items(doc: Node) -> list[tuple[Node, bool]]:
    """Every item of `doc`, each with whether it is one of a list's (one record among others)."""
    items = {id(i): (i, True) for _, _, run in item_runs(doc) for i in run}
    items.update({id(i): (i, True) for _, run in find_lists(doc) for i in run})
    items.update({id(n): (n, False) for n in doc.iter() if n.tag in BLOCKS and id(n) not in items})
    return list(items.values())


def count_shown(node: Node, values: list[str], skip: set[int]) -> int:
    """How many of the values `node` shows; a value inside a longer one shown there ("alice" in
    "alice@club.test") is shown only where it stands apart."""
    text = _shown_text(node, skip)
    n = 0
    for value in sorted(values, key=len, reverse=True):
        if f" {value} " in text:
            n += 1
            text = text.replace(f" {value} ", " \0 ")
    return n


def _contains(outer: Node, inner: Node) -> bool:
    return outer is inner or any(a is outer for a in inner.ancestors())


def _common(nodes: list[Node]) -> Node:
    first = [nodes[0], *nodes[0].ancestors()]
    return next(a for a in first if all(_contains(a, n) for n in nodes[1:]))


def several_items_show(doc: Node, keys: set[str]) -> bool:
    """Whether two items of a list of `doc` each show a value for a field with these keys (by a
    label or an element named for it): records of a feed, one of which the form edits."""
    items = {id(i): i for _, _, run in item_runs(doc) for i in run}
    items.update({id(i): i for _, run in find_lists(doc) for i in run})
    showing = [i for i in items.values() if shown_value(i, keys)]
    # an item holding another that shows the field is that record's, not a second record
    return any(a is not b and not _contains(a, b) and not _contains(b, a) for a in showing for b in showing)


def _one_row(
    doc: Node, part: Node, n: int, shown: dict[int, int], fields: Fields, links: Sequence[Node]
) -> bool:
    """Whether the `n` values `part` shows, fewer than `MIN_LISTED`, are one list item's (the item
    inside `part`, or `part` inside it) that neither holds nor stands beside a link to the form: one
    record among others, and so few values do not tell which — a table or a page showing a create
    form's default title in one row of a list the site's menu links the form from. A forum post's
    item with its own "Edit" link in the item after it is the form's record; a row showing a value
    beside a label naming one of the form's fields ("E-mail | ann@…") is a property of the record,
    not a record among others. `shown`: how many values each list item shows (`witness` counted them)."""
    if n >= MIN_LISTED:
        return False
    rows = [run for _, _, run in item_runs(doc)] + [run for _, run in find_lists(doc)]
    alone = False
    for run in rows:
        for k, item in enumerate(run):
            if not (_contains(part, item) or _contains(item, part)) or shown.get(id(item), 0) < n:
                continue
            if any(shown_value(item, keys, labelled_only=True) for _n, _m, _v, keys, _s in fields):
                continue
            if any(_contains(near, link) for near in run[max(k - 1, 0) : k + 2] for link in links):
                return False
            alone = True
    return alone


def witness(
    doc: Node, fields: Fields, chosen: Iterable[str] = (), min_shown: int = 1, links: Sequence[Node] = ()
) -> tuple[int, Node] | None:
    """(values shown, part) of the one item of `doc` showing the most of the form's filled values —
    at least `min_shown` — or, when no item does, the whole page showing that many and no list of it
    whose items each show an empty field; None when the page does not tell (two records show as many,
    or the values are one list item's, too few to tell it, and `links` — the page's links to the form
    — are not in or beside it: `_one_row`)."""
    values = shown_values(fields, chosen)
    if not values:
        return None
    skip = _edit_forms(doc, fields)
    items = [(item, listed, count_shown(item, values, skip)) for item, listed in _items(doc)]
    shown = {id(item): n for item, listed, n in items if listed}
    counted = [
        (n, item)
        for item, listed, n in items
        if n >= (max(min_shown, MIN_LISTED) if listed else min_shown)
        and (listed or not _one_row(doc, item, n, shown, fields, links))
    ]
    empty_keys = [f[3] for f in fields if not f[2] and f[4]]
    if counted:
        most = max(n for n, _ in counted)
        best = [item for n, item in counted if n == most]
        inner = [i for i in best if not any(o is not i and _contains(i, o) for o in best)]
        if len(inner) == 1:
            return most, inner[0]
        if any(several_items_show(doc, keys) for keys in empty_keys):
            return None  # several records show as many values: the form edits one of them
        return most, _common(inner)
    n = count_shown(doc, values, skip)
    if n < min_shown or any(several_items_show(doc, keys) for keys in empty_keys):
        return None
    if _one_row(doc, doc, n, shown, fields, links):
        return None
    return n, doc
