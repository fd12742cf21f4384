"""A list's previous page read from what the page's links do, whatever the pager's key is called.

The named readings (`reading.is_page_key`, `is_offset_key`, `is_cursor_key`) know a pager by the name of
its query key: each app met with another name (`?p=`, `@startwith`, `_next`) added a word. This reading
needs no name. A page whose URL carries a whole number N ≥ 2 under some query key K is page N of a
list when the page itself links two or more other pages of the same route that differ from its own
URL in K's value alone (or lack K: the list's first page) — and at least one of those links is
written as the page it opens (its text is the number it puts in K, "3"), or they lead both ways
(N-1 and N+1) with no number in their words (a pager of words or icons in any language). The page
before is then the link with N-1, or the route without K when N is 2. Whether it is a page of the
same list is then the oracle's to see: a list at the same place, of the same item shape, mostly
other items.

A box of links to neighbouring records (`?id=92` and `?id=94` on `?id=93`, labelled "Shelf 92") is not
read as a pager: its links are written as names holding other numbers, not as the number they
change. A record page's "‹ Previous" / "Next ›" between records by `?id=` is read as one: its lists
(comments, attachments) are other records' and share no items, or are the same furniture on both
(`pagination.NEARLY_SAME`). Applies to any family with a numbered pager: server
templates of every language, htmx pagers, admin lists whose pager key is the framework's own.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from bughunt.dom import Node
from bughunt.oracles.lists import targets
from bughunt.oracles.reading import resolve
from bughunt.page import FetchedPage, base_url
from bughunt.sim.route_keys import query_pairs

_WHOLE = re.compile(r"^\d{1,6}$")
_DIGIT = re.compile(r"\d")


def _pairs(url: str) -> tuple[str, list[tuple[str, str]]]:
    parts = urlsplit(url)
    return parts.path, query_pairs(parts.query, decoded=True)


def _siblings(page: FetchedPage, key: str) -> list[tuple[str, str | None, str, Node]]:
    """The page's links to its own route with only `key`'s value changed or `key` left out, as
    (url, value or None, the link's words, the link)."""
    path, pairs = _pairs(page.url)
    rest = sorted(p for p in pairs if p[0] != key)
    base = base_url(page)
    found: list[tuple[str, str | None, str, Node]] = []
    for node, href in targets(page.document):
        url = resolve(base, href)
        if url is None or url == page.url or urlsplit(url).netloc != urlsplit(page.url).netloc:
            continue
        there_path, there_pairs = _pairs(url)
        if there_path != path or sorted(p for p in there_pairs if p[0] != key) != rest:
            continue
        values = [v for k, v in there_pairs if k == key]
        if len(values) > 1:
            continue
        found.append((url, values[0] if values else None, " ".join(node.text().split()), node))
    return found


_PAGER_WORDS = frozenset(
    {"page", "pages", "of", "first", "last", "prev", "previous", "next", "older", "newer", "more", "go", "to"}
)
_LETTER_WORD = re.compile(r"[^\W\d_]{2,}")
MAX_PAGER_WORDS = 3
"""Words other than a pager's own around a link written as a number, beyond which the link is a
record's (a table row's "60" beside the ticket's subject, queue and owner), not a page's."""


def in_record_row(link: Node) -> bool:
    """Whether a link written as a number stands in a row of words: the nearest ancestor holding more
    than the link (a table row, a list item, a pager) holds more than `MAX_PAGER_WORDS` words that are
    not a pager's ("Page", "of", "Next" — or a pager's words in another language, a few at most). A
    ticket list's `#60` link to `?id=60` is a record's name, not page 60 of the ticket page it is on."""
    own = link.text()
    for node in link.ancestors():
        text = node.text()
        if text.strip() == own.strip():
            continue
        words = [w for w in _LETTER_WORD.findall(text.lower()) if w not in _PAGER_WORDS]
        return len(words) > MAX_PAGER_WORDS
    return False


_BACK_WORDS = re.compile(r"^[^\w\s]*\s*(?:prev|previous|newer|more\s+recent)\b[\w\s]{0,20}[^\w\s]*$", re.I)
"""A control that says in words it goes back in the list: "‹ Previous", "↑ Newer...", "« newer posts"."""


def _back_in_words(siblings: list[tuple[str, str | None, str, Node]], here: int) -> str | None:
    """The sibling link that says it goes back ("↑ Newer...", "‹ Previous") to a lower value of the
    key, or to the route without it (the list's first page)."""
    for url, v, text, _ in siblings:
        if _BACK_WORDS.match(text) and (v is None or (_WHOLE.match(v.strip()) and int(v) < here)):
            return url
    return None


def previous_by_shape(page: FetchedPage) -> str | None:
    """The page before this one when its own links page the list by a query key of any name (see the
    module's docstring), else None. A key counting rows (an offset of any name, `?x=24`) pages by
    numbers no link is written as, and a page near a list's end may link one way only: there the
    page's own control back, saying so in words ("↑ Newer...", "‹ Previous"), to the same route with
    the key lower or left out, is the page before."""
    _, pairs = _pairs(page.url)
    for key, value in pairs:
        if not _WHOLE.match(value.strip()) or int(value) < 1:
            continue
        here = int(value)
        siblings = _siblings(page, key)
        if (back := _back_in_words(siblings, here)) is not None:
            return back
        if here < 2:
            continue
        if len({url for url, _, _, _ in siblings}) < 2:
            continue
        numbers = {int(v) if v is not None and _WHOLE.match(v.strip()) else None for _, v, _, _ in siblings}
        written = any(
            v is not None and text == v.strip() and not in_record_row(node) for _, v, text, node in siblings
        )
        both_ways = (here - 1 in numbers or (here == 2 and None in numbers)) and here + 1 in numbers
        # a way back and a way on labelled with other numbers ("Shelf 92", "Shelf 94") name records
        both_ways = both_ways and not any(_DIGIT.search(text) for _, _, text, _ in siblings)
        if not (written or both_ways):
            continue
        for url, v, _, _ in siblings:
            if v is not None and _WHOLE.match(v.strip()) and int(v) == here - 1:
                return url
        if here == 2:
            return next((url for url, v, _, _ in siblings if v is None), None)
    return None
