"""One widget of a single-page app's views: the same failure in two views is one component's.

A single-page app draws every view of its document with its own components: the edit form of each
collection (`/admin#/album/1`, `/admin#/artist/10`) is one generic form, and a box drawn the same way
in both (the same tag and classes: one widget component) that fails the same way in both fails by that
component's code — one bug, whichever collection shows it (react-admin's inputs, Vue and Angular form
kits); so is one list footer's "1-10 of N" wrong over the filtered rows of two collections (the one
list component, over the one data provider). Pages at paths of their own (server-rendered forms, each a template) are not judged so: two
templates' boxes may look alike and be two handlers' bugs. `widget_key` is a fact the explorer joins
on any route (`inspection._ANY_ROUTE`).
"""

from __future__ import annotations

from collections.abc import Iterable

from bughunt.dom import Node
from bughunt.oracles.server_error import error_key


def hash_routed(url: str) -> str | None:
    """The document's path of a hash-routed view (`http://x/admin#/album/1` → `/admin`), else None."""
    base, mark, fragment = url.partition("#")
    if not mark or not fragment.lstrip("!").startswith("/"):
        return None
    path = base.split("://", 1)[-1].partition("/")[2].partition("?")[0]
    return "/" + path


def widget_key(url: str, widgets: Iterable[Node]) -> int | None:
    """A number naming the widgets (tag and sorted classes) on a hash-routed view's document, or None
    for a page at a path of its own or no widget."""
    document = hash_routed(url)
    drawn = sorted({f"{w.tag}.{'.'.join(sorted(w.classes))}" for w in widgets})
    if document is None or not drawn:
        return None
    return error_key(f"{document} | {' '.join(drawn)}")
