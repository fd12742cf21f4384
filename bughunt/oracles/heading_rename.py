"""A heading renamed in place whose field starts empty (the form oracle, `forms`).

A single-page app lets a record's name be edited where it is shown: a click on the heading's text (a
card's or a list's title, a board's name) swaps the text for a text box holding it, selected, so the
user changes a letter or retypes it. The box is the name's edit form; it has no `<form>`, no field name
and no address, so the form oracle's comparison with the record's page never reads it. What it should
hold is what the click was made on: the heading's text just before the click (`FetchedPage.clicked_from`).
A box that starts empty there dropped the value it edits — confirming it blank is refused or renames
the record to nothing (corpus ho29_tasksmd: the opened card's name box started from the last draft).

Read only when the click's own label is the heading's whole text (the click was on the name, not on a
"Rename" button of the heading's bar, which may open a blank box for a new name), the heading held no
box before and holds a text box after, and the name no longer shows in any heading: the text was
swapped for the box. Applies to every family with titles edited in place: Kanban boards and task
lists, wikis' and notes' inline titles, dashboards' widget names, spreadsheets' sheet tabs.
"""

from __future__ import annotations

from bughunt.dom import Node
from bughunt.oracles.base import Finding, evidence, page_shape
from bughunt.oracles.filter_rows import box_value
from bughunt.oracles.server_error import error_key
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts

MESSAGE = "a heading edited in place draws its text box empty, not the name it was clicked on"
HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_TEXT_TYPES = frozenset({"", "text"})


def _said(node: Node) -> str:
    return " ".join(node.text().split())


def _text_box(node: Node) -> bool:
    return node.tag == "textarea" or (node.tag == "input" and node.get("type", "").lower() in _TEXT_TYPES)


def _headings(page: FetchedPage) -> list[Node]:
    return tree_facts(page).tagged(*HEADINGS)


def check_heading_rename(page: FetchedPage) -> list[Finding]:
    """The finding for a click state whose heading, clicked on its name, now holds an empty text box."""
    if page.clicked_from is None or not page.is_html:
        return []
    before, label = page.clicked_from
    name = " ".join(label.split())
    if not any(ch.isalpha() for ch in name):
        return []
    named = [h for h in _headings(before) if _said(h) == name and not any(_text_box(n) for n in h.iter())]
    if not named:
        return []
    levels = {h.tag for h in named}
    after = _headings(page)
    if any(_said(h) == name for h in after):
        return []  # the name is still shown: no box took its place
    for heading in after:
        if heading.tag not in levels:
            continue
        boxes = [n for n in heading.iter() if _text_box(n)]
        if len(boxes) == 1 and box_value(boxes[0]) in ("", None):
            return [
                Finding(
                    "form_drops_value",
                    page.route,
                    MESSAGE,
                    evidence(
                        page,
                        "<" + heading.tag,
                        field=heading.tag,
                        shown=name,
                        # one template's heading (its place: tags and classes up the tree) on every
                        # record's page that template draws — each card's own address is no template
                        # of the others' (`/Alpha.md/`, `/Beta.md/`: first segments, never joined)
                        form_key=error_key("heading " + heading.path()),
                    ),
                    shape=page_shape(page),
                )
            ]
    return []
