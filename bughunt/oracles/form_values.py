"""Reading the value a record's page shows for a form's field (the form oracle, `forms`).

By an element named for the field (`data-field`, `itemprop`, `name`, id or class words), a `dt`/`th`/
`label` term or a two-cell row's first cell naming it, a line labelling itself ("Phone: 555-0100"), or in
a list's row the cell under the column heading naming it. Menus, headers, footers and forms are skipped.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from bughunt.actions import UNTYPED_INPUTS
from bughunt.dom import Node
from bughunt.oracles.form_fields import key
from bughunt.oracles.reading import missing_value
from bughunt.oracles.table_heads import cells, column_headings, columns, heading_row, span
from bughunt.oracles.visibility import unseen

LABEL_CHARS = 40
"""A field's label is short: longer text beside a field is no label."""
_CLASS_PARTS = re.compile(r"[-_]")
FURNITURE = frozenset({"nav", "header", "footer", "form", "script", "style", "head"})


def _furniture(node: Node) -> bool:
    """A menu, header, footer or form around a page's content — not an article's own `header` (inside
    an `article` or `main`: the record's title and summary, as `form_positions` reads it too), not a
    record's read-only view drawn as a form."""
    if node.tag not in FURNITURE or read_only(node):
        return False
    # A header belongs to its nearest sectioning ancestor (HTML's scoping of `header`): a sidebar's
    # header (`main > aside > header`: an admin's logo, "Home" and "Log out" drawn beside its pages,
    # a theme's widget titles) is the sidebar's furniture, not the record's, even inside `main`.
    scope = next((a.tag for a in node.ancestors() if a.tag in ("article", "main", "aside", "nav")), None)
    return not (node.tag == "header" and scope in ("article", "main"))


def _in_aside(node: Node, scope: Node) -> bool:
    for a in node.ancestors():
        if a is scope:
            return False
        if a.tag == "aside":
            return True
    return False


def in_furniture(node: Node, scope: Node | None = None) -> bool:
    """Inside a menu, header, footer or form — below `scope`: a record's item of a list held in a form
    for bulk actions (a checkbox a row) is inside that form, and its values are the record's. A form
    with nothing to type or choose in is a record's read-only view (a grid's "details" page drawn with
    its form's labels), not furniture."""
    for a in node.ancestors():
        if a is scope:
            return False
        if _furniture(a):
            return True
    return False


_EDITABLE = frozenset({"select", "textarea"})
_READ_ONLY: dict[int, tuple[Node, bool]] = {}
"""`read_only` of the forms met (by identity, the node kept so an id is not reused): a form's
every element asks about it."""


def read_only(form: Node) -> bool:
    """A form with no field to type in or choose from: its labelled values are a record's, shown."""
    if form.tag != "form":
        return False
    kept = _READ_ONLY.get(id(form))
    if kept is not None and kept[0] is form:
        return kept[1]
    answer = not any(
        n.tag in _EDITABLE
        or (n.tag == "input" and n.get("type").lower() not in UNTYPED_INPUTS and "hidden" not in n.attrs)
        for n in form.iter()
    )
    if len(_READ_ONLY) > 4096:
        _READ_ONLY.clear()
    _READ_ONLY[id(form)] = (form, answer)
    return answer


_CONTROLS = frozenset({"form", "input", "select", "textarea"})


def _holds_controls(node: Node) -> bool:
    """Whether an element holds a form's controls (a `filter-box` around a search form and its menu of
    preset filters, a `comment-form` wrapper): its words are the controls' labels and menus, not a
    value the page shows for the field it is named after."""
    return any(d.tag in _CONTROLS for d in node.iter() if d is not node)


def shown_value(doc: Node, keys: set[str], *, record_item: bool = False, labelled_only: bool = False) -> str:
    """The value a resource page shows for a field with these keys, or "". In a record's item of a
    list (`record_item`) an element named for the field shows its own words, not its links' (a row's
    secondary line "by ann (view links)" names the owner, not a description) — a word of three
    letters at least. A table row shows its values under its table's column headings. An element
    named for the field that shows the field's name ("Keywords:" in `th#h_keywords`) is its label:
    the value is beside it. `labelled_only`: only values shown beside a label naming the field (a
    table of properties), none found by an element's name or class."""
    if record_item and (column := _column_value(doc, keys)) is not None:
        return column
    for node in doc.iter():
        # The page's main heading is its own wherever a theme draws it (a title in the menu bar of
        # tabs over a wiki page), not furniture shared with other pages.
        # A sidebar's `h1` (an admin's site name in `aside > header`) is the sidebar's, though.
        if (node.tag != "h1" or _in_aside(node, doc)) and (_furniture(node) or in_furniture(node, doc)):
            continue
        names = [node.get(a) for a in ("data-field", "itemprop", "name") if node.get(a)]
        # an id is read like the class list: `article-title` names the title
        names += [w for c in (*node.classes, node.get("id")) if c for w in (c, *_CLASS_PARTS.split(c))]
        if (
            not labelled_only
            and any(key(n) in keys for n in names if key(n))
            and key(node.short_text(LABEL_CHARS) or "") not in keys
            and not _holds_controls(node)
        ):
            if node.tag == "meta":
                value = node.get("content")
            elif record_item:
                value = _text_outside_links(node)
                value = value if re.search(r"\w{3,}", value) else ""
            else:
                value = node.text()
            # a closed dialog's parts ("modal-body": "Are you sure?") are no value the record shows
            if value and not unseen(node):
                return value
        if (
            (node.tag in ("dt", "th", "label") or _key_cell(node))
            and key(node.text()) in keys
            and node.parent is not None
        ):
            siblings = node.parent.elements
            after = siblings[siblings.index(node) + 1 :]
            if after and after[0].text() and not unseen(node):
                return after[0].text()
        if (labelled := _labelled_text(node, keys)) and not unseen(node):
            return labelled
    return ""


