"""A form's own controls that do not submit it: its toggles, switches, tabs, folded sections and the
buttons that open its helper dialogs.

Their click changes what the form would send and nothing on the server, and the same form drawn for
another record (an edit page per record, its clone page) holds the same controls saying the same. On
Uptime Kuma 43 of 100 clicks went to the toggles and dialog buttons of one monitor form after another
(`/edit/1`, `/clone/1`, `/edit/28`, …); on PocketBase a settings form's folded sections and their
fields took the budget two to six clicks deep. So:

- a click in place on such a control teaches its shape and what it says (`idle_controls`,
  `form_field`): the same control of the same form on another page is no way onward — it was seen
  once (what it reveals, and the view it opens, are walked from where it was first clicked);
- a folded section of a form is the form's, not a group of content whose controls are a state's own
  (`state_controls.opened_group`), and so are the fields a group opened shows (`form_controls`,
  `facts._view_controls`: a settings page's accordion outside the form it unfolds); a control in a form
  redrawn with another value is the load's (`state_controls.listed_controls`).

Stated on what HTML says a form is (`<form>`, its submit buttons): admin panels, settings pages,
record editors of every family. A submit, a control whose write the browser's gate refused (it
acted), and one that says it destroys (`destructive_label`: judged by its own oracle) are not these.
"""

from __future__ import annotations

from bughunt.actions import page_clicks
from bughunt.dom import Node
from bughunt.focus_controls import control_label
from bughunt.form_owner import submits
from bughunt.oracles.destructive_words import destructive_label
from bughunt.page import FetchedPage


def in_form(node: Node) -> bool:
    """Is `node` inside a `<form>`."""
    return any(a.tag == "form" for a in node.ancestors())


def form_controls(page: FetchedPage) -> frozenset[str]:
    """The selectors of the controls of `page` inside a `<form>`."""
    walked = page_clicks(page)
    return frozenset(walked.selectors.of(n) for n in walked.clickables if in_form(n))


def form_toggle(page: FetchedPage, selector: str) -> bool:
    """Is the control at `selector` of `page` one of a form's own that does not submit it (nor says it
    destroys: a row's "Remove" in a form's table is judged by what it asks first)."""
    walked = page_clicks(page)
    for node in walked.clickables:
        if walked.selectors.of(node) == selector:
            return in_form(node) and not submits(node) and not destructive_label(control_label(node))
    return False
