"""A document that says it is replaced at once: `<meta http-equiv="refresh" content="0">`, to itself or
to another address. Such a page is on its way out when it is read: PHP and CGI apps answer a saved form
with one ("Redirecting…"), a job page of Trac or Jenkins refreshes itself while the work runs, and a
hostile page refreshes itself for ever. What a user sees is the document that replaces it, so the
browser engine reads that one (and abandons a page that keeps replacing itself) instead of trusting
a read that landed between two loads."""

from __future__ import annotations

import re

from bughunt.dom import parse_html

_HEAD_BYTES = 65_536
"""A refresh is declared in the document's head; a page's first bytes hold it."""
_DECLARED = re.compile(r"http-equiv\s*=\s*[\"']?refresh", re.IGNORECASE)
_DELAY = re.compile(r"\s*(\d+)")


def replaced_at_once(html: str) -> bool:
    """Whether the document declares a refresh with no delay (the integer part of its `content` is
    0, as the HTML standard reads it). One inside `<noscript>` does not count: a browser running
    scripts never follows it."""
    head = html[:_HEAD_BYTES]
    if not _DECLARED.search(head):
        return False
    for meta in parse_html(head).find_all("meta"):
        if meta.get("http-equiv").strip().lower() != "refresh":
            continue
        delay = _DELAY.match(meta.get("content"))
        if (
            delay is not None
            and int(delay.group(1)) == 0
            and all(a.tag != "noscript" for a in meta.ancestors())
        ):
            return True
    return False
