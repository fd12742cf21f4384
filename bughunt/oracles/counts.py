"""A displayed count that disagrees with the list it labels ("Favorites (3)" above two items).

A label is a short element whose whole text is a count: `Label (N)`, `Label [N]` or `N label`.
The list it labels is the element right after it, or the run of same-structure items that starts
right after it in one container (a heading over a flat loop: see `labelled_list`); when nothing
right after it is a list, the one content list of the label's own section (`count_sections`: a
header bar of controls, a form wrapper or a filter form between them make no difference). Counts
inside list items (a "3 comments" badge on a preview) label something not shown, so they are skipped. A total above a
paginated list legitimately exceeds one page: it is compared with the items of all its pages when
the pagers lead to at most `MAX_PAGES` others (fetched), else skipped; an item a faulty pager
repeats on two pages is one item. A list whose range line states its total ("1 to 10 of 37") is
compared with that total instead, however it is paged. A pager that leads to no
other page (« 1 » with disabled arrows) pages nothing: the list is complete. Durations ("3 min
read") are not counts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Set
from functools import lru_cache
from itertools import takewhile
from typing import Any

from loguru import logger

from bughunt.dom import Node
from bughunt.oracles.base import DEFAULT_CONFIG, Fetch, Finding, OracleConfig, evidence, page_shape, quoted
from bughunt.oracles.count_headings import heading_mismatches
from bughunt.oracles.count_links import linked_mismatch
from bughunt.oracles.count_sections import section_list
from bughunt.oracles.lists import (
    find_lists,
    first_page_number,
    has_pagination,
    holds_link,
    identities,
    is_pager,
    item_facts,
    item_signature,
    list_items,
    other_pages,
    spanning,
)
from bughunt.oracles.reading import KEPT, list_page_key
from bughunt.page import FetchedPage, base_url

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
_NOT_ITEMS = re.compile(
    r"\b(sec|secs|seconds?|min|mins|minutes?|hours?|hrs?|days?|weeks?|months?|years?|ago|read|"
    r"kb|mb|gb|views?|points?|stars?|px|%)\b",
    re.I,
)


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
    if not match or _NOT_ITEMS.search(match.group("label")):
        return None
    return match.group("label").strip(" :-—"), int(match.group("n"))


# "Showing 11 to 20 of 64 items", "1–10 of 57 entries", "Displaying results 1 - 25 of 300": the
# range a page of a list shows, said above or below it.
_RANGE = re.compile(
    r"^(?:[^\W\d]+\s+){0,2}(?P<a>\d{1,6})\s*(?:to|through|-|–|—)\s*(?P<b>\d{1,6})\s+of\s+(?P<n>\d{1,6})"
    r"(?:\s+[^\W\d]+){0,2}\.?$",
    re.I,
)
_FIRST_SENTENCE = re.compile(r"(?<=\.)\s+(?=[A-Z0-9])")
RANGE_LEVELS = 4
"""Ancestors of a range line searched for the one list it describes (a card's footer, then the card)."""


def parse_range(text: str) -> tuple[int, int, int] | None:
    """(first, last, total) of a range line, or None. The line may say more in a sentence of its own
    after it ("Displaying users 1-5 of 5 found. 5 users total.")."""
    text = " ".join(text.split())
    match = _RANGE.match(text) or _RANGE.match(_FIRST_SENTENCE.split(text, maxsplit=1)[0])
    if match is None:
        return None
    first, last, total = (int(match.group(k)) for k in ("a", "b", "n"))
    return first, last, total


def _range_lines(page: FetchedPage) -> list[tuple[Node, int, int, int]]:
    return page.derived(_find_range_lines)


def _find_range_lines(page: FetchedPage) -> list[tuple[Node, int, int, int]]:
    return _innermost(page, parse_range)


def _described_list(line: Node) -> list[Node] | None:
    """The items of the one list a range line describes: the nearest ancestor holding lists other
    than pagers holds exactly one table (else exactly one list); None when that is not clear."""
    node = line
    around = {id(a) for a in line.ancestors()}
    for _ in range(RANGE_LEVELS):
        if node.parent is None:
            return None
        node = node.parent
        holds, items = _one_list_in(node, around)
        if holds:
            return items
    return None


def _one_list_in(node: Node, around: Set[int] = frozenset()) -> tuple[bool, list[Node] | None]:
    """Whether `node` holds lists besides pagers (and lists whose ids are in `around`), and the items
    of the one it holds: its one table, else its one outermost list; None when that is not clear."""
    lists = [(c, items) for c, items in find_lists(node) if id(c) not in around and not is_pager(c, items)]
    if not lists:
        return False, None
    tables = [items for c, items in lists if c.tag == "table"]
    if len(tables) == 1:
        return True, tables[0]
    containers = {id(c) for c, _ in lists}
    outer = [items for c, items in lists if not any(id(a) in containers for a in c.ancestors())]
    return True, outer[0] if len(outer) == 1 and not tables else None


def range_mismatches(page: FetchedPage) -> list[tuple[Node, int, int]]:
    """(line, rows the range says, rows listed) for each range line the list under it contradicts:
    "11 to 20 of 64" says ten rows are on this page (fewer on the last page: the range ends at the
    total), whatever the pager says; a range ending past its total contradicts itself."""
    out = []
    for line, first, last, total in _range_lines(page):
        items = _without_placeholder(_described_list(line))
        if items is None:
            continue
        said = max(last - first + 1, 0) if first else 0
        if len(items) > said and first > 1:
            continue  # a later page showing rows of the page before: the pager's bug, not the count's
        if said != len(items) or last > total:
            out.append((line, said, len(items)))
    return out


def _range_total(page: FetchedPage, items: list[Node]) -> int | None:
    """The total a range line states for the list whose items are `items` ("1 to 10 of 37": 37), or
    None when no range line describes that list."""
    for line, _first, _last, total in _range_lines(page):
        described = _described_list(line)
        if items and described and described[0] is items[0]:
            return total
    return None


def _labels(page: FetchedPage) -> list[tuple[Node, str, int]]:
    """Innermost elements whose whole text is a count (kept with the page: a page is counted as the
    current one and, reused by the session, again as another page of a list)."""
    return page.derived(_count_labels)


LABEL_CHARS = 60
"""A count label is short: an element with more text than this is no label (`Node.short_text`)."""
_DIGIT = re.compile(r"\d")
_NOT_LABELS = frozenset(("script", "style", "title", "option", "#document", "html", "body"))
_NO_TEXT = frozenset(("script", "style", "template"))
"""Elements whose content is no text of their parent (as `Node.text` reads it)."""


def _count_labels(page: FetchedPage) -> list[tuple[Node, str, int]]:
    """The page's count labels but those its `<title>` repeats, number and all: that is what the page
    is called (a record named "Parser crash (2)" under its own heading), not the length of a list."""
    labels = _innermost(page, parse_count)
    title = " ".join(page.title.lower().split()) if labels else ""
    return [(node, noun, n) for node, noun, n in labels if " ".join(node.text().lower().split()) not in title]


def _innermost(page: FetchedPage, parse: Callable[[str], tuple[Any, ...] | None]) -> list[Any]:
    """Every element whose short text `parse` reads and none of whose child elements' texts it reads
    (the label itself, not its wrappers), with what `parse` read."""
    numbered, words = page.derived(_page_words)
    found = []
    for node, text in numbered:
        parsed = parse(text)
        if parsed and not any(parse(_text(c, words)) for c in node.elements):
            found.append((node, *parsed))
    return found


def _page_words(page: FetchedPage) -> tuple[list[tuple[Node, str]], dict[int, list[str] | None]]:
    """The elements that may be labels (in document order, with their short texts) and every
    element's short text's words, read once for count labels and range lines alike: a label's
    text holds a number, as every form either reads does."""
    words = _short_words(list(page.document.iter()))
    numbered = []
    for node in page.document.iter():
        if node.tag in _NOT_LABELS or (own := words[id(node)]) is None:
            continue
        text = " ".join(own)
        if _DIGIT.search(text):
            numbered.append((node, text))
    return numbered, words


def _short_words(order: list[Node]) -> dict[int, list[str] | None]:
    """For every element of a document (`order`: all of them, parents before children), the words
    of its text when that text has at most `LABEL_CHARS` characters, else None — read bottom-up, each
    piece of text once (asking each element for its `short_text` reads a subtree per element)."""
    words: dict[int, list[str] | None] = {}
    for node in reversed(order):
        own: list[str] = []
        fits = True
        for child in node.children:
            if isinstance(child, str):
                own += child.split()
            elif child.tag not in _NO_TEXT:
                inner = words[id(child)]
                if inner is None:
                    fits = False
                    break
                own += inner
            if len(own) > LABEL_CHARS // 2:
                fits = False  # so many words cannot fit: each takes a character and a space
                break
        words[id(node)] = own if fits and len(" ".join(own)) <= LABEL_CHARS else None
    return words


def _text(node: Node, words: dict[int, list[str] | None]) -> str:
    """`node.text()`, from the words read already when it is short."""
    own = words[id(node)] if node.tag not in _NO_TEXT else None
    return " ".join(own) if own is not None else node.text()


def labelled_list(label: Node, containers: set[int] | None = None) -> list[Node] | None:
    """The items of the list `label` labels, or None when no list clearly follows it.

    The list must be the element right after the label (a one-item list counts there); if the
    label ends its parent (a heading wrapped in a header div), the element right after the parent
    or grandparent is tried, but then it must be a list of two or more. `containers` (ids of the
    page's list containers, from `find_lists`) saves re-examining every ancestor on big pages.
    """
    if containers is None:
        root = next((a for a in label.ancestors() if a.parent is None), label)
        containers = {id(c) for c, _ in find_lists(root)}
    row = next((a for a in label.ancestors() if a.tag == "tr"), None)
    if row is not None and spanning(row):
        table = next((a for a in row.ancestors() if a.tag == "table"), None)
        return _group(table, row) if table is not None else None
    if any(a.tag in ("li", "tr", "article") or id(a) in containers for a in label.ancestors()):
        return None
    node: Node = label
    for level in range(3):
        if node.parent is None:
            return None
        siblings = node.parent.elements
        following = _past_controls(siblings[siblings.index(node) + 1 :])
        if following:
            after = _unwrapped(following[0])
            items = list_items(after, min_items=1 if level == 0 else 2)
            if items and after.tag == "table" and (first := _group(after, None)):
                return first  # a heading over a grouped table counts its first group
            # a count in a list's header bar, beside the bar's controls, and a table wrapped in a form
            # with its hidden inputs are read by the label's section (`count_sections`)
            return items if items is not None or level else _run(following) or _boxed(after)
        node = node.parent
    return None


def _past_controls(following: list[Node]) -> list[Node]:
    """The elements after a label, past the search form redrawn between a search's count and its
    results ("Page 1 of 7 results", the form holding the query, a rule, then the table) — a GET form
    and `hr`, which are no list and hold none of its items."""
    at = 0
    while at < len(following) and (
        following[at].tag == "hr"
        or (following[at].tag == "form" and following[at].get("method", "get").strip().lower() in ("", "get"))
    ):
        at += 1
    return following[at:]


def _rows(table: Node) -> list[Node]:
    """The table's own rows in order, across its `thead`/`tbody`/`tfoot` sections."""
    rows: list[Node] = []
    for child in table.elements:
        if child.tag == "tr":
            rows.append(child)
        elif child.tag in ("thead", "tbody", "tfoot"):
            rows += [r for r in child.elements if r.tag == "tr"]
    return rows


def _group_heading(row: Node) -> bool:
    """A row of one spanning cell that holds a count: the heading of the group of rows under it."""
    return spanning(row) and any(parse_count(n.text()) for n in row.iter() if len(n.text()) <= LABEL_CHARS)


def _group(table: Node, heading: Node | None) -> list[Node] | None:
    """The records of one group of a table grouped under headings that count them ("1.0 (12
    matches)" in a row spanning the table, then its rows): those after `heading` up to the next
    such heading. With `heading` None, the group before the table's first heading row, which a
    heading over the table counts — None when no record comes before it (a table whose group
    headings lead its rows is counted whole) or the table has no group headings."""
    rows = _rows(table)
    if heading is None and not any(_group_heading(r) for r in rows):
        return None
    records = {id(r) for r in list_items(table) or ()}
    at = next((n for n, r in enumerate(rows) if r is heading), None) if heading is not None else None
    if heading is not None and at is None:
        return None
    start = at + 1 if at is not None else 0
    out: list[Node] = []
    for row in rows[start:]:
        if _group_heading(row):
            break
        if id(row) in records:
            out.append(row)
    return out if out or heading is not None else None


BOX_CHARS = 300
"""Text a box may hold beside its one list and still be that list's box (its range line, a pager
bar's labels), not a section that merely contains a list."""


def _boxed(box: Node) -> list[Node] | None:
    """The rows of the one table in the box right after a label, when the box holds little else: a
    table drawn with its pager bar under it in one element (a script's data table) is the list the
    heading before the box counts. Only a table: a box holding one `ul` may be a lone preview with
    its tags."""
    _holds, items = _one_list_in(box)
    table = next((a for a in items[0].ancestors() if a.tag == "table"), None) if items else None
    if table is None:
        return None
    return items if len(box.text()) - len(table.text()) <= BOX_CHARS else None


def _unwrapped(node: Node) -> Node:
    """The list inside wrappers that hold nothing else (`div.scroll > table`): the element a label
    precedes may be a box for its list rather than the list. A wrapper holding more (a form with its
    CSRF input beside the table) is left to the label's section (`count_sections`)."""
    while node.tag not in ("ul", "ol", "table") and not any(
        isinstance(c, str) and c.strip() for c in node.children
    ):
        if len(node.elements) != 1:
            break
        node = node.elements[0]
    return node


def _run(following: list[Node]) -> list[Node] | None:
    """The items of a flat loop right after a label in one container (`<h1>Posts (7)</h1>` then the
    `<article>`s, then the pager), with no element of their own around them: the leading run of two
    or more same-signature siblings, or None."""
    first = item_signature(following[0])
    if not first:
        return None
    run = list(takewhile(lambda n: item_signature(n) == first, following))
    return run if len(run) >= 2 else None


def _with_nested(items: list[Node]) -> int:
    """Items plus nested items of the same kind: a threaded "Comments (5)" counts the replies too."""
    kinds = {_kind(i) for i in items}
    tags = {i.tag for i in items}
    # A kind is its element's tag, then a "." "#" or " " or nothing: with alphanumeric tags, an
    # element of another alphanumeric tag is of none of the items' kinds, and is passed without
    # reading its classes (an item's whole subtree is walked, most of it links and text).
    every = not all(tag.isalnum() for tag in tags)
    return len(items) + sum(
        1
        for i in items
        for n in i.iter()
        if n is not i and (every or n.tag in tags or not n.tag.isalnum()) and _kind(n) in kinds
    )


def _kind(node: Node) -> str:
    return node.signature() if node.classes or node.tag in ("li", "tr") else item_signature(node) or node.tag


MAX_PAGES = 5
"""Other pages of a paginated list fetched to count it whole; a longer list is not compared."""


def _all_pages(page: FetchedPage, fetch: Fetch | None) -> list[FetchedPage] | None:
    """The list's other pages, when its pagers lead to at most `MAX_PAGES` of them and all answer;
    None when the list cannot be walked whole (longer, a page failed, or no fetch)."""
    if fetch is None:
        return None
    first = first_page_number(page)
    seen = {list_page_key(page.url, first)}
    queue = other_pages(page)
    out: list[FetchedPage] = []
    while queue:
        url = queue.pop(0)
        if list_page_key(url, first) in seen:
            continue
        seen.add(list_page_key(url, first))
        if len(out) >= MAX_PAGES:
            return None
        try:
            other = fetch(url)
        except OSError as err:
            logger.debug("count oracle could not fetch {}: {}", url, err)
            return None
        if other.status >= 400 or not other.is_html:
            return None
        out.append(other)
        queue += other_pages(other)
    return out


def _listed(page: FetchedPage, noun: str) -> tuple[int, int, list[frozenset[str]]] | None:
    """Items of the list labelled `noun` on another page of it (alone, with nested ones, and their
    identities), or None when that page has no such labelled list (then the list's pages cannot be
    told apart). Kept with the page: the pages of one list are walked again from each of them."""
    kept = page.derived(_no_lists)
    if noun not in kept:
        kept[noun] = _labelled_as(page, noun)
    return kept[noun]


def _no_lists(page: FetchedPage) -> dict[str, tuple[int, int, list[frozenset[str]]] | None]:
    return {}


def _labelled_as(page: FetchedPage, noun: str) -> tuple[int, int, list[frozenset[str]]] | None:
    for _label, other_noun, _shown, items in _labelled(page):
        if other_noun == noun and items is not None:
            return len(items), _with_nested(items), _keys(items, page)
    return None


def _labelled(page: FetchedPage) -> list[tuple[Node, str, int, list[Node] | None]]:
    """The page's count labels with the items of the list each labels (None: no list follows it),
    read once per page."""
    return page.derived(_read_labelled)


def _read_labelled(page: FetchedPage) -> list[tuple[Node, str, int, list[Node] | None]]:
    labels = _labels(page)
    if not labels:
        return []  # most pages show no count: their lists need not be found
    containers = {id(c) for c, _ in find_lists(page.document)}
    return [
        (label, noun, shown, _without_placeholder(_counted_list(label, containers, page)))
        for label, noun, shown in labels
    ]


def _counted_list(label: Node, containers: set[int], page: FetchedPage) -> list[Node] | None:
    """The list the label's neighbour shows, else the one list of its section (`count_sections`)."""
    found = labelled_list(label, containers)
    return found if found is not None else section_list(label, page.document, parse_count)


_EMPTY_TEXT = re.compile(r"^(?:there (?:are|is) )?(?:no|nothing|none)\b|\b(?:is|are) empty\b|^empty\b", re.I)


def _without_placeholder(items: list[Node] | None) -> list[Node] | None:
    """A list drawn with one row that says it is empty ("There are no articles", "No items", a cell
    spanning the table) lists nothing: no items, not one."""
    if items is None or len(items) != 1:
        return items
    item = items[0]
    if item.find_all("a") or not _EMPTY_TEXT.search(" ".join(item.text().split())):
        return items
    return []


def _keys(items: list[Node], page: FetchedPage) -> list[frozenset[str]]:
    return [frozenset(k) for k in identities(items, base_url(page), item_facts(page))]


def _distinct(keys: list[frozenset[str]]) -> int | None:
    """Items of a list walked over its pages, an item repeated on two pages counted once (a pager's
    own bug is not the count's); None when some item has no identity."""
    return len(set(keys)) if all(keys) else None


def _counted_elsewhere(page: FetchedPage, items: list[Node], shown: int) -> bool:
    """Whether the labelled list is prose (items without a link: a report's description in bullets)
    while a list of records apart from it (every item linked, pagers left out) holds exactly `shown`
    items: then the label counts that one. A list holding `items` (a grouped table's whole rows under
    a group heading that counts them all) is the same list, not another; asked only on a mismatch."""
    memo, base = item_facts(page), base_url(page)
    if any(holds_link(item, memo, base) for item in items):
        return False
    own = {id(i) for i in items}
    return any(
        len(other) == shown
        and all(holds_link(o, memo, base) for o in other)
        and not own & {id(n) for o in other for n in o.iter()}
        for c, other in find_lists(page.document)
        if not is_pager(c, other)
    )


def check_count_mismatch(
    page: FetchedPage, fetch: Fetch | None = None, config: OracleConfig = DEFAULT_CONFIG
) -> list[Finding]:
    """At most one finding per page: the message is a template; each mismatch (its label, the
    count shown, the items listed) is evidence."""
    if not page.is_html or page.status >= 400:
        return []
    mismatches: list[tuple[Node, int, int]] = []
    walked: list[FetchedPage] | None = None
    for label, noun, shown, items in _labelled(page):
        if items is None or shown == len(items) or shown == _with_nested(items):
            continue
        listed = len(items)
        total = _range_total(page, items)
        if total is not None:
            # the list's range line states its whole total: what the count says too, however the
            # list is paged (a script's pager leads to no address to walk)
            if shown != total:
                mismatches.append((label, shown, total))
            continue
        # whether the list is paged matters only for a count it disagrees with: asked then
        if shown > listed and has_pagination(page):
            # Part of the list: compared only once every page of it is walked.
            if walked is None:
                walked = _all_pages(page, fetch) or []
            if not walked:
                continue
            counted = [_listed(other, noun) for other in walked]
            if any(c is None for c in counted):
                continue
            listed += sum(c[0] for c in counted if c is not None)
            nested = _with_nested(items) + sum(c[1] for c in counted if c is not None)
            distinct = _distinct(_keys(items, page) + [k for c in counted if c is not None for k in c[2]])
            if shown in (listed, nested, distinct):
                continue
        elif _counted_elsewhere(page, items, shown):
            # another list on the page holds exactly that many items: the label counts that one (a
            # report's "(53 matches)" heading over its description's bullets and then its 53-row table)
            continue
        mismatches.append((label, shown, listed))
    mismatches += range_mismatches(page)
    if not mismatches:
        mismatches = heading_mismatches(page) or linked_mismatch(
            page, parse_count, lambda: _all_pages(page, fetch)
        )
    if not mismatches:
        return []
    label, shown, listed = mismatches[0]
    message = "a displayed count disagrees with the number of items in the list it labels"
    return [
        Finding(
            "count_mismatch",
            page.route,
            message,
            evidence(
                page,
                label.text(),
                label=quoted(m[0].text() for m in mismatches),
                shown=shown,
                listed=listed,
                mismatches=len(mismatches),
            ),
            shape=page_shape(page),
        )
    ]
