"""Which of a form's buttons is the form's own write, and which is a script's control that sits in it.

A button of a form submits it unless it says otherwise (`type="button"`, or `reset`): the submit button
is the form's write, which the form oracles judge. A `type="button"` in a form submits nothing; its
click handler acts on its own — a single-page admin's edit form carries its record's Delete so, in the
form's toolbar beside Save (react-admin, Django-admin SPA ports, Vue and Angular CRUD forms). Such a
control is a script's control like one outside any form: clicked, the write it sends is refused and
judged (`destructive._judge_clicked`), and a confirmation dialog it opens instead is the clean answer.
"""

from __future__ import annotations

from bughunt.dom import Node
from bughunt.form_owner import submits

from .form_toggles import in_form


def in_a_dialog(node: Node) -> bool:
    """Whether `node` sits in a dialog: its buttons are the confirmation itself."""
    return any(
        a.tag == "dialog" or a.get("role") in ("dialog", "alertdialog") for a in (node, *node.ancestors())
    )


def writes_a_form(node: Node) -> bool:
    """Whether `node` is a form's submission (inside a form, submitting it)."""
    return submits(node) and in_form(node)
