"""Which of a page's script controls the browser engine offers as clicks (`BrowserEngine.actions`).

Every clickable element the page's links do not already lead to, but: never a "Log out", a destructive
control only where its click shows whether it asks first (`avoided`); a state's own controls first
(`state_controls.own_first`); a grid row's cells as one control (`grid_rows.one_per_row`); a few copies of
a control repeated in every item of a list (`alike_controls`); at most `MAX_CLICKS_PER_PAGE` in document
order — past it only a labelled Delete (an opened menu's layer comes last in the document) and the
first row of each grid (`grid_rows.first_rows`: a selection is what enables a toolkit's details tabs
and toolbar buttons, and the grid comes after the page's chrome).
"""

from __future__ import annotations

import re

from bughunt.actions import Action, PageClicks
from bughunt.dom import Node
from bughunt.focus_controls import control_label
from bughunt.log_out import LOG_OUT
from bughunt.oracles.destructive_words import destructive_label
from bughunt.page import FetchedPage

from .alike_controls import alike_groups, alike_sample
from .form_buttons import in_a_dialog, writes_a_form
from .grid_rows import first_rows, one_per_row
from .state_controls import own_first

MAX_CLICKS_PER_PAGE = 15

# Clicks are judged by their label (there is no route to match DEFAULT_AVOID against).
_DESTROYS = re.compile(r"(?i)\b(delete|destroy|remove|unsubscribe)\b")


def avoided(node: Node, label: str) -> bool:
    """A "Log out" is never clicked: it ends the session, which a script may keep in the page. A
    destructive control is clicked only where its click shows whether it asks first: a script's
    control whose label says what it does ("Delete item"), outside any dialog and no form's submit —
    the write it sends is refused (`_guard`) and judged (`destructive._judge_clicked`). A dialog's
    button is the confirmation itself, a form's submit the form's write; an unlabelled one (`onclick="remove(3)"`) says
    nothing the oracle could judge."""
    said = f"{label} {node.get('onclick')}"
    if LOG_OUT.search(said):
        return True
    if not _DESTROYS.search(said):
        return False
    # A form's `type="button"` is the script's, not the form's write (`form_buttons`).
    return not destructive_label(label) or in_a_dialog(node) or writes_a_form(node)


def offered_clicks(page: FetchedPage, walked: PageClicks, known: set[str]) -> list[Action]:
    """The click actions `page` offers among `walked.clickables` (`known`: selectors offered already,
    as links or clicks; those taken here are added)."""
    candidates: dict[str, tuple[Node, str]] = {}  # selector → its element and label
    for node in walked.clickables:
        selector = walked.selectors.of(node)
        label = control_label(node)
        if selector not in known and selector not in candidates and not avoided(node, label):
            candidates[selector] = (node, label)
    candidates = own_first(candidates, page)  # a state's own before what the page before offered
    candidates = one_per_row(candidates)
    # The same control repeated in every item of a list (a favourite button per preview)
    # differs only in its positions: a few of them show what the control does, more are the
    # same state again, each one a click of the budget (`alike_sample`).
    groups = alike_groups({selector: node for selector, (node, _) in candidates.items()})
    sampled = [n for group in groups for n in alike_sample(group)]
    chosen = {id(n) for n in sampled}
    past_cap = first_rows(groups, sampled)
    clicks: list[Action] = []
    for selector, (node, label) in candidates.items():
        if id(node) not in chosen:
            continue
        if len(clicks) >= MAX_CLICKS_PER_PAGE and not _past_cap(node, label, past_cap):
            continue
        known.add(selector)
        clicks.append(Action("click", page.url, label, selector))
    return clicks


def _past_cap(node: Node, label: str, rows: set[int]) -> bool:
    """Taken past the cap: a Delete (an opened menu's layer comes last in the document, after every
    row's buttons, and whether its Delete asks first is a bug), a grid's first row."""
    return bool(destructive_label(label)) or id(node) in rows
