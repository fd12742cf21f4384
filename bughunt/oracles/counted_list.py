"""The list a count label counts: the element right after it, or the run of same-structure items that
starts right after it in one container (a heading over a flat loop: see `labelled_list`), a group of
a grouped table, a table boxed with its pager bar; else the one content list of the label's own
section (`count_sections`). Counts inside list items label something not shown, so they count
nothing. A list drawn with one row saying it is empty lists nothing. Moved whole from `counts.py`
(which re-exports the public names).
"""

from __future__ import annotations

import re
from collections.abc import Set
from itertools import takewhile

from bughunt.dom import Node, own_rows
from bughunt.oracles.count_labels import LABEL_CHARS, parse_count
from bughunt.oracles.count_sections import field_boxes, section_list
from bughunt.oracles.form_urls import CREATE_WORDS, creates
from bughunt.oracles.lists import (
    find_lists,
    is_pager,
    item_signature,
    list_items,
    spanning,
)
from bughunt.oracles.nouns import singular
from bughunt.page import FetchedPage


def _one_list_in(node: Node, around: Set[int] = frozenset()) -> tuple[bool, list[Node] | None]:
    """Whether `node` holds lists besides pagers (and lists whose ids are in `around`), and the items
    of the one it holds: its one table, else its one outermost list; None when that is not clear. A
    table laying out a form's fields (a search form's row of a select, a box and buttons) holds no
    records: it is not one of the lists. Nor does a container drawn with nothing in it (a pager's
    `<ul class="pages"></ul>` for a list of one page, beside its range line "(1-18/18)"; a filter
    table a script fills): a slot, not a list — a table drawn with only its header row is a list of
    no rows and stays one."""
    lists = [
        (c, items)
        for c, items in find_lists(node)
        if id(c) not in around and not is_pager(c, items) and not field_boxes(items) and c.elements
    ]
    if not lists:
        return False, None
    tables = [items for c, items in lists if c.tag == "table"]
    if len(tables) == 1:
        return True, tables[0]
    containers = {id(c) for c, _ in lists}
    outer = [items for c, items in lists if not any(id(a) in containers for a in c.ancestors())]
    return True, outer[0] if len(outer) == 1 and not tables else None


def labelled_list(label: Node, containers: set[int] | None = None) -> list[Node] | None:
    """The items of the list `label` labels, or None when no list clearly follows it.

    The list must be the element right after the label (a one-item list counts there); if the
    label ends its parent (a heading wrapped in a header div), the element right after the parent
    or grandparent is tried, but then it must be a list of two or more. `containers` (ids of the
    page's list containers, from `find_lists`) saves re-examining every ancestor on big pages.
    """
    if containers is None:
        root = next((a for a in label.ancestors() if a.parent is None), label)
        containers = {id(c) for c, _ in find_lists(root)}
    row = next((a for a in label.ancestors() if a.tag == "tr"), None)
    if row is not None and spanning(row):
        table = next((a for a in row.ancestors() if a.tag == "table"), None)
        return _group(table, row) if table is not None else None
    bar = current_tab_bar(label)
    if bar is not None:
        return labelled_list(bar, containers)
    if any(a.tag in ("li", "tr", "article") or id(a) in containers for a in label.ancestors()):
        return None
    place = _following(label)
    if place is None:
        return None
    level, following = place
    if (level == 0 or (level == 1 and _heading_text(label))) and (one := _named_item(following[0], label)):
        return [one]
    after = _unwrapped(following[0])
    items = list_items(after, min_items=1 if level == 0 else 2)
    if items and after.tag == "table" and (first := _group(after, None)):
        return first  # a heading over a grouped table counts its first group
    # a count in a list's header bar, beside the bar's controls, and a table wrapped in a form
    # with its hidden inputs are read by the label's section (`count_sections`)
    return items if items is not None or level else _run(following, label) or _boxed(after)


def _heading_text(label: Node) -> bool:
    """Whether the label is the whole text of the heading holding it (`<h2 id="comments"><span>3
    comments</span> <a class="rss"></a></h2>`: an empty feed icon beside it): the heading is the label."""
    parent = label.parent
    return (
        parent is not None
        and parent.tag in _HEADINGS
        and " ".join(parent.text().split()) == " ".join(label.text().split())
    )


_WORD = re.compile(r"[a-z]+")


