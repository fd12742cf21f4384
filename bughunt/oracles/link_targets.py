"""Elements that lead to another URL without a form: links, and HTMX/data-href buttons. Moved whole
from `lists.py` (which re-exports `targets`)."""

from __future__ import annotations

from functools import lru_cache

from bughunt.dom import Node

_URL_ATTRS = ("href", "hx-get", "data-hx-get", "data-href", "data-url")


@lru_cache(maxsize=16)
def targets(doc: Node) -> list[tuple[Node, str]]:
    """Elements that lead to another URL without a form: links, and HTMX/data-href buttons. Cached per
    element (nodes hash by identity; read-only for callers): several oracles ask for one page's."""
    out = []
    for node in doc.iter():
        attrs = node.attrs
        # most elements: no attribute, or not one of these tags (a loop per element, not a generator)
        if not attrs or node.tag not in _TARGET_TAGS:
            continue
        for name in _URL_ATTRS:
            href = attrs.get(name)
            if href:
                if node.tag in ("a", "link") or not attrs.get("href"):
                    out.append((node, href))
                break
    return out


_TARGET_TAGS = frozenset(("a", "link", "button", "li", "span", "div", "option"))
