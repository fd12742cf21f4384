"""A summary line under a table that counts the table's rows first among other counts: "4 files
changed, 2 insertions, 2 deletions" under a change list of two files.

A table of changed files, of test cases or of uploaded files is often closed by one line of counts
written as a sentence: the rows first, then measures of them (lines added and removed, failures,
bytes). Each clause is `N words`, so none reads as a count label alone (`count_labels` wants the
whole text to be one count), and the line stands after the table, not over it. The families: git
and Mercurial web front ends' diffstats (cgit, gitweb, hgweb, Gitea's "N changed files"), test
runners' HTML reports ("12 tests, 2 failures"), upload and import results ("3 files imported,
1 skipped").

Read only where it means that: the element right after a table (its next sibling element), whose
whole text is two or more comma-separated clauses `N words` (whole numbers, no measure words:
`count_labels.NOT_ITEMS`), on a page that pages nothing. The table's rows are its own body rows that
hold a data cell (a header row of `th` cells is none). The line agrees when the rows are its first
count, or the sum of its counts (a partition of the rows by kind: "3 passed, 1 failed").
"""

from __future__ import annotations

import re

from bughunt.dom import Node, body_rows
from bughunt.oracles.count_labels import NOT_ITEMS
from bughunt.oracles.lists import has_pagination
from bughunt.page import FetchedPage
from bughunt.tree_facts import tree_facts

_CLAUSE = re.compile(
    r"^(?P<n>\d{1,6})\s+(?P<words>[^\W\d_][^\W\d_ ]*(?:\s+[^\W\d_]+){0,3})(?:\s*\([^\w\s]{1,3}\))?$"
)
"""`4 files changed`, `1 insertion(+)`: a whole number and one to four words (no digits), and at most a
sign in brackets after them, as git's own summary writes."""

MIN_CLAUSES = 2
"""A line of one clause is a count label, read as one (`count_labels`)."""

SUMMARY_CHARS = 160
"""A summary line is one short sentence: longer text after a table is prose."""


def summary_counts(text: str) -> list[int] | None:
    """The counts of a summary line, in order, or None when the text is not one."""
    text = " ".join(text.split())
    if not text or len(text) > SUMMARY_CHARS or "," not in text:
        return None
    counts = []
    for clause in text.rstrip(".").split(","):
        match = _CLAUSE.match(clause.strip())
        if match is None or NOT_ITEMS.search(match.group("words")):
            return None
        counts.append(int(match.group("n")))
    return counts if len(counts) >= MIN_CLAUSES else None


def summary_mismatches(page: FetchedPage) -> list[tuple[Node, int, int]]:
    """(the summary line, its first count, the table's rows) for the first table whose summary line
    under it disagrees with its rows (see the module)."""
    facts = tree_facts(page)
    if not facts.has("table"):
        return []
    for table in facts.by_tag["table"]:
        line = _next_element(table)
        if line is None or line.tag == "table":
            continue
        counts = summary_counts(line.text())
        if counts is None:
            continue
        rows = [r for r in body_rows(table) if any(c.tag == "td" for c in r.elements)]
        if not rows or len(rows) in (counts[0], sum(counts)):
            continue
        if has_pagination(page):
            return []  # a total over every page says more than one page lists
        return [(line, counts[0], len(rows))]
    return []


def _next_element(node: Node) -> Node | None:
    """The element right after `node` among its parent's children (text between them only blank)."""
    parent = node.parent
    if parent is None:
        return None
    children = parent.children
    at = next(i for i, c in enumerate(children) if c is node)
    for child in children[at + 1 :]:
        if isinstance(child, Node):
            return child
        if child.strip():
            return None
    return None
