"""Typing into a list's filter box: what a tester does with a filter that has no button.

A single-page admin's list filters as you type: its filter form has no action, no method and no
submit button; a script reads each box (debounced) and fetches the filtered list into the page
(react-admin's always-on filters, Vue and Angular data tables, DataTables' search box). Such a box is
no GET form the engines can submit by address, nor a control to click: the filtered list — its rows,
its "1-10 of N", its pages — is only seen by typing into it. A person types a value the list shows
in the column the box filters (the column headed by the box's label): a word at least two rows of
that column share, not every row (`list_words`' reading, on that column), else the value the whole
list shows most (`list_words.search_word`). Filled, the box sets off the script's request; the page
is read as a click's new state is (`clicking.click`), so every oracle of rendered lists judges the
filtered list (the counts of `count_ranges` above all).

A fill is carried as a click whose selector names the box and the value (`FILL_MARK`): the click
states that replay it (`Action.after`) type it again. Once the filtered list is read the box is
emptied again: an app may keep a list's filter for the session (react-admin's store), and every later
visit of the list would show the few rows filtered, not the list whose controls the walk knows.
A box in no form at all, named for searching ("Search", "Filter cards…", `type="search"`), over a page
whose lists share a word some of their items show (`list_words.search_word`), is such a box too: a
script-drawn board or list reads it on each key press and redraws its items (a Kanban board's lanes, a
notes app's cards, a file list); there the word the lists show is typed (corpus ho29_tasksmd: the
board's search box, never typed, hid a lane counter that counted the unfiltered lane). Not while a
dialog is open over the lists (a card opened at its own address): the page is the dialog, and the board
behind it is typed into on its own page, not once more under every dialog's address.
Applies to any family whose lists filter in place: admin SPAs, dashboards, data tables, boards; never
to a form with a submit (the form oracles' and the engines' GET submission) nor to a search box of
another page's form.
"""

from __future__ import annotations

import re

from bughunt.dom import Node, body_rows
from bughunt.list_words import MIN_ROWS, search_word
from bughunt.oracles.table_heads import cells, column_headings, column_of, columns, heading_row, span
from bughunt.page import FetchedPage

FILL_MARK = " >>fill="
"""Between a box's selector and the value typed into it (no CSS selector holds it)."""
MAX_FILLS = 1
"""Boxes typed into per page: one filtered list shows the filter's handling; each fill is a click."""
_TEXT_TYPES = frozenset(("", "text", "search"))
_WORD = re.compile(r"[^\W\d_]{4,}", re.UNICODE)
_SEARCH_WORDS = frozenset(("search", "filter", "find"))
"""What a formless box's label is led by when the box filters what the page shows."""
_DIALOG_ROLES = frozenset(("dialog", "alertdialog"))


def split_fill(selector: str) -> tuple[str, str | None]:
    """(the control's CSS selector, the value to type into it or None for a plain click)."""
    css, mark, value = selector.partition(FILL_MARK)
    return (css, value) if mark else (selector, None)


def filter_boxes(page: FetchedPage) -> list[tuple[Node, str]]:
    """The page's filter-as-you-type boxes with the value to type into each (at most `MAX_FILLS`),
    when the page shows a table to filter."""
    if not page.is_html:
        return []
    doc = page.document
    tables = [t for t in doc.find_all("table") if not _in_nav(t) and len(body_rows(t)) >= MIN_ROWS]
    if not tables:
        return _formless_boxes(page)
    out: list[tuple[Node, str]] = []
    for form in doc.find_all("form"):
        if not _filters_in_place(form):
            continue
        boxes = [box for box in form.iter() if _text_box(box)]
        # The box whose column shows a word some rows share, else the first box with the word the
        # whole list shows most (a box for names typed with a country matches nothing).
        chosen = next(((b, w) for b in boxes if (w := _column_word(tables, _label(doc, b)))), None)
        if chosen is None and boxes and (word := search_word(page)):
            chosen = (boxes[0], word)
        if chosen is not None:
            out.append(chosen)
        if len(out) >= MAX_FILLS:
            break
    return out


