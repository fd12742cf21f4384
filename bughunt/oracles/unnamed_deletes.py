"""A control with no words whose click sent, at once, an HTTP DELETE of a record the page links to.

An icon button (a bin drawn as a bare SVG path, no text, no `aria-label`) says nothing a label oracle
can read; what its click sent does. `DELETE /api/lists/<id>` names the record it destroys, and when the
page it was clicked on links to that record's own page (`/lists/<id>`: the row or card the icon sits
in), the click destroyed a record of the page with nothing asked — what a confirmation step is for.
A DELETE of something the page links to no page of (a line of a basket, a comment, a chip's tag) is an
item edited in place, which apps undo rather than confirm: not read. A control with words is judged on
its words (`destructive_words.destructive_label`).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from bughunt.fingerprint import IDENTIFIERS, segment_shape
from bughunt.oracles.destructive_words import words_of
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts


def _identifiers(path: str) -> set[str]:
    """The path's segments that name one record (a number, a uuid, a hex id)."""
    return {s for s in path.split("/") if s and segment_shape(s) in IDENTIFIERS}


def _linked_records(page: FetchedPage) -> set[str]:
    """The record identifiers in the paths of the page's links."""
    found: set[str] = set()
    for link in tree_facts(page).tagged("a"):
        href = link.get("href")
        if href and not href.startswith(("#", "javascript:", "mailto:")):
            found |= _identifiers(urlsplit(href).path)
    return found


def unnamed_delete(label: str, writes: tuple[str, ...], before: FetchedPage) -> str | None:
    """The write (`"DELETE /api/lists/7"`) by which a wordless control's click (`label`, on `before`)
    deleted a record `before` links to, else None."""
    if words_of(label):
        return None
    deletes = [w for w in writes if w.startswith("DELETE ")]
    if not deletes:
        return None
    linked = _linked_records(before)
    return next((w for w in deletes if _identifiers(w.partition(" ")[2].split("?", 1)[0]) & linked), None)
