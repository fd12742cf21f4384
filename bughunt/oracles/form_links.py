"""An edit form's empty address field whose record, in a list, links off-site.

A record that stores an address (a receipt's link, a bookmark's URL, a contact's web site) shows it in
its list row as a link to that address — often under a word of the site's ("show", an icon), never
its own text, so no label or position names it (`form_values.shown_value`, `form_positions`). When the
form's only empty address field (an `<input type=url>`, or a field keyed as a URL, link or web site)
belongs to a record whose row links to exactly one page of another site that no other row of its list
links to, that address is the stored value the form dropped. A link the list's rows share (a "share
on …" button, the project's home) is the site's, not the record's; a row that stores no address shows
none, so its empty field is right.
"""

from __future__ import annotations

import re

from bughunt.dom import Node
from bughunt.oracles.reading import resolve
from bughunt.urls import same_origin

_ADDRESS_KEY = re.compile(r"(?:url|link|website|homepage|webpage)$")
"""A field's key (`form_fields.key`: `external_link` → `externallink`) naming an address."""


def _address_field(node: Node, keys: set[str]) -> bool:
    if node.tag != "input":
        return False
    kind = node.get("type").lower()
    return kind == "url" or (kind in ("", "text") and any(_ADDRESS_KEY.search(k) for k in keys))


def _offsite(node: Node, base: str) -> set[str]:
    """The pages of other sites `node` links to."""
    out = set()
    for a in node.find_all("a"):
        url = resolve(base, a.get("href")) if a.get("href") else None
        if url and url.startswith(("http://", "https://")) and not same_origin(url, base):
            out.add(url)
    return out


def dropped_address(
    fields: list[tuple[Node, str, str, set[str], bool]], row: Node, base: str, found: set[str]
) -> list[tuple[str, str]]:
    """[(field name, address)] when the form's one empty visible address field belongs to a record
    whose list row (`row`, resolved against `base`) links off-site to one address of its own."""
    empty = [
        name
        for node, name, value, keys, visible in fields
        if not value and visible and name not in found and _address_field(node, keys)
    ]
    if len(empty) != 1 or row.parent is None:
        return []
    others: set[str] = set()
    for sibling in row.parent.elements:
        if sibling is not row and sibling.tag == row.tag:
            others |= _offsite(sibling, base)
    own = _offsite(row, base) - others
    return [(empty[0], own.pop())] if len(own) == 1 else []