def _formless_boxes(page: FetchedPage) -> list[tuple[Node, str]]:
    """The first box in no form named for searching, with the word the page's lists show (see the
    module), when the page has both."""
    doc = page.document
    if _dialog_open(doc):
        return []
    boxes = (b for b in doc.find_all("input") if _text_box(b) and not _in_form(b) and _searches(doc, b))
    box = next(boxes, None)
    if box is None:
        return []
    word = search_word(page)
    return [(box, word)] if word else []


def _dialog_open(doc: Node) -> bool:
    """A dialog shown over the page: an open `<dialog>`, or an element of a dialog role not hidden."""
    for node in doc.find_all("dialog"):
        if "open" in node.attrs:
            return True
    return any(
        n.get("role") in _DIALOG_ROLES and "hidden" not in n.attrs and n.get("aria-hidden") != "true"
        for n in doc.iter()
    )


def _in_form(node: Node) -> bool:
    return any(a.tag == "form" for a in node.ancestors())


def _searches(doc: Node, box: Node) -> bool:
    """A box named for searching: `type="search"`, or a label led by a search word."""
    if box.get("type", "").lower() == "search":
        return True
    words = _WORD.findall(_label(doc, box).casefold())
    return bool(words) and words[0] in _SEARCH_WORDS


def _filters_in_place(form: Node) -> bool:
    """A form the page's script runs on each change: no action, no method, nothing submits it and no
    password (a login). (An editor's form that saves as it changes would send a write: the browser
    engine refuses every write while exploring.)"""
    if "action" in form.attrs or "method" in form.attrs:
        return False
    for node in form.iter():
        if node.tag == "button" and node.get("type", "submit").lower() == "submit":
            return False
        if node.tag == "input" and node.get("type", "").lower() in ("submit", "image", "password"):
            return False
    return True


def _text_box(node: Node) -> bool:
    return (
        node.tag == "input"
        and node.get("type", "").lower() in _TEXT_TYPES
        and not node.get("value")
        and node.get("role") != "combobox"
        and "readonly" not in node.attrs
        and "disabled" not in node.attrs
        and node.get("aria-hidden") != "true"
    )


def _label(doc: Node, box: Node) -> str:
    """The box's label: `aria-label`, else a `<label for>` naming its id, else its placeholder."""
    said = box.get("aria-label")
    if said:
        return said.strip()
    ident = box.get("id")
    if ident:
        for label in doc.find_all("label"):
            if label.get("for") == ident:
                return label.text().strip(" *:")
    return box.get("placeholder", "").strip()


def _column_word(tables: list[Node], label: str) -> str | None:
    """A word (four letters or more) shown by the most rows — at least two, not every row — of the
    column headed `label` in one of `tables`; None without such a column."""
    if not label:
        return None
    wanted = label.casefold()
    for table in tables:
        header = column_headings(table)
        heads = columns(header) if header is not None else None
        index = next((i for i, h in enumerate(heads or ()) if h.text().strip().casefold() == wanted), None)
        if index is None:
            continue
        # the cell of each record under that heading alone (not one spanning it and others)
        values = [
            c
            for r in body_rows(table)
            if not heading_row(r)
            for c in cells(r)
            if column_of(r, c) == index and span(c) == 1
        ]
        tally: dict[str, int] = {}
        shown: dict[str, str] = {}  # a word as the rows show it first
        for cell in values:
            for word in _WORD.findall(cell.text()):
                shown.setdefault(word.casefold(), word)
            for key in {w.casefold() for w in _WORD.findall(cell.text())}:
                tally[key] = tally.get(key, 0) + 1
        shared = [w for w in shown if 2 <= tally[w] < len(values)]
        if shared:
            return shown[max(shared, key=lambda w: tally[w])]  # first of the most shown, in row order
    return None


def _in_nav(node: Node) -> bool:
    return any(
        a.tag in ("nav", "header", "footer") or a.get("role") == "navigation" for a in node.ancestors()
    )
