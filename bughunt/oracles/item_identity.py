"""What identifies one list item among the others, and the facts read off it once per page.

An item is identified by its permalink — its own link to a page of a detail template, which no other
item of the list shares — never by its first link (the first link of a feed preview is its author);
without one, by a label unique in its list that is neither a count ("0 Comments") nor an action word
("Reply"). Moved whole from `lists.py` (which re-exports these names).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cached_property, lru_cache
from urllib.parse import urlencode, urlsplit, urlunsplit

from bughunt.dom import Node
from bughunt.fingerprint import route_shape
from bughunt.oracles.list_finding import _HEADING_TAGS, _HEADINGS
from bughunt.oracles.reading import (
    KEPT,
    is_offset_key,
    is_page_key,
    resolve,
)
from bughunt.page import FetchedPage
from bughunt.sim.route_keys import query_pairs, query_parts
from bughunt.urls import route_of


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
        if not self.buttons:
            return False  # no button's words for its text to be (most items: not their text read)
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


def count_label(text: str) -> bool:
    """Whether `text` counts something ("12", "0 Comments", "Replies (3)") rather than naming it."""
    return bool(_COUNT_LABEL.match(" ".join(text.split())))


def label_like(text: str) -> bool:
    """A count or an action word, which many items carry alike ("0 Comments", "Reply", "Read more »")."""
    words = _WORD.findall(text.lower())
    return not words or count_label(text) or set(words) <= _ACTION_WORDS


@lru_cache(maxsize=KEPT)
def addresses_record(url: str) -> bool:
    """Whether the URL's route has an identifier, in its path or its query (`/post/7`, `/user?id=7`,
    `/r/lentil-soup-no-2`: a page of a detail template or an action on its record). A list's
    position (`?offset=0`, `?page=2`) is none: a filter link that keeps the pager's offset
    (`?offset=0&queue=mail`, the queue column of a job list) leads to a list, not to the item's own
    page. Taken for one, on a page of two rows whose queues differ, it was each row's permalink in
    place of its `?id=18`, and the row the page repeated from the page before went unrecognised."""
    return "<" in route_shape(route_of(_without_position(url)))


def _without_position(url: str) -> str:
    """`url` without the query pairs that place a list (its page number, its offset)."""
    head, sep, query = url.partition("?")
    if not sep:
        return url
    kept = [p for p in query_parts(query) if not (is_page_key(k := p.partition("=")[0]) or is_offset_key(k))]
    return head + ("?" + "&".join(kept) if kept else "")


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
    detail = [(a, url) for a, url in links if addresses_record(url)]
    # A link written as the identifier it carries ("60", "#60" → `?id=60`) is the record's own number:
    # a ticket's row leads with it, and its requester's profile link comes after.
    numbered = [url for a, url in detail if _written_identifier(a, url)]
    if len(set(numbered)) == 1:
        return numbered[0]
    if detail:
        return detail[-1][1]
    return links[0][1] if len({url for _, url in links}) == 1 else None


_NUMBER_TEXT = re.compile(r"^#?\s*(\d{1,12})$")
_URL_PARTS = re.compile(r"[/?&=;#]")


def _written_identifier(link: Node, url: str) -> bool:
    """Whether a link's words are the number its URL carries as a whole part (`60` → `?id=60`)."""
    found = _NUMBER_TEXT.match(" ".join(link.text().split()))
    return found is not None and found.group(1) in _URL_PARTS.split(url)


@lru_cache(maxsize=KEPT)
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
    paged = _without_list_values([_without_page_number(u) if u else u for u in permalinks])
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
    pairs = query_parts(query)
    kept = [p for p in pairs if not is_page_key(p.partition("=")[0])]
    if len(kept) == len(pairs):
        return url
    return head + ("?" + "&".join(kept) if kept else "") + hash_ + fragment


def _without_list_values(urls: list[str | None]) -> list[str | None]:
    """`urls` (the items' permalinks) without the query pairs every one of them carries alike: a value
    all items share names the list, not the item — a return address to the page they are listed on
    (`?_referrer=<the page's address, encoded>`, `?url=/users/?page=2`, `?next=…`), which differs
    from page to page for one record. Kept when fewer than two items have a permalink, or when
    dropping the pairs would leave two items alike."""
    present = [u for u in urls if u]
    if len(present) < 2:
        return urls
    first = dict(query_pairs(urlsplit(present[0]).query, decoded=True))
    if not first:
        return urls  # nothing shared by all when the first has no pairs (most lists: `/post/7`)
    queries = [dict(query_pairs(urlsplit(u).query, decoded=True)) for u in present[1:]]
    shared = {k for k, v in first.items() if all(q.get(k) == v for q in queries)}
    if not shared:
        return urls
    out: list[str | None] = []
    for url in urls:
        if not url:
            out.append(url)
            continue
        parts = urlsplit(url)
        pairs = [(k, v) for k, v in query_pairs(parts.query, decoded=True) if k not in shared]
        out.append(urlunsplit(parts._replace(query=urlencode(pairs))))
    kept = [u for u in out if u]
    return out if len(set(kept)) == len(kept) else urls
