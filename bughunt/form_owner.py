"""A form's submit buttons, the ones outside it too: HTML associates a button with a form by its
`form` attribute (`<button type="submit" form="record_x1">` in a side panel's footer, the form in the
panel's body), and such a button submits that form as if it were inside. A form read for its own
submit buttons alone looked like no form that writes (a Svelte dashboard's record panel: its Save
button sits in the footer), and its fields were never compared with the record they edit.

A form a script sends need not have a submit button at all: its last control is a plain button
(`type="button"`) whose click handler posts the fields through the app's API (Angular's
`(click)="submitForm()"`, Vue's `@click`, a React `onClick`) — `script_send_button`.
"""

from __future__ import annotations

from bughunt.dom import Node

_TEXT_FIELDS = frozenset({"input", "textarea", "select"})


def submits(node: Node) -> bool:
    """Whether `node` is a submit control (a button without a type or of type submit, an `input` of
    type submit or image): any other control in a form is a script's."""
    kind = node.get("type", "").lower()
    if node.tag == "button":
        return kind in ("", "submit")
    if node.tag == "input":
        return kind in ("submit", "image")
    return False


def submit_buttons(form: Node) -> list[Node]:
    """The submit buttons of `form`: inside it (unless they name another form), then elsewhere in the
    document naming its id in their `form` attribute."""
    ident = form.get("id")
    own = [n for n in form.iter() if submits(n) and n.get("form") in ("", ident)]
    if not ident:
        return own
    root = next(iter(reversed(list(form.ancestors()))), form)  # the document
    inside = {id(n) for n in own}
    return own + [n for n in root.iter() if n.get("form") == ident and submits(n) and id(n) not in inside]


def script_send_button(form: Node) -> Node | None:
    """The plain button (`type="button"`) that sends a form with no submit button by script: the
    form's last button, after every one of its fields in document order, with words of its own, and
    not beside a field (a widget's "Add" or "Show" sits in its field's wrapper, next to the input).
    None when the form has a submit button or no such button."""
    if submit_buttons(form):
        return None
    last: Node | None = None
    for node in form.iter():
        if node.tag in _TEXT_FIELDS and node.get("type", "").lower() != "hidden":
            last = None  # a field after the button: the button was a widget's, not the form's send
        elif node.tag == "button" and node.get("type", "").lower() == "button":
            last = node
    if last is None or not last.text().strip() or last.parent is None:
        return None
    beside_field = any(c.tag in _TEXT_FIELDS for c in last.parent.elements)
    return None if beside_field else last
