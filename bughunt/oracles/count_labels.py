"""Reading counts off a page: a label's text (`Label (N)`, `Label [N]`, `N label`, `Total: N`), a
range line's ("1 to 10 of 37"), and the innermost elements of a page that say one.

Durations ("3 min read") are not counts. Moved whole from `counts.py` (which re-exports the public
names).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from bughunt.dom import Node
from bughunt.oracles.reading import KEPT
from bughunt.page import FetchedPage, tree_reading
from bughunt.tree_facts import tree_facts

_BRACKETED = re.compile(
    r"^(?P<label>[^\d()\[\]]{2,50}?)\s*[\(\[]\s*(?P<n>\d{1,6})\s*[\)\]]"
    r"(?:\s+(?:for|matching)\s+[^()\[\]]{1,60})?$",
    re.I,
)
"""`Label (N)`, and a search's `Results (N) for <words>`: what the count is of, said after it."""


_BARE = re.compile(
    r"^[\(\[]\s*(?P<n>\d{1,6})\s+(?P<label>matches|match|results?|items?|entries|entry|rows?|records?)\s*[\)\]]$",
    re.I,
)
"""`(12 matches)`: a count in brackets that says itself what it counts, beside a heading it qualifies."""


_LEADING = re.compile(r"^(?P<n>\d{1,6})\s+(?P<label>[^\d()\[\]]{2,50})$")


_PAGE_OF = re.compile(
    r"^page\s+\d{1,6}\s+of\s+(?P<n>\d{1,6})\s+(?P<label>matches|results?|items?|entries|records?|rows?)$",
    re.I,
)
"""`Page 1 of 7 results`: the page a search is on, and how many results it has — the count is of the
word after it ("Page 1 of 3", no such word, counts pages, not items)."""


# "Record Count: 70", "Total: 12": a colon before the number says it counts only with a word that
# counts — "Age: 34" or "Year: 2020" is a fact of the page, not the length of a list.
_COLON = re.compile(r"^(?P<label>[^\d()\[\]:]{2,50}?)\s*:\s*(?P<n>\d{1,6})$")


_COUNTING = re.compile(r"\b(?:count|total|records|results|items|entries|rows|found|matches)\b", re.I)


NOT_ITEMS = re.compile(
    r"\b(sec|secs|seconds?|min|mins|minutes?|hours?|hrs?|days?|weeks?|months?|years?|ago|read|"
    r"bytes?|octets?|[kmgtp]i?b|"
    r"mm|cm|km|kilomet(?:er|re)s?|met(?:er|re)s?|miles?|mi|kg|kilograms?|grams?|lbs?|pounds?|"
    r"views?|points?|stars?|px|%|per|servings?|portions?)\b",
    re.I,
)
"""Words after a number that make it a measure (a duration, a size in bytes, a length or a weight,
views, a score, a recipe's yield in servings), a rate or a setting ("Rows per page: 5", a table's
page-size menu), not a count of items: "800 bytes" above a file's facts is how big the file is; read
by the count labels and by table feet (`count_feet`)."""


_SELECTION = re.compile(r"\b(?:selected|checked|chosen)\b", re.I)
"""`0 items selected`: a list's bulk-action bar counts the rows ticked, not the rows listed."""


KEPT_CHARS = 200
"""`parse_count` keeps its answers for texts up to this long (a count is at most ~60 characters;
longer texts are asked too, as an element's children, and are parsed each time rather than kept)."""


def parse_count(text: str) -> tuple[str, int] | None:
    """(label, number) of a text that is a count, else None."""
    return _parse_kept(text) if len(text) <= KEPT_CHARS else _parse(text)


@lru_cache(maxsize=KEPT)
def _parse_kept(text: str) -> tuple[str, int] | None:
    # asked of every short text with a digit: an element and its wrappers often share one ("27"
    # in `<li><a>`), and pages repeat them (a pager's numbers, the same badges)
    return _parse(text)


def _parse(text: str) -> tuple[str, int] | None:
    text = " ".join(text.split())
    match = _BRACKETED.match(text) or _LEADING.match(text) or _BARE.match(text) or _PAGE_OF.match(text)
    if match is None and (colon := _COLON.match(text)) and _COUNTING.search(colon.group("label")):
        match = colon
    if not match or NOT_ITEMS.search(match.group("label")) or _SELECTION.search(match.group("label")):
        return None
    return match.group("label").strip(" :-—"), int(match.group("n"))


