"""A filter row drawn without the value of the filter the page applies: "author_id = [ ]" above the rows
`?author_id=20` chose.

A data browser or an admin list draws the filters a page applies as rows of its filter form, one per
filter: a select of columns with the filter's column chosen, often a select of operators, and a box
holding the value — the query pair `column=value` (or `column__op=value`, the operator joined to the
column) written back as the row that would send it. The person reads there what the rows are
filtered by and changes it. A row whose column is the query's key but whose box is drawn empty (or
without a value at all) dropped the value: sending the form as it stands would filter by nothing.

Read only on a GET page whose filter form sends to the page's own path; the row is the nearest
element around the column select that holds exactly one text box; the column is the select's chosen
option (its value, else its words), the query key that column or the column followed by `__` and an
operator; the query's value must be non-empty and stand in no other box of the page. `search_echo`
reads a box named as the query key itself; this reads a box whose key is chosen beside it.

Stated on forms, selects and query pairs only: data browsers (Datasette, admin grids with "add
filter" rows), trackers' custom queries (a field select, an operator, a value), log and metric
explorers.
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

from bughunt.actions import is_text_box
from bughunt.dom import Node
from bughunt.page import FetchedPage
from bughunt.sim.route_keys import query_pairs
from bughunt.tree_facts import tree_facts

OPERATOR_JOIN = "__"
"""How a query key joins a column to its operator (`author_id__gt`): Django's lookups and the data
browsers that follow them."""


def _chosen(select: Node) -> str:
    """The select's chosen option: its value, else its words; "" when none is marked chosen."""
    for option in select.find_all("option"):
        if "selected" in option.attrs:
            return (option.attrs["value"] if "value" in option.attrs else option.text()).strip()
    return ""


def _row_box(select: Node) -> Node | None:
    """The one text box of the nearest element around the select that holds any (the filter's row)."""
    for node in select.ancestors():
        if node.tag == "form":
            return None
        boxes = [n for n in node.iter() if is_text_box(n) and "disabled" not in n.attrs]
        if boxes:
            return boxes[0] if len(boxes) == 1 else None
    return None


def box_value(node: Node) -> str | None:
    """What a box shows as drawn: a text area's text, an input's `value`; None for an input written
    without a `value` attribute (it echoes nothing)."""
    if node.tag == "textarea":
        return node.raw_text()
    return node.attrs["value"] if "value" in node.attrs else None


def sends_here(form: Node, page: FetchedPage) -> bool:
    """A GET form sending to the page's own path: the page is (or may be) its answer."""
    if form.get("method", "get").strip().lower() not in ("", "get"):
        return False
    action = urljoin(page.url, form.get("action").strip() or page.url)
    return urlsplit(action).path == urlsplit(page.url).path


def dropped_filter(page: FetchedPage) -> tuple[Node, str] | None:
    """(the empty box, the column whose value it lost) for the first filter row that dropped the value
    the page's query gives its column (see the module), else None."""
    asked = [(k, v.strip()) for k, v in query_pairs(urlsplit(page.url).query, decoded=True) if v.strip()]
    if not asked:
        return None
    forms = [f for f in tree_facts(page).tagged("form") if sends_here(f, page)]
    if not forms:
        return None
    # a value a person can read in another box of the page (a hidden input carrying it to an export
    # form shows nothing)
    shown = {
        (box_value(n) or "").strip() for n in tree_facts(page).tagged("input", "textarea") if is_text_box(n)
    }
    for form in forms:
        for select in form.find_all("select"):
            column = _chosen(select)
            if not column:
                continue
            values = [v for k, v in asked if k == column or k.startswith(column + OPERATOR_JOIN)]
            if len(values) != 1 or values[0] in shown:
                continue
            box = _row_box(select)
            if box is None:
                continue
            if not (box_value(box) or "").strip():
                return box, column
    return None
