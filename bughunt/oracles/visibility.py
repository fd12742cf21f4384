"""What a page shows and what it only carries: a layout's closed dialogs (an error modal ready for its
scripts on every page), `hidden` blocks, `aria-hidden` ones. What nobody sees is not what the page
says — its heading is not the page's, its dialog is not open."""

from __future__ import annotations

import re

from bughunt.actions import HIDDEN_MARK
from bughunt.dom import Node

_NO_DISPLAY = re.compile(r"(?:^|;)\s*display\s*:\s*none\b", re.I)


def unseen(node: Node) -> bool:
    """Is `node` inside something the page does not show: `hidden`, `aria-hidden="true"`, an inline
    `display: none`, a `<dialog>` not open, or what the browser engine's read found without a box
    (`HIDDEN_MARK`: a closed modal)."""
    for el in (node, *node.ancestors()):
        attrs = el.attrs
        if "hidden" in attrs or HIDDEN_MARK in attrs or attrs.get("aria-hidden", "").lower() == "true":
            return True
        if _NO_DISPLAY.search(attrs.get("style", "")):
            return True
        if el.tag == "dialog" and "open" not in attrs:
            return True
    return False
