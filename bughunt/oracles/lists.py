"""Finding the lists on a page: repeated items, their identities, and pagination links.

A list container is a `ul`/`ol`/`table`, or any element with two or more element children that all
share one tag and class set (the way server-side templates render a loop). Real templates mix their
loop's items with tabs and a pager in one container, so `item_runs` also finds the repeated items
*among* mixed siblings. An item is identified by its permalink — its own link to a page of a detail
template, which no other item of the list shares — never by its first link (the first link of a
feed preview is its author); without one, by a label unique in its list that is neither a count
("0 Comments") nor an action word ("Reply"). A pager counts as paging only when it leads to another
page (`other_pages`): « 1 » with disabled arrows pages nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cached_property, lru_cache
from urllib.parse import urlsplit

from bughunt.dom import Node
from bughunt.fingerprint import route_shape
from bughunt.oracles.reading import (
    KEPT,
    is_page_key,
    list_page_key,
    named_page,
    names_later_page,
    numbered_page_of,
    resolve,
)
from bughunt.page import FetchedPage, base_url
from bughunt.urls import route_of

_ITEM_TAGS = frozenset({"article", "li", "section", "tr", "div", "dd", "figure", "p"})
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_HEADING_TAGS = frozenset(_HEADINGS)
_PAGER_TEXT = re.compile(r"^(?:\d+|next|prev|previous|first|last|older|newer|[«»‹›←→]+.*|.*[«»‹›←→]+)$", re.I)
# a pager's control for the page after the first: "2", "Next", "›", "下一页"
_SECOND_PAGE_TEXT = re.compile(
    r"^\s*(?:2|(?:go\s+to\s+(?:the\s+)?)?next(?:\s*page)?|[›»>→]|下一页)\s*[›»>→]{0,2}\s*$", re.I
)
# an accessible pager's button says which page it opens ("Go to next page", "Previous page", "Page 3")
_PAGE_CONTROL_TEXT = re.compile(
    r"^(?:go\s+to\s+(?:the\s+)?)?(?:first|last|next|previous|prev)\s+page$|^page\s+\d+$", re.I
)
_NEXT_ICON = re.compile(r"(?:angle|chevron|arrow|caret|navigate)[-_]?(?:right|forward|next)\b")
_LAST_ICON = re.compile(r"\b(?:double|last|end)\b")


def list_items(node: Node, min_items: int = 2) -> list[Node] | None:
    """The items of `node` if it is a list container, else None.

    `ul`/`ol`/`table`/`dl` are lists whatever their length (a `dl`'s items are its terms, each with
    the descriptions after it — a search's matches, a glossary — or the `div`s grouping them); any
    other element needs `min_items` same-signature children (a lone child is usually a layout wrapper,
    not a one-item list)."""
    if node.tag in ("ul", "ol"):
        return [c for c in node.elements if c.tag == "li"]
    if node.tag == "dl":
        return [c for c in node.elements if c.tag == "dt"] or [c for c in node.elements if c.tag == "div"]
    if node.tag == "table":
        bodies = [c for c in node.elements if c.tag == "tbody"] or [node]
        rows = [r for b in bodies for r in b.elements if r.tag == "tr"]
        # A header row is all `th`; a row led by a `th scope=row` (Django admin's changelist) is data.
        rows = [r for r in rows if any(c.tag == "td" for c in r.elements) or not r.find_all("th")]
        # A row of one cell spanning the others' columns (the buttons and pager under the records, a
        # group's caption) is the table's furniture beside rows of several cells, not a record.
        if any(len(r.elements) > 1 for r in rows):
            rows = [r for r in rows if not spanning(r)]
        return rows
    fewest = max(1, min_items)
    # a node with fewer children of any kind has fewer elements (most nodes asked: no list is made)
    if node.tag in ("head", "html", "#document", "select", "tr", "p") or len(node.children) < fewest:
        return None
    children = node.elements
    if len(children) < fewest:
        return None
    first = item_signature(children[0])
    if not first:
        return None
    if all(item_signature(c) == first for c in children):
        return children
    return None


def spanning(row: Node) -> bool:
    """A table row of one cell spanning the others' columns: the table's furniture or a group's
    caption, not a record."""
    cells = row.elements
    return len(cells) == 1 and cells[0].get("colspan", "1").strip() not in ("", "1")


_DIGITS = re.compile(r"\d+")


def item_signature(node: Node) -> str:
    """What a template loop's items share, or "" for an element that cannot be one: tag and classes;
    `article` elements as they are; for another item without classes, its tag with its id's pattern (`div#comment-<n>`) or the signature of
    its first child (`div > div.card`). A `table` of one row is a record laid out as a table (an avatar
    beside a post's text, one such table per post), an item like a `div`; a table of rows is a list."""
    if node.tag not in _ITEM_TAGS and not (node.tag == "table" and len(list_items(node) or ()) == 1):
        return ""
    if node.classes or node.tag == "article":
        return node.signature()  # an <article> is a self-contained item by definition, classes or not
    ident = node.get("id")
    if ident and _DIGITS.search(ident):
        return f"{node.tag}#{_DIGITS.sub('<n>', ident)}"
    inner = node.elements
    if len(inner) == 1 and inner[0].classes:
        return f"{node.tag} > {inner[0].signature()}"
    return ""


@lru_cache(maxsize=8)
def find_lists(root: Node) -> list[tuple[Node, list[Node]]]:
    """Every list container with its items, in document order (nested lists included). Cached per
    parsed document (nodes hash by identity): several oracles ask for the same page's lists."""
    return [(node, items) for node in root.iter() if (items := list_items(node)) is not None]


@lru_cache(maxsize=8)
def item_runs(root: Node) -> list[tuple[Node, str, list[Node]]]:
    """(container, item signature, items) for every group of two or more children of one element
    that share a tag and class set, whatever siblings they stand among (tabs, a pager, a heading) —
    linked headings too, the items of a flat loop with no wrapper per item; plus every
    `ul`/`ol`/`table` list (signature `li`/`tr`)."""
    runs: list[tuple[Node, str, list[Node]]] = []
    for node in root.iter():
        if node.tag in ("ul", "ol", "table"):
            items = list_items(node)
            if items:
                runs.append((node, "tr" if node.tag == "table" else "li", items))
            continue
        if node.tag in ("head", "html", "#document", "select", "tr", "p"):
            continue
        groups: dict[str, list[Node]] = {}
        for child in node.elements:
            if sig := item_signature(child) or _linked_heading(child):
                groups.setdefault(sig, []).append(child)
        runs += [(node, sig, items) for sig, items in groups.items() if len(items) >= 2]
    return runs


def _linked_heading(node: Node) -> str:
    """A heading that links somewhere starts an item of a flat loop (`h3 > a`, then the item's text
    and footer as its siblings, no wrapper per item): its signature, else "". A heading without a
    link titles a section, not an item."""
    if node.tag in _HEADINGS and any(a.get("href") for a in node.find_all("a")):
        return node.signature()
    return ""


def is_pager(container: Node, items: list[Node]) -> bool:
    """Pagination controls are lists too; they must not be compared as content."""
    names = " ".join(container.classes + (container.get("id"), container.get("aria-label"))).lower()
    if "pagination" in names or "pager" in names:
        return True
    # Half of the items reading as page numbers or arrows decide it: read no item text past that.
    matched = unmatched = 0
    for item in items:
        if _PAGER_TEXT.match(item.text()):
            matched += 1
        else:
            unmatched += 1
        if matched * 2 >= len(items):
            return True
        if unmatched * 2 > len(items):
            return False
    return False


class ItemFacts:
    """What `identities` and `item_title` read off one list item, each read once: its heading, links
    and buttons from one walk of the item, the rest when first asked. Kept per page (`item_facts`):
    one list item is read by the pagination oracle, the count oracle and again whenever the page is
    walked as another page of a list."""

    def __init__(self, item: Node, base: str) -> None:
        self.item, self.base = item, base
        first: dict[str, Node] = {}
        anchors: list[Node] = []
        buttons: list[Node] = []
        for node in item.iter():
            tag = node.tag
            if tag in _HEADING_TAGS:
                if tag not in first and node.text():
                    first[tag] = node
            elif tag == "a":
                anchors.append(node)
            elif tag == "button":
                buttons.append(node)
        self.heading = next((first[tag] for tag in _HEADINGS if tag in first), None)
        """The item's first heading of the highest level."""
        self.anchors, self.buttons = anchors, buttons

    @cached_property
    def text(self) -> str:
        return self.item.text()

    @cached_property
    def title_link(self) -> Node | None:
        """The link that names the item: the one around or inside its heading, else its longest link."""
        item, heading = self.item, self.heading
        if heading is not None:
            around = next((a for a in heading.ancestors() if a.tag == "a" and a.get("href")), None)
            if around is not None and around is not item and any(x is item for x in around.ancestors()):
                return around
            inside = [a for a in heading.find_all("a") if a.get("href")]
            return inside[0] if inside else None
        anchors = [a for a in self.anchors if a.get("href") and a.text()]
        return max(anchors, key=lambda a: len(a.text()), default=None)

    @cached_property
    def links(self) -> list[tuple[Node, str]]:
        """The item's links that do not act on it, with their absolute targets (fragments dropped:
        `/post/7#comments` is `/post/7`)."""
        out = []
        for a in self.anchors:
            url = resolve(self.base, a.get("href")) if a.get("href") else None
            if url and not _action(a.text(), url):
                out.append((a, url))
        return out

    @cached_property
    def targets(self) -> frozenset[str]:
        """The targets of `links`, each once."""
        return frozenset(url for _, url in self.links)

    @cached_property
    def whole_text(self) -> str:
        """The item's text, lower case, spaces collapsed, at most 300 characters."""
        return " ".join(self.text.lower().split())[:300]

    @cached_property
    def label(self) -> str:
        if self.heading is not None:
            return " ".join(self.heading.text().lower().split())
        link = self.title_link
        if link is not None and not label_like(link.text()):
            return " ".join(link.text().lower().split())
        return self.whole_text

    @cached_property
    def title(self) -> str:
        if self.heading is not None:
            return self.heading.text()
        link = self.title_link
        if link is not None and not label_like(link.text()):
            return link.text()
        return self.text if len(self.text) <= 120 else ""

    @cached_property
    def control_only(self) -> bool:
        """Whether all the item's text is the text of its buttons (a row holding the list's "Load more"
        control, drawn on every page of it): a control is no item to tell apart from the others."""
        text = "".join(self.text.split())
        return bool(text) and text == "".join("".join(b.text() for b in self.buttons).split())


ItemMemo = dict[int, ItemFacts]
"""Facts of the items of one page by `id` of their node (the page keeps its tree, so ids stay its nodes')."""


def item_facts(page: FetchedPage) -> ItemMemo:
    """The page's memo of `ItemFacts`, filled as lists of it are read."""
    return page.derived(_new_memo)


def _new_memo(page: FetchedPage) -> ItemMemo:
    return {}


def _facts(item: Node, base: str, memo: ItemMemo) -> ItemFacts:
    facts = memo.get(id(item))
    if facts is None:
        facts = memo[id(item)] = ItemFacts(item, base)
    return facts


def holds_link(item: Node, memo: ItemMemo, base: str) -> bool:
    """Whether the item holds a link (its `ItemFacts.anchors`, read once per page): a record's item,
    not a sentence of prose."""
    return any(a.get("href") for a in _facts(item, base, memo).anchors)


def item_title(item: Node, memo: ItemMemo | None = None, base: str = "") -> str:
    return _facts(item, base, {} if memo is None else memo).title


# A label that counts something ("0 Comments", "Replies (3)", "12") or names an action ("Reply",
# "Edit", "Read more") is the same on many items: never what tells one item from another.
_COUNT_LABEL = re.compile(r"^\W*(?:\d[\d,.]*\s*\w*|\w+\s*[(\[]\s*\d[\d,.]*\s*[)\]])\W*$", re.I)
_ACTION_LINKS = frozenset(
    "reply edit delete remove like unlike share report flag follow unfollow vote upvote downvote quote "
    "save cancel hide undo moderate enable disable approve reject block ban".split()
)
"""Words of a link that acts on the item rather than naming it."""
_ACTION_WORDS = _ACTION_LINKS | frozenset(
    "permalink link more read continue view show open comment comments".split()
)
_WORD = re.compile(r"\w+")
_LETTERS = re.compile(r"[a-z]+")


def label_like(text: str) -> bool:
    """A count or an action word, which many items carry alike ("0 Comments", "Reply", "Read more »")."""
    words = _WORD.findall(text.lower())
    return not words or bool(_COUNT_LABEL.match(" ".join(text.split()))) or set(words) <= _ACTION_WORDS


@lru_cache(maxsize=KEPT)
def _names_identifier(url: str) -> bool:
    """Whether the URL's route has an identifier (`/post/7`: a page of a detail template)."""
    return "<" in route_shape(route_of(url))


def _permalink(facts: ItemFacts, links: list[tuple[Node, str]]) -> str | None:
    """The item's link to a page of its own among `links` (its links no other item of its list has,
    actions left out): the link of its heading; else the last target whose route has an identifier
    (`/post/7`: a detail template — an author comes first, "Permalink" or "0 Comments" → `/post/7`
    after); else its only target."""
    if not links:
        return None
    title = facts.title_link if facts.heading is not None else None
    for a, url in links:
        if a is title:
            return url
    detail = [url for _, url in links if _names_identifier(url)]
    if detail:
        return detail[-1]
    return links[0][1] if len({url for _, url in links}) == 1 else None


def _action(text: str, url: str) -> bool:
    """A link that acts on the item: its words, or its path's last word, are an action."""
    words = set(_LETTERS.findall(text.lower()))
    last = [w for w in urlsplit(url).path.lower().split("/") if w and not w.isdigit()][-1:]
    return bool(words and words <= _ACTION_LINKS) or bool(set(last) & _ACTION_LINKS)


def _details_row(facts: ItemFacts, linked_tables: dict[int, bool]) -> bool:
    """A table row with no link at all among rows most of which link somewhere: the entry above it
    continued (a "details" row spanning the columns with its notes, `tr.row-details`). Its words are
    that entry's, and the same words under another entry ("Woke up calm.") are no repeat of it —
    whether it is read with the table's rows or, by its own class, as a run of details rows.
    `linked_tables` keeps the answer per table body (by `id`), read once for all its rows."""
    row = facts.item
    if row.tag != "tr" or facts.anchors or row.parent is None:
        return False
    body = row.parent
    if id(body) not in linked_tables:
        rows = [r for r in body.elements if r.tag == "tr"]
        linked_tables[id(body)] = 2 * sum(1 for r in rows if r.find_all("a")) > len(rows)
    return linked_tables[id(body)]


def identities(items: list[Node], base: str, memo: ItemMemo | None = None) -> list[set[str]]:
    """What identifies each item of one list: its **permalink** — a link no other item of the list
    has (an author's profile, linked from each of their posts, is not), not an action ("Edit",
    "Delete"), see `_permalink`; else its label — heading, title link or whole text — when that label
    is unique in the list and is not a count or an action word. An item without a heading whose link
    label others share (each post of a feed names its author: no title of its own) is told by its
    whole text, when that is unique. An item with none of these has no identity (an empty set): it is
    never reported as a repeat. `memo` (`item_facts` of the items' page, whose links resolve against
    `base`) keeps what is read off each item for the next list that holds it."""
    memo = {} if memo is None else memo
    facts = [_facts(i, base, memo) for i in items]
    shared: Counter[str] = Counter()
    for f in facts:
        shared.update(f.targets)
    repeated = Counter(f.label for f in facts)
    texts: Counter[str] | None = None
    linked_tables: dict[int, bool] = {}
    permalinks = [_permalink(f, [(a, u) for a, u in f.links if shared[u] == 1]) for f in facts]
    # A permalink that keeps the list's page number (`?page=2&details=46`: a details panel opened over
    # the page it was clicked on) names the same item on every page: the number is not the item's.
    paged = [_without_page_number(u) if u else u for u in permalinks]
    bare_count = Counter(paged)
    out: list[set[str]] = []
    for f, url, bare in zip(facts, permalinks, paged, strict=True):
        if f.control_only:
            out.append(set())  # a "Load more" row: the list's control, not one of its items
        elif url:
            out.append({"href:" + (bare if bare and bare_count[bare] == 1 else url)})
        elif _details_row(f, linked_tables):
            out.append(set())
        elif f.label and not label_like(f.label) and repeated[f.label] == 1:
            out.append({"title:" + f.label})
        elif f.heading is None and f.label and repeated[f.label] > 1 and f.label != f.whole_text:
            if texts is None:
                texts = Counter(g.whole_text for g in facts)
            unique = texts[f.whole_text] == 1 and not label_like(f.whole_text)
            out.append({"text:" + f.whole_text} if unique else set())
        else:
            out.append(set())
    return out


def _without_page_number(url: str) -> str:
    """`url` without its page-number parameters (`is_page_key`), in the order the rest came."""
    head, sep, query = url.partition("?")
    if not sep:
        return url
    query, hash_, fragment = query.partition("#")
    pairs = query.split("&")
    kept = [p for p in pairs if not is_page_key(p.partition("=")[0])]
    if len(kept) == len(pairs):
        return url
    return head + ("?" + "&".join(kept) if kept else "") + hash_ + fragment


_URL_ATTRS = ("href", "hx-get", "data-hx-get", "data-href", "data-url")


@lru_cache(maxsize=16)
def targets(doc: Node) -> list[tuple[Node, str]]:
    """Elements that lead to another URL without a form: links, and HTMX/data-href buttons. Cached per
    element (nodes hash by identity; read-only for callers): several oracles ask for one page's."""
    out = []
    for node in doc.iter():
        attrs = node.attrs
        # most elements: no attribute, or not one of these tags (a loop per element, not a generator)
        if not attrs or node.tag not in _TARGET_TAGS:
            continue
        for name in _URL_ATTRS:
            href = attrs.get(name)
            if href:
                if node.tag in ("a", "link") or not attrs.get("href"):
                    out.append((node, href))
                break
    return out


_TARGET_TAGS = frozenset(("a", "link", "button", "li", "span", "div", "option"))


def clicked_previous_page(page: FetchedPage) -> FetchedPage | None:
    """The previous page of a list paged without addresses: the page a click on its pager's
    second-page control ("2", "Next") was made on, when the click left the URL as it was (a single-page
    app's `javascript:` pager; `FetchedPage.clicked_from`) — or on the one enabled control without
    words of an icon-only pager."""
    if page.clicked_from is None:
        return None
    origin, label = page.clicked_from
    pagers = pager_nodes(origin)
    if _SECOND_PAGE_TEXT.match(label) and pagers:
        return origin
    return origin if not label.strip() and _icon_way_on(_active_controls(pagers)) else None


def pager_ways_on(page: FetchedPage) -> list[Node]:
    """The controls of the page's pager that lead to its next page: those that read as the next or
    the second page ("2", "Next", "›"), else, on an icon-only pager's first page, its one enabled
    control without words (each copy of it: a pager drawn above and below its table)."""
    return list(page.derived(_pager_ways_on))


def _pager_ways_on(page: FetchedPage) -> list[Node]:
    pagers = pager_nodes(page)
    controls = _active_controls(pagers)
    named = [n for n in controls if _names_way_on(n)]
    if named:
        return named
    if any(_names_way_on(n) for p in pagers for n in p.find_all("a", "button")):
        # The pager names its way on and shows it disabled: the list's last page. Its one enabled
        # icon is the way back ("‹"), not the next page.
        return []
    return _icon_way_on(controls)


def reads_way_on(label: str) -> bool:
    """Whether a control's words say it opens the list's next page ("2", "Next", "next >>", "›")."""
    return bool(_SECOND_PAGE_TEXT.match(label))


def _names_way_on(control: Node) -> bool:
    return bool(_SECOND_PAGE_TEXT.match(control.text() or control.get("aria-label"))) or _next_icon(control)


def _next_icon(control: Node) -> bool:
    """Whether a control's icon names the way on: its picture is named for an arrow to the right
    (`fa-angle-right`, `data-icon="chevron-right"`, `<use href="#arrow-right">`, a ligature font's
    `navigate_next`) — on any page of the list, where "‹" and "›" are both enabled and alike but for
    their icon. A double arrow is the last page, not the next."""
    names = " ".join(
        f"{n.get('class')} {n.get('data-icon')} {n.get('href')} {n.get('xlink:href')}"
        + (f" {n.text()}" if n.tag in ("i", "span") and len(n.text()) <= 20 else "")
        for n in control.iter()
        if n is not control
    ).lower()
    return bool(_NEXT_ICON.search(names)) and not _LAST_ICON.search(names)


def _active_controls(pagers: list[Node]) -> list[Node]:
    return [n for p in pagers for n in p.find_all("a", "button") if not _inactive(n)]


def _icon_way_on(controls: list[Node]) -> list[Node]:
    """An icon-only pager ("‹ ›" drawn as pictures) on its first page: the one enabled control
    without words is the way on (the way back is disabled there). A pager drawn twice, above and
    below its table, holds that control twice: copies alike in every tag and attribute are one."""
    icons = [n for n in controls if not n.text()]
    return icons if len({_markup(n) for n in icons}) == 1 else []


def _markup(node: Node) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Every element of `node`, tag and attributes: two copies of one control have the same."""
    return tuple((n.tag, tuple(sorted(n.attrs.items()))) for n in node.iter())


def pager_nodes(page: FetchedPage) -> list[Node]:
    """The page's pagination controls: lists that are pagers, and elements named as a pager
    (`div#pagination` holding two icon buttons) that hold a link or button, outside those lists."""
    return list(page.derived(_pager_nodes))


def _pager_nodes(page: FetchedPage) -> list[Node]:
    root = page.document
    found = [c for c, items in find_lists(root) if is_pager(c, items)]
    ids = {id(c) for c in found}
    for node in root.iter():
        if (
            id(node) in ids
            or not (_named_pager(node) or _page_buttons(node))
            or not node.find_all("a", "button")
        ):
            continue
        if any(id(a) in ids for a in node.ancestors()) or any(id(d) in ids for d in node.iter()):
            continue
        found.append(node)
        ids.add(id(node))
    return found


def _page_buttons(node: Node) -> bool:
    """A bar of controls only, two or more of which say the page they open ("Go to next page", "Page
    2": an accessible pager's buttons, each an icon with a screen-reader label), is a pager whatever
    its element is named."""
    controls = node.elements
    if len(controls) < 2 or any(c.tag not in ("a", "button") for c in controls):
        return False
    said = sum(
        1 for c in controls if _PAGE_CONTROL_TEXT.match(" ".join((c.text() or c.get("aria-label")).split()))
    )
    return said >= 2


def _named_pager(node: Node) -> bool:
    # the raw attributes, not the class tokens: asked of every element, and neither word holds a space
    attrs = node.attrs
    if not attrs:
        return False  # most elements: nothing names them
    names = f"{attrs.get('class', '')} {attrs.get('id', '')} {attrs.get('aria-label', '')}".lower()
    return "pagination" in names or "pager" in names


def has_pagination(page: FetchedPage) -> bool:
    """Whether the page shows only part of its list: its pager (or a rel=next/prev link) leads to
    another page. A pager drawn for a single page (« 1 » with disabled arrows, as common pagination
    macros draw it) leads nowhere: the list is complete. An enabled control a script handles (`href="#"`
    with a handler, `javascript:`, a button) that is not the current page leads somewhere too."""
    return page.derived(_has_pagination)


def _has_pagination(page: FetchedPage) -> bool:
    if other_pages(page):
        return True
    if _way_on(page):
        return True
    base = base_url(page)
    for pager in pager_nodes(page):
        for node in pager.find_all("a", "button"):
            href = next((node.get(a) for a in _URL_ATTRS if node.get(a)), "")
            if _inactive(node) or not (node.text() or node.get("aria-label") or node.elements):
                continue
            url = resolve(base, href) if href and not href.startswith("#") else None
            if url is None:
                return True  # scripted: it pages, to where we cannot tell
    return False


def _way_on(page: FetchedPage) -> bool:
    """Whether a link anywhere on the page says it opens the list's next page ("Next page") and leads
    to an address naming a later page (`?page=2`, `?offset=20`, a keyset pager's `?_next=20`): a
    pager of one link, outside any pager markup."""
    base = base_url(page)
    for node, href in targets(page.document):
        if node.tag != "a" or not _SECOND_PAGE_TEXT.match(node.text()):
            continue
        url = resolve(base, href) if not href.startswith("#") else None
        if url is not None and url != page.url and names_later_page(url):
            return True
    return False


_DISABLED = frozenset({"disabled", "is-disabled", "inactive"})
_CURRENT = frozenset({"active", "current", "is-current", "selected"})


def first_page_number(page: FetchedPage) -> int:
    """The number of a list's first page in its page parameter: 0 when its pager counts from 0 (the
    link that reads "2" opens `?page=1`), else 1. A bare list URL is that first page."""
    return page.derived(_first_page_number)


def _first_page_number(page: FetchedPage) -> int:
    base = base_url(page)
    for pager in pager_nodes(page):
        for node, href in targets(pager):
            text = node.text()
            if not text.isdigit() or href.startswith("#"):
                continue
            url = resolve(base, href)
            number = named_page(url) if url else None
            if number is not None:
                return 0 if number == int(text) - 1 else 1
    return 1


def other_pages(page: FetchedPage) -> list[str]:
    """URLs of the list's other pages: enabled controls of its pagers, and rel=next/prev links, whose
    target is not this page, and links to this path with another named page number (`?page=3`) —
    not the current page's own number (`active`, `aria-current`, the same
    page number), not a disabled arrow, not a `#` or script link."""
    return list(page.derived(_other_pages))


def _other_pages(page: FetchedPage) -> list[str]:
    base = base_url(page)
    first = first_page_number(page)
    here = list_page_key(page.url, first)
    controls: list[tuple[Node, str]] = [
        (n, href)
        for n, href in targets(page.document)
        if n.tag in ("a", "link") and {"next", "prev", "previous"} & set(n.get("rel").lower().split())
    ]
    for pager in pager_nodes(page):
        controls += targets(pager)
    # A link to this path with another value of a parameter named as a page is another page of the
    # list, whatever it looks like (buttons in a row with no pager around them, an arrow icon).
    path = urlsplit(page.url).path
    controls += [
        (n, href)
        for n, href in targets(page.document)
        if n.tag == "a" and (url := resolve(base, href)) is not None and numbered_page_of(url) == path
    ]
    out: list[str] = []
    for node, href in controls:
        url = resolve(base, href) if not href.startswith("#") else None
        if not url or url in out or list_page_key(url, first) == here or _inactive(node):
            continue
        out.append(url)
    return out


def _inactive(node: Node) -> bool:
    """A disabled control or the current page's own: said by the element or its wrappers (`li.active
    > a`, `span.disabled > span > a`) — not by the pager's surroundings (an `active` tab pane)."""
    for depth, n in enumerate((node, *node.ancestors())):
        names = f"{n.get('class')} {n.get('id')} {n.get('aria-label')}".lower()
        if depth > 2 or n.tag in ("ul", "ol", "nav", "body") or "pagination" in names or "pager" in names:
            return False
        if (
            set(n.classes) & (_DISABLED | _CURRENT)
            or "disabled" in n.attrs
            or n.get("aria-disabled") == "true"
            or n.get("aria-current") not in ("", "false")
        ):
            return True
    return False