def main_heading(doc: Node) -> str:
    """The text of a record page's one `h1` outside its forms, or "". A form leads with its record's
    title and the record's page shows that title as its main heading, named or not (a bare `<h1>`):
    the heading is the value of a title-like field that leads its form, when nothing names it."""
    headings = [
        h for h in doc.find_all("h1") if not any(a.tag == "form" for a in h.ancestors()) and not banner(h)
    ]
    return headings[0].text() if len(headings) == 1 else ""


def banner(heading: Node) -> bool:
    """A heading that is a link to the site's home (`<h1><a href="index.php">Corpus Forum</a></h1>`):
    the site's name on every page, not a record's title."""
    links = [a for a in heading.find_all("a") if a.text().strip() == heading.text().strip()]
    if not links:
        return False
    parts = urlsplit(links[0].get("href"))
    return not parts.query and parts.path.rstrip("/").rpartition("/")[2] in (
        "",
        ".",
        "index.php",
        "index.html",
    )


def _column_value(row: Node, keys: set[str]) -> str | None:
    """The text of a table row's cell under the column heading that names the field (a list of
    records: "Start Date" over "2022-01-20"), or None when the row's table has no such heading."""
    if row.tag != "tr":
        return None
    header = _column_headings(row)
    under = columns(header) if header is not None else None
    if under is None:
        return None
    # A cell sits in the column after those of the cells before it (HTML's table layout): a row may
    # end short of a heading spanning the row's buttons ("Edit Copy Delete" under one `colspan`).
    at = 0
    for cell in cells(row):
        width = span(cell)
        if width is None:
            return None
        heading = under[at] if at < len(under) else None
        if width == 1 and heading is not None and key(heading.text()) in keys:
            return _text_outside_links(cell) or cell.text()
        at += width
    return None


def _column_headings(row: Node) -> Node | None:
    """The row of column headings over `row` (`table_heads.column_headings` of its table), or None (no
    such row, or `row` is one of the headings)."""
    table = next((a for a in row.ancestors() if a.tag == "table"), None)
    header = column_headings(table) if table is not None else None
    return None if header is None or heading_row(row) else header


def headed_row(row: Node) -> bool:
    """A table row under a row of column headings (a list's record), not the headings themselves."""
    return row.tag == "tr" and _column_headings(row) is not None


def _key_cell(node: Node) -> bool:
    """The first cell of a two-cell row: a table of properties (`<td>Released</td><td>2001-02-03</td>`,
    an admin's details view under a "Column | Value" header) labels its values with plain cells."""
    if node.tag != "td" or node.parent is None or node.parent.tag != "tr":
        return False
    cells = [c for c in node.parent.elements if c.tag in ("td", "th")]
    return len(cells) == 2 and cells[0] is node


def _text_outside_links(node: Node) -> str:
    parts: list[str] = []
    stack: list[Node | str] = list(reversed(node.children))
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
        elif item.tag not in ("a", "script", "style", "button"):
            stack.extend(reversed(item.children))
    return " ".join(" ".join(parts).split())


# A label's colon ends a word: space or an element's end follows it. A colon inside a token is no
# label's (an anchor's `comment:1` over a change's "by bob, 8 weeks ago", a time's `10:30`, `ns:tag`).
_LABELLED = re.compile(r"^(?P<label>[^:]{1,40}):\s+(?P<value>\S.*)$")
_INLINE = frozenset("a abbr b code em i small span strong time".split())


def _labelled_text(node: Node, keys: set[str]) -> str | None:
    """The value of a line that labels itself (`<div>Phone: 555-0100</div>`, `<p><b>Email:</b>
    ann@x</p>`) when the label is the field's, else None. Only a line of inline text: a block that
    holds several such lines is not one value."""
    if node.tag in _INLINE or any(c.tag not in _INLINE for c in node.elements):
        return None
    match = _LABELLED.match(node.short_text(200) or "")
    if match is None or key(match.group("label")) not in keys:
        return None
    return match.group("value").strip()


def stored(value: str) -> bool:
    """Whether a value a resource page shows is a stored one, not the print of a missing one."""
    return not missing_value(value)
