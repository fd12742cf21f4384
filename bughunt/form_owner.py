"""A form's submit buttons, the ones outside it too: HTML associates a button with a form by its
`form` attribute (`<button type="submit" form="record_x1">` in a side panel's footer, the form in the
panel's body), and such a button submits that form as if it were inside. A form read for its own
submit buttons alone looked like no form that writes (a Svelte dashboard's record panel: its Save
button sits in the footer), and its fields were never compared with the record they edit.
"""

from __future__ import annotations

from bughunt.dom import Node


def _submit(node: Node) -> bool:
    kind = node.get("type", "submit").lower() if node.tag == "button" else node.get("type").lower()
    return node.tag in ("button", "input") and kind == "submit"


def submit_buttons(form: Node) -> list[Node]:
    """The submit buttons of `form`: inside it (unless they name another form), then elsewhere in the
    document naming its id in their `form` attribute."""
    ident = form.get("id")
    own = [n for n in form.iter() if _submit(n) and n.get("form") in ("", ident)]
    if not ident:
        return own
    root = next(iter(reversed(list(form.ancestors()))), form)  # the document
    inside = {id(n) for n in own}
    return own + [n for n in root.iter() if n.get("form") == ident and _submit(n) and id(n) not in inside]