def _named_item(box: Node, label: Node) -> Node | None:
    """The one item of a box right after a count (or after the heading the count is the whole text
    of, `_heading_text`) whose one element is named for what the label counts: "3 comments" over
    `div#comments-container > div.comment` is a list of one comment, not a wrapper around a list. A
    lone child is otherwise read as a layout wrapper (`list_items`); the label's own noun, singular, in
    the child's classes says it is one of the items counted. Families: blog comment threads (PluXml's
    `div.comment`, WordPress's `li.comment` in `ol.comment-list`), trackers' "1 attachment" over one
    `div.attachment`, forums' "2 replies" over `.reply` items."""
    parsed = parse_count(label.text())
    if (
        parsed is None
        or len(box.elements) != 1
        or any(isinstance(c, str) and c.strip() for c in box.children)
    ):
        return None
    words = _WORD.findall(parsed[0].lower())
    if not words:
        return None
    child = box.elements[0]
    classes = {w for c in child.classes for w in _WORD.findall(c.lower())}
    # one way only: a class naming the label's noun in the plural ("1 comment" over `div.comments`)
    # names a wrapper of the items, not one of them
    return child if singular(words[-1], classes) is not None else None


def _following(label: Node) -> tuple[int, list[Node]] | None:
    """Where the label's list would stand: the elements right after the label, or after its parent
    or grandparent (the level), controls passed over — the first of those places holding any."""
    node = label
    for level in range(3):
        if node.parent is None:
            return None
        siblings = node.parent.elements
        following = _past_controls(siblings[siblings.index(node) + 1 :])
        if following:
            return level, following
        node = node.parent
    return None


def drawn_empty(label: Node) -> bool:
    """Whether the element where the label's list would stand (right after the label, or after its
    parent or grandparent: `labelled_list`'s places) is no list but a short line saying there is
    nothing ("No records found", "There are no items"): the list is drawn empty, which a page past
    the end of a list shows under a count still saying how many there are. The line may offer to
    make the first item ("No bills. Add your first bill"): a short line whose only links lead to the
    page that makes one is that offer in whatever language the page is drawn ("Žádné účty … Přidat
    svůj první účet" → `/project/add`) — asked only where no list of the label's was found. An
    inline icon's drawing credits are no text (`dom`)."""
    place = _following(label)
    if place is None:
        return False
    first = place[1][0]
    text = " ".join(first.text().split())
    # an empty list's line may offer to make its first item: that link is the empty state's, no item
    links = first.find_all("a")
    others = [a for a in links if not _makes_one(a)]
    if others or len(text) > 2 * LABEL_CHARS:
        return False
    # the offer stands in a line that says something besides it (a menu's "Create" tab beside a
    # count's tab says nothing of the list)
    said = len(text) > sum(len(" ".join(a.text().split())) + 1 for a in links)
    offered = bool(links) and said and first.tag != "li" and all(creates(a.get("href")) for a in links)
    return offered or (len(text) <= LABEL_CHARS and bool(_EMPTY_TEXT.search(text)))


def _makes_one(link: Node) -> bool:
    """A link to the page that makes one (`/project/add`, `/posts/new`: `creates`, in any language the
    page is drawn in), or whose words begin with making one ("Add your first bill", "Create a post")."""
    words = link.text().lower().split()
    return creates(link.get("href")) or (bool(words) and words[0] in CREATE_WORDS)


_CURRENT = frozenset(("active", "current", "selected", "is-active"))


def current_tab_bar(label: Node) -> Node | None:
    """The tab bar (`ul`/`ol` of two or more items) whose current tab the label is: the label, or an
    element between it and its item, is marked current (class `active`/`current`/`selected`,
    `aria-current`, `aria-selected="true"`). A current tab's count ("List (85)" beside "Create",
    "Open (12)" beside "Closed (3)") states the length of the list the tab shows, drawn under the
    bar; a tab that is not current counts a list the page does not show. The tab says nothing but
    the count: a tab holding a menu is no count of the list."""
    chain: list[Node] = []
    for node in (label, *label.ancestors()):
        chain.append(node)
        if node.tag == "li":
            break
    else:
        return None
    if " ".join(chain[-1].text().split()) != " ".join(label.text().split()):
        return None  # the label is one of a menu the tab holds (a page-size dropdown's "5 items")
    bar = chain[-1].parent
    if bar is None or bar.tag not in ("ul", "ol") or sum(1 for c in bar.elements if c.tag == "li") < 2:
        return None
    marked = any(
        _CURRENT & set(n.classes)
        or n.get("aria-current", "false").lower() != "false"
        or n.get("aria-selected").lower() == "true"
        for n in chain
    )
    return bar if marked else None


def _past_controls(following: list[Node]) -> list[Node]:
    """The elements after a label, past the search form redrawn between a search's count and its
    results ("Page 1 of 7 results", the form holding the query, a rule, then the table) — a GET form,
    `hr` and empty elements (a layout's `clearfix`), which are no list and hold none of its items."""
    at = 0
    while at < len(following) and (
        following[at].tag == "hr"
        or not (following[at].elements or following[at].text().strip())
        or (following[at].tag == "form" and following[at].get("method", "get").strip().lower() in ("", "get"))
    ):
        at += 1
    return following[at:]


def _group_heading(row: Node) -> bool:
    """A row of one spanning cell that holds a count: the heading of the group of rows under it."""
    return spanning(row) and any(parse_count(n.text()) for n in row.iter() if len(n.text()) <= LABEL_CHARS)


