"""How a browser encodes a form it submits (HTML's form submission algorithm): as the `enctype` of the
form, or the `formenctype` of the button that submits it, says — `multipart/form-data`, or, for every
other value and none, `application/x-www-form-urlencoded`.

Why it matters: some servers read a form only in the encoding its page declared. A React Server
Components form action (Next.js App Router, Waku, React Router's RSC mode) is posted without scripts as
`multipart/form-data`, and Next.js ignores an URL-encoded post to the page (it renders the page again:
a login "refused" with the right password). An Express handler behind multer's `upload.none()`, the
usual parser of a form declared multipart, leaves an URL-encoded body unread the same way.
"""

from __future__ import annotations

from bughunt.dom import Node

MULTIPART = "multipart/form-data"


def default_button(form: Node) -> Node | None:
    """The form's default button (HTML: its first submit button in tree order), which Enter in a
    field presses: its `formenctype`, when it has one, is the submission's encoding."""
    for node in form.iter():
        kind = node.get("type").strip().lower()
        # a <button> of no type, or of a type HTML does not know, is a submit button
        if (node.tag == "button" and kind not in ("reset", "button")) or (
            node.tag == "input" and kind in ("submit", "image")
        ):
            return node
    return None


def is_multipart(form: Node, button: Node | None = None) -> bool:
    """The form, submitted by `button` (whose `formenctype` overrides the form's `enctype`), is sent as
    `multipart/form-data`; the value is ASCII case-insensitive, as HTML's enumerated attributes are."""
    declared = (button.get("formenctype") if button is not None else "") or form.get("enctype")
    return declared.strip().lower() == MULTIPART
