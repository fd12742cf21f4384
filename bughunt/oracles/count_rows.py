"""A table row naming a list and saying how many it holds: the row's first cell a link to the list's
page, one other cell a plain number under a column header ("Name | Jobs": `mailers` linking the
queue's page, `55`).

Dashboards summarise the lists they keep elsewhere so: a job queue's overview lists each queue with
its length, a forum index each board with its topics, an admin's home each model with its records, a
tag table each tag with its uses. The row's link opens the list; the number beside it is the list's
length, which the linked page states again (`count_targets.stated_total`: a count label naming the
same things, or the total of a range line whose words name them: "Showing 0-19 of 43 jobs" under
"Jobs"). This is `count_targets`' count cell with the link on the name instead of on the number; the
row's link leads to the record's page, which may page another of its lists, so an unnamed range line
("1-10 of 25" of a user's comments beside a "Posts" column) states no total here.

Read only where it means one thing: the row's first cell is nothing but its link, exactly one other
cell of the row holds a whole number (a board's "Topics | Posts" row holds two: which one its page
counts is not said, so it is no claim), that cell's column has a header with words, and two or more
rows of the table read so. A row whose link names its number (`/archive/2024` beside "2024") names a
record, not a count. The claim's words are its column header's and its row's name.

Rows drawn by one template link pages of one template (`/queues/mailers`, `/queues/images`): the
linked pages are fetched one per parent path first (`spread`), then the rest in document order, so a
table's row leading to another kind of page (the "failed" row under the queues, linking `/failed`) is
read within `count_targets.MAX_TARGETS` whatever its place.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from bughunt.dom import Node
from bughunt.oracles.count_targets import (
    Claim,
    _header_cells,
    _header_over,
    _names_number,
    _words,
    has_cells,
)
from bughunt.oracles.lists import targets
from bughunt.oracles.pagination import furniture
from bughunt.oracles.reading import resolve
from bughunt.oracles.table_heads import cells
from bughunt.page import FetchedPage, base_url

_WHOLE_NUMBER = re.compile(r"^\d{1,6}$")


def _text(node: Node) -> str:
    return " ".join(node.text().split())


def row_counts(page: FetchedPage) -> list[Claim]:
    """The page's row counts (see the module), in document order."""
    if not has_cells(page):
        return []
    base = base_url(page)
    by_table: dict[int, list[Claim]] = {}
    headers: dict[int, list[str]] = {}
    for node, href in targets(page.document):
        if node.tag != "a" or href.strip().startswith("#") or not _text(node):
            continue
        cell = next((a for a in node.ancestors() if a.tag in ("td", "th")), None)
        row = cell.parent if cell is not None else None
        if cell is None or row is None or row.tag != "tr" or _text(cell) != _text(node):
            continue
        own = cells(row)
        table = next((a for a in row.ancestors() if a.tag == "table"), None)
        url = resolve(base, href)
        if not own or own[0] is not cell or table is None or url is None or url == page.url:
            continue
        numbers = [c for c in own[1:] if _WHOLE_NUMBER.match(_text(c)) and not c.find_all("a")]
        if len(numbers) != 1 or _names_number(url, _text(numbers[0])) or furniture(table):
            continue
        if id(table) not in headers:
            headers[id(table)] = _header_cells(table)
        header = _header_over(headers[id(table)], row, numbers[0])
        if not _words(header):
            continue
        words = frozenset(_words(header) | _words(_text(node)))
        by_table.setdefault(id(table), []).append(
            Claim(numbers[0], int(_text(numbers[0])), url, words, named=True)
        )
    return [c for claims in by_table.values() if len(claims) >= 2 for c in claims]


def spread(claims: list[Claim]) -> list[Claim]:
    """The claims whose linked pages are the first under their parent path, then the others, each in
    document order (see the module)."""
    seen: set[str] = set()
    first: list[Claim] = []
    rest: list[Claim] = []
    for claim in claims:
        parent = urlsplit(claim.url).path.rstrip("/").rsplit("/", 1)[0]
        (rest if parent in seen else first).append(claim)
        seen.add(parent)
    return first + rest
