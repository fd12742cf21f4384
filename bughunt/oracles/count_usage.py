"""A usage line — a count against its limit, "Aliases: 7 / 100" — that disagrees with the list of those
things the page shows whole.

Admin panels and hosting dashboards summarise what an account or a domain holds against its quota:
PostfixAdmin's domain overview ("Aliases: 7 / 100", "Mailboxes: 4 / 100"), cPanel-like hosting panels
("Email Accounts: 3 / 10"), SaaS seat counters ("Seats: 4 / 10"), a group's "Projects: 2 / 5". The
first number is how many there are; the page usually lists them below, under a title naming them (a
table's title row or caption ":: Aliases", or a heading right before the table).

Read as a usage line: an element whose whole text is `Label: N / M` (the colon optional) with whole
numbers, N ≤ M, and a label of words only whose last word is plural (it names things: "Aliases",
"Accounts", "Seats"). So a fraction or a score ("Score: 7 / 10", "Rating 4/5": singular labels), a
date ("12/2020": no label), a measure ("Disk: 1.2 / 5 GB": not whole, `NOT_ITEMS` words) and a ratio
above 1 are not. The list is the one table of the page whose own title names the same things (singular
or plural); compared only when the page shows every page of it: no pager leading to another page
(`lists.has_pagination`, an offset pager's links among them). Two tables titled alike, or none, make no
claim.
"""

from __future__ import annotations

import re

from bughunt.dom import Node, own_rows
from bughunt.oracles.count_labels import LABEL_CHARS, NOT_ITEMS
from bughunt.oracles.lists import has_pagination, list_items
from bughunt.oracles.nouns import same_noun
from bughunt.oracles.table_heads import cells
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts

_USAGE = re.compile(
    r"^(?P<label>[^\W\d_]{2,30}(?: [^\W\d_]{1,30}){0,3})\s*:?\s*(?P<n>\d{1,6})\s*/\s*(?P<m>\d{1,6})$"
)
_SINGULAR_ENDS = ("ss", "us", "is")
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "caption"})


def _plural(word: str) -> bool:
    word = word.casefold()
    return len(word) > 2 and word.endswith("s") and not word.endswith(_SINGULAR_ENDS)


def parse_usage(text: str) -> tuple[str, int, int] | None:
    """(label, count, limit) of a usage line ("Aliases: 7 / 100"), else None (see the module)."""
    match = _USAGE.match(" ".join(text.split()))
    if match is None:
        return None
    label, n, m = match.group("label").strip(), int(match.group("n")), int(match.group("m"))
    if n > m or not _plural(label.split()[-1]) or NOT_ITEMS.search(label):
        return None
    return label, n, m


def _noun(words: str) -> str:
    """The last word of a title or label ("Aliases: 7 / 100" → "aliases"), lower case."""
    found = re.findall(r"[^\W\d_]+", words.casefold())
    return found[-1] if found else ""


def _title(table: Node) -> str:
    """What a table calls itself: its caption, its first row when that is one cell (a title row), else
    the heading right before it."""
    for child in table.elements:
        if child.tag == "caption":
            return child.text()
    first = next(own_rows(table), None)
    if first is not None and len(title := cells(first)) == 1:
        return title[0].text()
    siblings = table.parent.elements if table.parent is not None else []
    at = next((i for i, e in enumerate(siblings) if e is table), 0)
    return siblings[at - 1].text() if at > 0 and siblings[at - 1].tag in _HEADINGS else ""


def usage_mismatches(page: FetchedPage) -> list[tuple[Node, int, int]]:
    """(the usage line, its count, the rows of the table titled for those things) for each usage line
    its page's one table of those things contradicts, the list shown whole (see the module)."""
    lines = []
    for node in page.document.iter():
        text = node.short_text(LABEL_CHARS)
        if text and "/" in text and (usage := parse_usage(text)) is not None:
            if not any(parse_usage(c.text()) for c in node.elements):
                lines.append((node, usage))
    if not lines or has_pagination(page):
        return []
    tables = tree_facts(page).tagged("table")
    found = []
    for node, (label, shown, _limit) in lines:
        noun = _noun(label)
        # the label names them in the plural (`parse_usage`), a title either way (":: Alias", ":: Aliases")
        titled = [t for t in tables if noun and (title := _noun(_title(t))) and same_noun(noun, title)]
        if len(titled) != 1:
            continue
        rows = list_items(titled[0])
        if rows is None:
            continue
        if shown != len(rows):
            found.append((node, shown, len(rows)))
    return found
