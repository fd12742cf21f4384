"""A count on one page of the list another page shows: the count, or the list item holding it, links
that page, which states how many it lists.

Trackers, readers and dashboards summarise lists kept elsewhere: a project's overview draws a table of
trackers with "open | closed | total" columns, each number a link to the issue list filtered so; a
reader's list of categories says how many feeds each holds, the category's item linking its page of
feeds. The linked page states its own total — a range line ("(1-18/18)", "1 to 10 of 37") or a count
label naming the same things ("Design > Feeds (2)") — and the two must agree.

A claim is read two ways, both on what the page means, never on one application's markup:
- a *count cell*: a table cell holding nothing but a link whose text is a whole number, under a column
  header, in a table with two or more such cells, the number not among the digits of the link's
  address (`/issues/12` from "12", `?date=2026-12-12` from a calendar's "12": a record or a day, not a
  count). What it counts is named by its column's header and its row's first cell — the link's own
  words are only the number;
- an *item count*: a count label inside a list item ("Design (7)", "7 feeds") whose noun — the
  label's, or the tooltip of the number itself (`<span title="There are 7 feeds.">7</span>`) — is the
  last path segment of exactly one of the item's links (`/category/4/feeds`, however the link reads:
  "See subscriptions"): the page of those things. A badge in a menu, header or footer ("Unread (83)")
  counts what is new or unread, not the list its link opens, and is no claim.
The linked page (fetched, at most `MAX_TARGETS` a page, in document order: a table's first row covers
each column) gives the total: a count label outside list items whose noun's last word is one of the
claim's words (a heading the page's `<title>` repeats counts here: it names the page's list), else the
one total its range lines state. A page stating neither is not compared: its list alone may be paged,
filtered or drawn by scripts. The finding lands on the page showing the count (its number is the one
that disagrees with two views of the list: the linked page's count and its rows).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple
from urllib.parse import urldefrag, urlsplit

from bughunt.dom import Node
from bughunt.oracles.base import Fetch, fetch_or_none
from bughunt.oracles.count_labels import _innermost, _labels, parse_count
from bughunt.oracles.count_population import managed_count_of_own_record
from bughunt.oracles.count_ranges import range_lines
from bughunt.oracles.count_records import permalinks, record_total
from bughunt.oracles.lists import find_lists, targets
from bughunt.oracles.nouns import same_noun
from bughunt.oracles.pagination import furniture
from bughunt.oracles.reading import resolve
from bughunt.oracles.table_heads import cells, column_headings, column_of, columns
from bughunt.page import FetchedPage, base_url, tree_reading
from bughunt.tree_facts import tree_facts

MAX_TARGETS = 3
"""Linked pages fetched to compare a page's counts with (each costs one of the page's oracle requests)."""

MAX_RECORDS = 2
"""Of those, cards' record pages (`count_records`): a list of twenty cards is judged on its first two
— one card template draws them all."""

_WHOLE_NUMBER = re.compile(r"^\d{1,6}$")

_DIGITS = re.compile(r"\d+")

_TOOLTIP = re.compile(r"(?<![\d.,])(?P<n>\d{1,6})\s+(?P<noun>[^\W\d_]{2,30})")
"""`There are 7 feeds.`: a number's tooltip saying what it counts."""

ITEM_LEVELS = 4
"""Ancestors of an item count searched for the list item holding it."""


class Claim(NamedTuple):
    """A count shown on the page (`node`, `shown`), the list page it links (`url`) and the words naming
    what it counts (lower case; compared singular or plural alike: `nouns.same_noun`)."""

    node: Node
    shown: int
    url: str
    words: frozenset[str]
    record: bool = False
    """A card's count read against its record's page (`count_records`), not a list page's total."""
    named: bool = False
    """Compared only with a total that names what it counts (`stated_total(by_name=True)`)."""


def _words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[^\W\d_]{2,}", text)}