# "Showing 11 to 20 of 64 items", "1–10 of 57 entries", "Displaying results 1 - 25 of 300": the
# range a page of a list shows, said above or below it.
_RANGE = re.compile(
    r"^(?:[^\W\d]+\s+){0,2}(?P<a>\d{1,6})\s*(?:to|through|thru|-|–|—)\s*(?P<b>\d{1,6})\s+of\s+(?P<n>\d{1,6})"
    r"(?:\s+[^\W\d]+){0,2}\.?$",
    re.I,
)


# "(1-25/43)": the range and its total in brackets, a slash before the total (Redmine's, Trac's and
# other trackers' pagers draw it beside the page links). Brackets required: a bare "3-12/2020" is a date.
_SLASHED = re.compile(r"^\(\s*(?P<a>\d{1,6})\s*[-–]\s*(?P<b>\d{1,6})\s*/\s*(?P<n>\d{1,6})\s*\)$")


_FIRST_SENTENCE = re.compile(r"(?<=\.)\s+(?=[A-Z0-9])")


def parse_range(text: str) -> tuple[int, int, int] | None:
    """(first, last, total) of a range line ("1 to 10 of 37", "(1-25/43)"), or None. The line may say
    more in a sentence of its own after it ("Displaying users 1-5 of 5 found. 5 users total.")."""
    if "/" not in text and "of" not in text.lower():
        return None  # neither form can match (asked of every short text with a digit: most are none)
    text = " ".join(text.split())
    match = (
        _RANGE.match(text) or _SLASHED.match(text) or _RANGE.match(_FIRST_SENTENCE.split(text, maxsplit=1)[0])
    )
    if match is None:
        return None
    first, last, total = (int(match.group(k)) for k in ("a", "b", "n"))
    return first, last, total


def _labels(page: FetchedPage) -> list[tuple[Node, str, int]]:
    """Innermost elements whose whole text is a count (kept with the page: a page is counted as the
    current one and, reused by the session, again as another page of a list)."""
    return page.derived(_count_labels)


LABEL_CHARS = 60
"""A count label is short: an element with more text than this is no label (`Node.short_text`)."""


_DIGIT = re.compile(r"\d")


_NOT_LABELS = frozenset(("script", "style", "title", "option", "#document", "html", "body"))


def _count_labels(page: FetchedPage) -> list[tuple[Node, str, int]]:
    """The page's count labels but those its `<title>` repeats, number and all: that is what the page
    is called (a record named "Parser crash (2)" under its own heading), not the length of a list."""
    labels = _innermost(page, parse_count)
    title = " ".join(page.title.lower().split()) if labels else ""
    return [(node, noun, n) for node, noun, n in labels if " ".join(node.text().lower().split()) not in title]


def _innermost(page: FetchedPage, parse: Callable[[str], tuple[Any, ...] | None]) -> list[Any]:
    """Every element whose short text `parse` reads and none of whose child elements' texts it reads
    (the label itself, not its wrappers), with what `parse` read."""
    found = []
    for node, text in page.derived(_numbered):
        parsed = parse(text)
        if parsed and not any(parse(c.text()) for c in node.elements):
            found.append((node, *parsed))
    return found


@tree_reading
def _numbered(page: FetchedPage) -> list[tuple[Node, str]]:
    """The elements that may be labels (in document order, with their short texts), read once for
    count labels and range lines alike: a label's text holds a number, as every form either reads
    does. Each element's short text is the one `parse_html` kept (`Node.short_text`). Computer code
    quoted in the page (`tree_facts.CODE_TAGS`) is left out."""
    numbered = []
    code = tree_facts(page).in_code  # `sys.argv[0]` quoted in a page is an index, not "sys.argv (0)"
    for node in page.document.iter():
        if node.tag in _NOT_LABELS or (text := node.short_text(LABEL_CHARS)) is None:
            continue
        if code and id(node) in code:
            continue
        if _DIGIT.search(text):
            numbered.append((node, text))
    return numbered
