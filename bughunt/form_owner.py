"""A form's submit buttons, the ones outside it too: HTML associates a button with a form by its
`form` attribute (`<button type="submit" form="record_x1">` in a side panel's footer, the form in the
panel's body), and such a button submits that form as if it were inside. A form read for its own
submit buttons alone looked like no form that writes (a Svelte dashboard's record panel: its Save
button sits in the footer), and its fields were never compared with the record they edit.
"""

from __future__ import annotations

from bughunt.dom import Node


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