def _names(word: str, words: Iterable[str]) -> bool:
    """Whether `word` names what one of `words` names: either may be the plural ("Feeds" over a link
    to a page of "1 feed"; "Entries" naming a page's "Entry (1)")."""
    return any(same_noun(word, w) for w in words)


def _names_number(url: str, number: str) -> bool:
    """Whether the number is among the digits of the address's path or query (an identifier, a page,
    a date): then the link names that record or page, not a list the number counts."""
    parts = urlsplit(url)
    return number.lstrip("0") in {d.lstrip("0") for d in _DIGITS.findall(f"{parts.path}?{parts.query}")}


def _header_cells(table: Node) -> list[str]:
    """The text of each column's heading (`table_heads`), a heading spanning columns once for each;
    nothing when the table has no column headings."""
    header = column_headings(table)
    under = columns(header) if header is not None else None
    return [" ".join(c.text().split()) for c in under or ()]


def _header_over(headers: list[str], row: Node, cell: Node) -> str:
    """The text of the column heading over a cell of `row` (`_header_cells` of its table), or ""."""
    column = column_of(row, cell)
    return headers[column] if column is not None and column < len(headers) else ""


_CELLS = frozenset(("td", "th"))


def has_cells(page: FetchedPage) -> bool:
    """Whether the page has a table cell at all (kept with the page). A count cell and a row count are
    each a link in one, found by walking up from every link of the page: most pages have no table,
    and each of their links was walked up to the root to find no cell."""
    return page.derived(_has_cells)


@tree_reading
def _has_cells(page: FetchedPage) -> bool:
    return tree_facts(page).has(*_CELLS)


def count_cells(page: FetchedPage) -> list[Claim]:
    """The page's count cells (see the module), in document order."""
    if not has_cells(page):
        return []
    base = base_url(page)
    by_table: dict[int, list[Claim]] = {}
    headers: dict[int, list[str]] = {}
    for node, href in targets(page.document):
        text = " ".join(node.text().split()) if node.tag == "a" else ""
        if not _WHOLE_NUMBER.match(text) or href.strip().startswith("#"):
            continue
        cell = next((a for a in node.ancestors() if a.tag in ("td", "th")), None)
        row = cell.parent if cell is not None else None
        table = next((a for a in row.ancestors() if a.tag == "table"), None) if row is not None else None
        url = resolve(base, href)
        if cell is None or cell.tag != "td" or row is None or row.tag != "tr" or table is None or url is None:
            continue
        if (
            " ".join(cell.text().split()) != text
            or _names_number(url, text)
            or url == page.url
            or furniture(table)
        ):
            continue
        if id(table) not in headers:
            headers[id(table)] = _header_cells(table)
        header = _header_over(headers[id(table)], row, cell)
        if not _words(header):
            continue
        if managed_count_of_own_record(row, node, url, base):
            continue
        first = cells(row)[0]
        label = " ".join(first.text().split()) if first is not cell else ""
        claim = Claim(cell, int(text), url, frozenset(_words(header) | _words(label)))
        by_table.setdefault(id(table), []).append(claim)
    return [c for claims in by_table.values() if len(claims) >= 2 for c in claims]


def _noun(label: Node, noun: str, shown: int) -> str:
    """What an item's count counts: the tooltip of its number when it says ("There are 7 feeds."),
    else the label's own last word ("7 feeds", "Feeds (7)")."""
    for node in label.iter():
        title = node.get("title")
        if title and " ".join(node.text().split()) == str(shown):
            for match in _TOOLTIP.finditer(title):
                said = f"{match.group('n')} {match.group('noun')}"
                if int(match.group("n")) == shown and parse_count(said) is not None:
                    return match.group("noun")
    words = noun.split()
    return words[-1] if words else ""


