"""Which controls of a click state are its own: made on the state (replayed after the clicks that
reached it) rather than on the page's fresh load.

A click state's clicks are made again on the page it was clicked on, so a control the fresh load shows
too is offered from there (`facts.read_page`). "Shows too" was said by the control's selector alone:
but a single-page app draws each view into the same markup — a Knockout `foreach` re-rendered from
JSON, a React list of another folder, a wiki's story river — so the Archive's first mail sits where
the Inbox's first mail sat, under the same selector, and was taken for it: it was never opened (its
click state's route was the Inbox row's). A control is the same only when it also says the same
(`control_key`: its label, whitespace and case aside, digits masked — a count badge that changed is
the same control); another control in that place is made on the state.

And a control the fresh load does not show at all was offered only from a state that opened a *view*
(a new heading, `view_states`): a template swapped in place without a heading — a list's "Detailed"
layout whose rows carry a "Preview" action, a tab drawn without a title — kept its controls from
every walk. A state that shows new content besides controls (`shows_new_content`: words outside any
action's label the state before did not show) offers its new controls too; a menu or a dropdown opened
shows only controls, and stays as it was (its items are the page's chrome, clicked from the load).
The new words must be in the items of a list that stands where a list stood on the state before (a
list's template swapped): a panel, a dialog without a heading or a form's section opened shows new
words too — its fields' labels — and offering every control it holds, then every control those
clicks showed, spent a budget's half on a settings page's toggles (PocketBase, session 31). A folded
group opened inside a form (`opened_group`, `in_form`) is the form's too: its fields change what the
form would send, nothing on the server.

A state's own controls come first in the page's cap of clicks (`own_first`): a wiki that opens a
tiddler at the top of its story river keeps its sidebar's dozen buttons before it in the document, and
the cap (`offered_clicks.MAX_CLICKS_PER_PAGE`) spent itself on those — the same clicks the page before
offered, already known — before the opened tiddler's toolbar.

Stated on what single-page apps do (widget frameworks, Knockout/Backbone/Ember/React/Vue lists and
templates, wikis); bounded like every state's clicks (`MAX_CLICKS_PER_PAGE`, two copies of one shape,
`graph.MAX_CHAIN` clicks from the load).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bughunt.actions import Action, page_clicks
from bughunt.disclosures import closed_disclosure, nested_control
from bughunt.dom import Node
from bughunt.focus_controls import control_label
from bughunt.oracles.lists import item_runs
from bughunt.page import FetchedPage

from .form_toggles import in_form

_DIGITS = re.compile(r"\d+")
MAX_KEY_CHARS = 120


def control_key(label: str) -> str:
    """What a control says, as compared between two states: case and whitespace aside, digits masked."""
    return _DIGITS.sub("0", " ".join(label.lower().split()))[:MAX_KEY_CHARS]


def shows_new_content(page: FetchedPage, actions: Iterable[Action]) -> bool:
    """Did the click that made `page` in place (`clicked_from`) draw a list the state it was clicked on
    showed in another template: words that state did not show, outside the labels of the page's
    actions, inside the items of a list that stands where one stood before (`swapped_items`). Content,
    not only a menu's items; a list's template, not a panel, a dialog or a form's section opened."""
    if page.clicked_from is None:
        return False
    new = set(page.visible_text.split()) - set(page.clicked_from[0].visible_text.split())
    if not new:
        return False
    for action in actions:
        new.difference_update(action.label.split())
        if not new:
            return False
    return any(new.intersection(item.text().split()) for item in swapped_items(page))


def swapped_items(page: FetchedPage) -> list[Node]:
    """The items of the lists of `page` whose container stands where a list of the state it was clicked
    on stood (its place, `_placed`): the rows a template swapped in place redrew."""
    if page.clicked_from is None:
        return []
    before = page.clicked_from[0]
    places = page_clicks(before).selectors
    stood = {_placed(places.of(container)) for container, _, _ in item_runs(before.document)}
    here = page_clicks(page).selectors
    return [
        item
        for container, _, run in item_runs(page.document)
        if _placed(here.of(container)) in stood
        for item in run
    ]


def listed_controls(page: FetchedPage) -> frozenset[str]:
    """The selectors of the controls of `page` that sit in an item of one of its lists, outside any
    form: where a script redraws another folder's, filter's or section's records in place (the
    Archive's first mail where the Inbox's was), so one in the place of the fresh load's that says
    something else is another record (`facts.read_page`). A form's field redrawn, a code block that
    copies what it shows, are the same control showing other values."""
    walked = page_clicks(page)
    items = {id(item) for _, _, run in item_runs(page.document) for item in run}
    return frozenset(
        walked.selectors.of(n)
        for n in walked.clickables
        if not in_form(n) and (id(n) in items or any(id(a) in items for a in n.ancestors()))
    )


def opened_group(page: FetchedPage, selector: str) -> bool:
    """Was the click that made `page` in place (`selector`, on the state before it) one that opens a
    folded group (`disclosures`): what the group shows now — a closed details' buttons, a tree's
    children — is this state's, hidden or not drawn on the state before."""
    if page.clicked_from is None:
        return False
    before = page_clicks(page.clicked_from[0])
    return any(
        before.selectors.of(n) == selector and (closed_disclosure(n) or nested_control(n)) and not in_form(n)
        for n in before.clickables
    )


def _placed(selector: str) -> str:
    """A selector compared across two states: an element that gained a sibling (a tiddler opened
    beside the one shown) is `div:nth-of-type(1)` where it was `div`."""
    return selector.replace(":nth-of-type(1)", "")


def own_first(candidates: dict[str, tuple[Node, str]], page: FetchedPage) -> dict[str, tuple[Node, str]]:
    """`candidates` (selector → element and label, in document order) of a click state, those the
    state before did not offer (in that place, saying that: `control_key`) first, each part in order."""
    if page.clicked_from is None:
        return candidates
    before = page_clicks(page.clicked_from[0])
    offered = {(_placed(before.selectors.of(n)), control_key(control_label(n))) for n in before.clickables}
    own = {s: c for s, c in candidates.items() if (_placed(s), control_key(c[1])) not in offered}
    return {**own, **{s: c for s, c in candidates.items() if s not in own}}