def _group(table: Node, heading: Node | None) -> list[Node] | None:
    """The records of one group of a table grouped under headings that count them ("1.0 (12
    matches)" in a row spanning the table, then its rows): those after `heading` up to the next
    such heading. With `heading` None, the group before the table's first heading row, which a
    heading over the table counts — None when no record comes before it (a table whose group
    headings lead its rows is counted whole) or the table has no group headings."""
    rows = list(own_rows(table))
    if heading is None and not any(_group_heading(r) for r in rows):
        return None
    records = {id(r) for r in list_items(table) or ()}
    at = next((n for n, r in enumerate(rows) if r is heading), None) if heading is not None else None
    if heading is not None and at is None:
        return None
    start = at + 1 if at is not None else 0
    out: list[Node] = []
    for row in rows[start:]:
        if _group_heading(row):
            break
        if id(row) in records:
            out.append(row)
    return out if out or heading is not None else None


BOX_CHARS = 300
"""Text a box may hold beside its one list and still be that list's box (its range line, a pager
bar's labels), not a section that merely contains a list."""


def _boxed(box: Node) -> list[Node] | None:
    """The rows of the one table in the box right after a label, when the box holds little else: a
    table drawn with its pager bar under it in one element (a script's data table) is the list the
    heading before the box counts. Only a table: a box holding one `ul` may be a lone preview with
    its tags; and not a table under a heading of its own inside the box (one entry of a history,
    its heading over the table of what it changed)."""
    _holds, items = _one_list_in(box)
    table = next((a for a in items[0].ancestors() if a.tag == "table"), None) if items else None
    if table is None or _headed_inside(box, table):
        return None
    return items if len(box.text()) - len(table.text()) <= BOX_CHARS else None


_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def _headed_inside(box: Node, table: Node) -> bool:
    """Whether a heading inside the box, outside the table, stands over it: the table is that
    heading's (a history of one change, "comment:1 by carol", holding the table of its two field
    changes), not a list the label before the box counts."""
    inside = {id(n) for n in table.iter()}
    return any(id(h) not in inside for h in box.find_all(*_HEADINGS))


def _unwrapped(node: Node) -> Node:
    """The list inside wrappers that hold nothing else (`div.scroll > table`): the element a label
    precedes may be a box for its list rather than the list. A wrapper holding more (a form with its
    CSRF input beside the table) is left to the label's section (`count_sections`)."""
    while node.tag not in ("ul", "ol", "table") and not any(
        isinstance(c, str) and c.strip() for c in node.children
    ):
        if len(node.elements) != 1:
            break
        node = node.elements[0]
    return node


def _run(following: list[Node], label: Node) -> list[Node] | None:
    """The items of a flat loop right after a label in one container (`<h1>Posts (7)</h1>` then the
    `<article>`s, then the pager), with no element of their own around them: the leading run of two
    or more same-signature siblings, or None. A "label" of the run's own signature is one of its
    items (a line of a diff or a log, `wait(500)` among the lines after it), not what counts them."""
    first = item_signature(following[0])
    if not first or item_signature(label) == first:
        return None
    run = list(takewhile(lambda n: item_signature(n) == first, following))
    return run if len(run) >= 2 else None


def _with_nested(items: list[Node]) -> int:
    """Items plus nested items of the same kind: a threaded "Comments (5)" counts the replies too."""
    kinds = {_kind(i) for i in items}
    tags = {i.tag for i in items}
    # A kind is its element's tag, then a "." "#" or " " or nothing: with alphanumeric tags, an
    # element of another alphanumeric tag is of none of the items' kinds, and is passed without
    # reading its classes (an item's whole subtree is walked, most of it links and text).
    every = not all(tag.isalnum() for tag in tags)
    return len(items) + sum(
        1
        for i in items
        for n in i.iter()
        if n is not i and (every or n.tag in tags or not n.tag.isalnum()) and _kind(n) in kinds
    )


def _kind(node: Node) -> str:
    return node.signature() if node.classes or node.tag in ("li", "tr") else item_signature(node) or node.tag


def _counted_list(label: Node, containers: set[int], page: FetchedPage) -> list[Node] | None:
    """The list the label's neighbour shows, else the one list of its section (`count_sections`)."""
    found = labelled_list(label, containers)
    return found if found is not None else section_list(label, page.document, parse_count)


_EMPTY_TEXT = re.compile(r"^(?:there (?:are|is) )?(?:no|nothing|none)\b|\b(?:is|are) empty\b|^empty\b", re.I)


def _without_placeholder(items: list[Node] | None) -> list[Node] | None:
    """A list drawn with one row that says it is empty ("There are no articles", "No items", a cell
    spanning the table) lists nothing: no items, not one."""
    if items is None or len(items) != 1:
        return items
    item = items[0]
    if item.find_all("a") or not _EMPTY_TEXT.search(" ".join(item.text().split())):
        return items
    return []