def item_counts(page: FetchedPage) -> list[Claim]:
    """The page's item counts (see the module), in document order."""
    labels = _labels(page)
    if not labels:
        return []
    items = {id(i): i for _c, found in find_lists(page.document) for i in found}
    base, out = base_url(page), []
    records: dict[int, str] | None = None
    for label, noun, shown in labels:
        item = next((a for a in list(label.ancestors())[:ITEM_LEVELS] if id(a) in items), None)
        said = _noun(label, noun, shown).casefold() if item is not None else ""
        if item is None or len(said) < 2 or furniture(item):
            continue  # a menu's badge ("Unread (83)") counts what is new, not the list it opens
        urls = {
            url
            for node, href in targets(item)
            if node.tag == "a"
            and (url := resolve(base, href)) is not None
            and same_noun(urlsplit(url).path.rstrip("/").rsplit("/", 1)[-1], said)
        }
        if len(urls) == 1:
            out.append(Claim(label, shown, urls.pop(), frozenset({said})))
        elif not urls:
            # no page named for what it counts: the card's own page, which lists them (`count_records`)
            records = permalinks(page) if records is None else records
            if (record := records.get(id(item))) is not None and not _same_document(record, page.url):
                out.append(Claim(label, shown, record, frozenset({said}), record=True))
    return out


def _same_document(record: str, url: str) -> bool:
    """Is the card's permalink the page's own document? A link that differs from the page only in its
    fragment is a view of this document (a script's hash route, `#History?sub=…`, whose fragment the
    permalink drops) or an anchor on it (`#comment-3`): no record's own page, and fetching it shows the
    document's start view, whose counts are another list's. Stated on documents, not markup: hash-routed
    shells (pixl-webapp, Backbone and AngularJS 1 routers, Dojo's hash) and in-page anchors of
    server-rendered pages alike."""
    return urldefrag(record).url == urldefrag(url).url


def stated_total(page: FetchedPage, words: frozenset[str], by_name: bool = False) -> int | None:
    """How many the page says its list holds: a count label outside list items naming one of `words`
    (its noun's last word), else the one total of its range lines (`by_name`: of those whose own words
    name one of `words`, "Showing 0-19 of 43 jobs"); None when it says neither, or says two."""
    named = {
        shown
        for node, noun, shown in _innermost(page, parse_count)
        if noun.split()
        and _names(noun.split()[-1], words)
        and not any(a.tag in ("li", "tr", "article") for a in node.ancestors())
    }
    if named:
        return named.pop() if len(named) == 1 else None
    totals = {
        total
        for line, _first, _last, total in range_lines(page)
        if not by_name or any(_names(w, words) for w in _words(line.text()))
    }
    return totals.pop() if len(totals) == 1 else None


def target_mismatches(page: FetchedPage, fetch: Fetch | None) -> list[tuple[Node, int, int]]:
    """(the count's element, the count, the linked page's total) for the first claim its linked page
    contradicts, the linked pages fetched in document order, at most `MAX_TARGETS`."""
    found = contradicted(page, fetch)
    return [(found[0].node, found[0].shown, found[1])] if found is not None else []


def contradicted(
    page: FetchedPage, fetch: Fetch | None, rows: Sequence[Claim] = ()
) -> tuple[Claim, int] | None:
    """The first claim its linked page contradicts, with that page's total (`target_mismatches`);
    `rows`, the page's row counts (`count_rows`), are read after its count cells and item counts."""
    if fetch is None:
        return None
    claims = count_cells(page) + item_counts(page) + list(rows)
    fetched: dict[str, FetchedPage | None] = {}
    records = 0
    for claim in claims:
        if claim.url not in fetched:
            if len(fetched) >= MAX_TARGETS or (claim.record and records >= MAX_RECORDS):
                continue
            records += claim.record
            fetched[claim.url] = fetch_or_none(fetch, claim.url, "count")
        other = fetched[claim.url]
        if other is None or other.status >= 400 or not other.is_html:
            continue
        total = (
            record_total(other, next(iter(claim.words)))
            if claim.record
            else stated_total(other, claim.words, claim.named)
        )
        if total is not None and total != claim.shown:
            return claim, total
    return None
