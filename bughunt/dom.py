"""The page as a tree: forgiving HTML parsing into `Node`s, and what is read off a tree alone.

Real pages are not valid HTML (unclosed tags, stray end tags), and hostile ones nest 100,000 deep: the
parse is lexbor's (the standard's tree construction, linear), bounded in depth, size and nesting, and
every walk of the tree is iterative. Nothing here knows URLs, responses or actions.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from bughunt.record_repr import field_repr
from memgpt_lite.log import logger

MAX_DEPTH = 256
"""Elements nested deeper are kept, as children of their ancestor at this depth: every walk stays short."""
MAX_NODES = 300_000
"""Elements and text pieces kept per page; the rest of a larger document is dropped (and logged)."""
MAX_PARSE_CHARS = 8_000_000
_NO_TEXT = frozenset(("script", "style", "template", "metadata"))
"""Elements whose text is never drawn: scripts, styles, templates, and an inline SVG's `<metadata>`
(the drawing tool's credits an icon carries: "Created by potrace 1.14 …")."""
FORM_CONTROLS = frozenset(("input", "select", "textarea", "button"))
"""Elements a person fills in or presses: what a list's text, a cell's value or a link-only form leaves out."""
KEPT_TEXT_CHARS = 200
"""An element keeps its `text()` up to this long (a link's, an item's, a control's); a longer one, a
whole section's, is read again when asked."""


@dataclass(repr=False, eq=False, slots=True)
class Node:
    """One element of a parsed page. `children` holds nodes and text strings in document order.

    Every walk here is iterative: a page nested 100,000 deep is a long loop, never a `RecursionError`.
    `line` is the source line for `<script>` elements (evidence), 0 for others.
    """

    __repr__ = field_repr

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)
    parent: Node | None = field(default=None, repr=False)
    line: int = 0
    _order: list[Node] | None = field(default=None, init=False, repr=False)
    """A root's elements in document order, kept at the first walk: every oracle walks the whole page,
    and a parsed tree is never changed."""
    _text: str | None = field(default=None, init=False, repr=False)
    """`text()`, kept when short (`KEPT_TEXT_CHARS`): the oracles ask a list item, a link or a
    control for its text again and again, and a parsed tree is never changed. `parse_html` reads it
    for every element (None there: longer)."""
    _elements: list[Node] | None = field(default=None, init=False, repr=False)
    """A parsed node's element children, kept as `parse_html` makes them (None for a node built by
    hand, whose children may still change): asked of most elements by several oracles each."""
    _span: tuple[list[Node], int, int] | None = field(default=None, init=False, repr=False)
    """A parsed node's place in its root's document order, (order, first, end): its subtree is that
    slice (a walk of a subtree is then a copy in C, not a generator step per element)."""
    _digest: bytes | None = field(default=None, init=False, repr=False)
    """A parsed node's `structure_hash` digest, made by `parse_html` with its place and short text
    (None for a node built by hand): every page read is hashed, and the parse's last pass already
    visits every element after its children."""

    @property
    def classes(self) -> tuple[str, ...]:
        return tuple(self.attrs.get("class", "").split())

    def get(self, name: str, default: str = "") -> str:
        return self.attrs.get(name, default)

    @property
    def elements(self) -> list[Node]:
        """Element children only (no text)."""
        kept = self._elements
        if kept is not None:
            return list(kept)  # a copy: callers may change their list, never the tree's
        return [c for c in self.children if isinstance(c, Node)]

    def iter(self) -> Iterator[Node]:
        """This node and every descendant element, in document order."""
        if self.parent is None:
            if self._order is None:
                self._order = list(self._walk())
            return iter(self._order)
        span = self._span
        if span is not None:
            order, first, end = span
            return iter(order[first:end])
        return self._walk()

    def _walk(self) -> Iterator[Node]:
        stack: list[Node] = [self]
        while stack:
            node = stack.pop()
            yield node
            # inline `elements`, reversed: this loop is most of the time an exploration spends in Python
            stack.extend([c for c in reversed(node.children) if isinstance(c, Node)])

    def find_all(self, *tags: str) -> list[Node]:
        wanted = set(tags)
        return [n for n in self.iter() if n.tag in wanted]

    def ancestors(self) -> Iterator[Node]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def text(self) -> str:
        """Visible text with whitespace collapsed (script and style contents excluded)."""
        kept = self._text
        if kept is not None:
            return kept
        text = self._read_text()
        if len(text) <= KEPT_TEXT_CHARS:
            self._text = text
        return text

    def _read_text(self) -> str:
        children = self.children
        if len(children) == 1 and type(children[0]) is str:  # most elements asked: a link, a heading
            return " ".join(children[0].split())
        # the loop of `_strings`, inlined: pages ask for tens of thousands of texts per run
        strings: list[str] = []
        stack: list[Node | str] = children[::-1]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                strings.append(item)
            elif item.tag not in _NO_TEXT:
                stack.extend(item.children[::-1])
        return " ".join(" ".join(strings).split())

    def short_text(self, limit: int) -> str | None:
        """`text()` when it is at most `limit` characters, else None — without reading the rest of a
        big subtree (asking every element of a page for a short label is then linear, not quadratic)."""
        kept = self._text
        if kept is not None:
            return kept if len(kept) <= limit else None
        if self._elements is not None and limit <= KEPT_TEXT_CHARS:
            return None  # parsed: `parse_html` kept every text this short
        words: list[str] = []
        size = -1
        for string in self._strings(skip=_NO_TEXT):
            for word in string.split():
                size += len(word) + 1
                if size > limit:
                    return None
                words.append(word)
        return " ".join(words)

    def raw_text(self) -> str:
        """Text of this node including script contents (for <script> itself)."""
        return "".join(self._strings(skip=frozenset()))

    def _strings(self, skip: frozenset[str]) -> Iterator[str]:
        stack: list[Node | str] = list(reversed(self.children))
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                yield item
            elif item.tag not in skip:
                stack.extend(reversed(item.children))

    def signature(self) -> str:
        """Tag and sorted classes: what repeated list items have in common."""
        names = self.attrs.get("class")
        if not names or names.isspace():  # most elements: no class (asked of every list item and link)
            return self.tag
        return self.tag + "." + ".".join(sorted(names.split()))

    def path(self) -> str:
        """A readable location such as `main > div.comments > p.card-text`."""
        chain = [self, *self.ancestors()]
        return " > ".join(
            n.signature() for n in reversed(chain) if n.tag not in ("#document", "html", "body")
        )


MAX_SOURCE_NESTING = MAX_DEPTH
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)[^<>]*?(/?)>")
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
# Past the cap these are kept all the same: they carry the actions and evidence, and the standard
# closes an open one when the next begins (`<a>` in `<a>`, `<li>` after `<li>`), so they cannot nest deep.
_KEPT_DEEP = frozenset(
    "a form button select option optgroup textarea script style title li dt dd tr td th p h1 h2 h3 h4 h5 h6".split()
)


def _bounded_nesting(text: str) -> str:
    """`text` with start tags dropped where they would open more than `MAX_SOURCE_NESTING` elements
    (those of links, forms and other self-closing elements excepted).

    The standard's tree construction walks the open elements for every end tag, so 30,000 unclosed
    `<span>`s followed by 30,000 stray end tags cost 30,000² steps (12 s), in lexbor as in browsers.
    A linear scan of the tags counts the nesting (roughly: it cannot tell a tag from text in a script),
    and only a page past the cap is rewritten, so every ordinary page is parsed exactly as sent.
    """
    # Each start tag opens one element at most, and each begins with a `<` that begins no end tag
    # (`</`) or comment (`<!`): a page with no more such `<` than the cap cannot pass it (most pages;
    # three counts in C instead of the scan, a third of a small page's parse).
    if text.count("<") - text.count("</") - text.count("<!") <= MAX_SOURCE_NESTING:
        return text
    depth, deepest = 0, 0
    for closing, name, selfclosing in _TAG.findall(text):  # tuples built in C: the fast path
        if closing:
            if depth:
                depth -= 1
        elif not selfclosing and name.lower() not in _VOID:
            depth += 1
            if depth > deepest:
                deepest = depth
    if deepest <= MAX_SOURCE_NESTING:
        return text
    logger.info("page nests {} elements deep: start tags past {} dropped", deepest, MAX_SOURCE_NESTING)
    pieces: list[str] = []
    depth, kept = 0, 0
    for match in _TAG.finditer(text):
        closing, name, selfclosing = match.group(1), match.group(2).lower(), match.group(3)
        if closing:
            depth = max(0, depth - 1)
        elif not selfclosing and name not in _VOID:
            if depth >= MAX_SOURCE_NESTING:
                if name in _KEPT_DEEP:
                    continue
                pieces.append(text[kept : match.start()])
                kept = match.end()
                continue
            depth += 1
    pieces.append(text[kept:])
    return "".join(pieces)


def parse_html(text: str) -> Node:
    """Parse HTML text into a tree rooted at a `#document` node. Never raises on malformed HTML.

    The parsing is lexbor's (selectolax): the HTML standard's tree construction in C, linear in the
    input, so the tree is the one a browser builds (implied `<html>`/`<body>`/`<tbody>`, `<p>` closed
    by a block, stray end tags ignored). It is copied into `Node`s without recursion, at most
    `MAX_DEPTH` deep and `MAX_NODES` large.
    """
    root = Node("#document")
    root._elements = []
    root._text = ""  # read again below when the page has any text
    if not text:
        return root
    if len(text) > MAX_PARSE_CHARS:
        logger.info("page of {} characters: only the first {} are parsed", len(text), MAX_PARSE_CHARS)
        text = text[:MAX_PARSE_CHARS]
    lexbor = LexborHTMLParser(_bounded_nesting(text)).root
    if lexbor is None:
        return root
    # Script lines for evidence: each script's text is found after the previous one's (linear).
    cursor, line, count = 0, 1, 0
    stack: list[tuple[Any, Node, int]] = [(lexbor, root, 1)]
    # The elements are made in document order (children come off the stack first to last, and those
    # hung on an ancestor past the depth cap follow the element they were below): the root's walk
    # order (`Node.iter`), kept as they are made instead of walked again at the first `iter()`.
    order = [root]
    new = object.__new__
    while stack:
        source, parent, depth = stack.pop()
        count += 1
        if count > MAX_NODES:
            logger.info("page with more than {} nodes: the rest is not parsed", MAX_NODES)
            break
        # a text piece is told by its node type, without the tag name made into a string (half the
        # nodes of a page are text)
        if source.is_text_node:
            parent.children.append(source.text_content or "")
            continue
        tag = source.tag
        if not tag or tag[0] in "-_!":  # comments, doctype
            continue
        attrs = source.attributes
        if None in attrs.values():  # a bare attribute (`<input disabled>`) reads as ""
            attrs = {k: v or "" for k, v in attrs.items()}
        # Made without the dataclass's `__init__` (a third of its instructions; a page makes
        # hundreds): every field set here, as `__init__` sets it, but those the pass below sets for
        # every node made (`_span`, `_text`, `_digest`) (`test_thirteenth_pass_shortcuts`).
        node = new(Node)
        node.tag = tag
        node.attrs = attrs
        node.children = []
        node.parent = parent
        node.line = 0
        node._order = None
        node._elements = []
        parent.children.append(node)
        parent._elements.append(node)  # type: ignore[union-attr]  # every parsed node has a list
        order.append(node)
        if tag == "script":
            code = source.text(deep=True)
            at = text.find(code, cursor) if code else -1
            if at >= 0:
                line += text.count("\n", cursor, at)
                cursor = at
            node.line = line
        # Deeper than the cap: the children hang on the deepest allowed ancestor instead.
        holder, below = (node, depth + 1) if depth < MAX_DEPTH else (parent, depth)
        child = source.last_child  # pushed last to first, so they come off the stack in order
        while child is not None:
            stack.append((child, holder, below))
            child = child.prev
    root._order = order
    # One pass through the order backwards (children before parents) reads what every element is
    # asked for by most readers of a page: its place in the order, its short text and its structure
    # digest (`structure_hash`'s, each from its children's): every page read is hashed, and the
    # hash's own walk of the tree was 2 % of a page's parse and hash (docs/benchmarks.md, Session 34).
    heads, known = _memos()
    for at in range(len(order) - 1, -1, -1):
        node = order[at]
        kids = node._elements
        children = node.children
        if not kids:
            # A leaf (most elements: a link's text, an input, an icon): its subtree is itself, its
            # text its one piece of text or none, and no child digest is read.
            node._span = (order, at, at + 1)
            if not children:
                node._text = ""
            elif len(children) == 1:
                text = " ".join(children[0].split())  # type: ignore[union-attr]  # no element child: a string
                node._text = text if len(text) <= KEPT_TEXT_CHARS else None
            else:
                node._text = _short_text_of(children)
            node._digest = _digest(node, (), heads, known)
            continue
        # Each subtree is a slice of the document order (made depth first): from its element to the
        # end of its last child's subtree.
        node._span = (order, at, kids[-1]._span[2])  # type: ignore[index]
        node._text = _short_text_of(children)
        # `structure_hash`'s step for one element, over its element children (`_elements`: the
        # same elements as its `children`, without the text between them); a digest seen again
        # keeps its first place
        seen = {child._digest: None for child in kids if child.tag not in _SKIP_STRUCTURE}
        node._digest = _digest(node, seen, heads, known)  # type: ignore[arg-type]  # made before its parent's
    return root


def _short_text_of(children: list[Node | str]) -> str | None:
    """`Node.text()` of an element with these children when it is at most `KEPT_TEXT_CHARS` long,
    else None, from its child elements' texts read already (`parse_html` reads children first): each
    piece of text is split once, not once per element above it that a reader asks for its text.

    The same text: `text()` is the words of every piece below, joined by one space, and a child's
    text is its own words so joined; a child's text too long to keep makes its parent's too long."""
    if len(children) == 1 and type(children[0]) is str:  # most elements: a link, a cell, a heading
        text = " ".join(children[0].split())
        return text if len(text) <= KEPT_TEXT_CHARS else None
    parts: list[str] = []
    size = -1
    for child in children:
        if isinstance(child, str):
            piece = " ".join(child.split())
        elif child.tag in _NO_TEXT:
            continue
        else:
            kept = child._text
            if kept is None:
                return None
            piece = kept
        if piece:
            size += len(piece) + 1
            if size > KEPT_TEXT_CHARS:
                return None
            parts.append(piece)
    return " ".join(parts)


# Attribute values that say what an element *is* (kept in the structure hash); every other value
# (hrefs, ids of items, text) changes with the data and is ignored.
_STRUCTURAL_VALUES = ("id", "class", "role", "type", "name")
_SKIP_STRUCTURE = frozenset(("script", "style", "template", "noscript"))
_STATE_ATTRS = frozenset(("checked", "selected"))
"""A form control's value, not its structure: which boxes of a record's form are ticked, which
option is chosen. Hashed, every record of one edit form (a bill owed by two people, another by
three) was a structure of its own and its template never saturated: all 48 of them were opened."""


def structure_hash(root: Node) -> str:
    """A Crawljax-style digest of a tree: tags, attribute names and the values of id/class/role/type/name
    (an id a framework generates as it renders changes from load to load: its name only; `checked`
    and `selected`, a form's values, not at all).

    Text is ignored, and a node's children are deduplicated by their own digests (order kept), so a list
    of 5 items and the same list of 7 hash alike while a new section, form or error box changes it.
    Computed bottom-up without recursion (a 100,000-deep page is only a long loop).
    """
    kept = root._digest
    if kept is not None:  # a parsed tree: `parse_html` made every element's digest
        return kept.hex()
    digests: dict[Node, bytes] = {}  # keyed by the node itself: nodes hash by identity (no `id()` call each)
    heads, known = _memos()
    # Document order reversed is a post-order (children before parents); a root keeps that order for
    # every walk of the page. The elements inside a skipped one get digests no parent reads.
    for node in reversed(list(root.iter())):
        seen: dict[bytes, None] = {}
        for child in node.children:
            # a child is a node or a string; a digest seen again keeps its first place
            if isinstance(child, Node) and child.tag not in _SKIP_STRUCTURE:
                seen[digests.pop(child)] = None
        digests[node] = _digest(node, seen, heads, known)
    return digests[root].hex()


def _memos() -> tuple[dict[tuple[Any, ...], str], dict[tuple[Any, ...], bytes]]:
    """The memos of elements' heads and subtrees' digests, started afresh when full.

    Repeated parts of a page (the items of a list, their links), and the parts every page of a
    site repeats (its header, menu, footer, the markup of its list items), are the same tag,
    attributes and children's digests over and over: each element's head and each subtree's digest
    are functions of those alone, kept for the process (bounded), so each is made once."""
    if len(_HEADS) > _MEMO_ENTRIES:
        _HEADS.clear()
    if len(_DIGESTS) > _MEMO_ENTRIES:
        _DIGESTS.clear()
    return _HEADS, _DIGESTS


def _digest(
    node: Node,
    seen: Collection[bytes],
    heads: dict[tuple[Any, ...], str],
    known: dict[tuple[Any, ...], bytes],
) -> bytes:
    """The digest of `node`'s subtree from its head and `seen`, its children's digests (each once, in
    their first places; a skipped child's left out)."""
    attrs = node.attrs
    if attrs:
        as_given = (node.tag, *attrs.items())
        # looked up before its values are measured: most heads are kept, and a long one never is
        head = heads.get(as_given)
        if head is None:
            head = _head(node.tag, attrs)
            if sum(map(len, attrs.values())) <= _MEMO_VALUE_CHARS:  # see `_MEMO_VALUE_CHARS`
                heads[as_given] = head
    else:
        head = node.tag + "\0"
    key = (head, *seen)
    digest = known.get(key)
    if digest is None:
        h = hashlib.blake2b(head.encode("utf-8", "replace") + b"\1", digest_size=16)
        for d in seen:
            h.update(d)
        digest = known[key] = h.digest()
    return digest


def _head(tag: str, attrs: dict[str, str]) -> str:
    """What an element's digest reads of the element itself: its tag, its attributes' names and
    its structural values (`structure_hash`)."""
    return (
        tag
        + "\0"
        + "\0".join(
            sorted(
                f"{k}={' '.join(sorted(v.split())) if k == 'class' else v}"
                if k in _STRUCTURAL_VALUES and not (k == "id" and generated_id(v))
                else k
                for k, v in attrs.items()
                if k not in _STATE_ATTRS
            )
        )
    )


_MEMO_ENTRIES = 8192
"""Entries kept in each of `structure_hash`'s memos before they start afresh (a link's attributes,
its address among them, make most heads of a big site's pages new: the memo must not grow with it)."""
_MEMO_VALUE_CHARS = 512
"""An element whose attribute values are longer in all (a framework's whole page state in one
`data-page`, an inline image) is not kept in the heads' memo: 8,192 of them would hold megabytes."""
_HEADS: dict[tuple[str, ...] | tuple[Any, ...], str] = {}
"""(tag, *attribute items) → the element's head, as `_head` makes it."""
_DIGESTS: dict[tuple[Any, ...], bytes] = {}
"""(head, *children's digests, each once) → the subtree's digest."""


_CSS_IDENT = re.compile(r"[A-Za-z][\w-]*")
# Ids a script makes up as it renders, numbered in render order or random: they change from load to
# load (a menu's trigger rendered after a query answers takes another number), so a selector anchored
# on one names another control, or none, at the next load, and each row's copy of a control would be
# a kind of its own. The conventions of the common frameworks, not of one application: React's useId
# (`:r1:`, `«r1»`, `_r_8_`, inside any prefix), Radix, Headless UI, Reach, MUI, Mantine, React Aria,
# Downshift, Vue's useId (`v-0-1`), Angular Material/CDK (`mat-input-3`), Ember (`ember12`),
# Bootstrap-vue (`__BVID__12`), and `id-<uuid>`. And a name with a random suffix of its own
# (`"record_" + randomString(5)`, `"field-" + Math.random().toString(36).slice(2, 7)`): a last segment
# of 4–12 letters and digits mixing upper and lower case (`record_dWBRl`), with a digit between letters
# (`field-k3j9x`), or capitals and digits (`record_7AAVJ`), which words (`tag-input`, `post_title`) and
# records' numbers and hashes (`post-42`, `tr-6d1a9f`) do not. And a widget's parts named for the widget
# kind with a number drawn per instance (`more-formatting-dropdown-btn-4176` beside its
# `…-dropdown-popover-4176`, `mode-toggle-rich-6308`, and as often `…-btn-23`; Stacks editor,
# Bootstrap/Popper wrappers): a record is named by what it is (`post-42`, `comment-1234`), not by a kind
# of control, and a toolkit's counter in render order (`dropdown-2`) is as well named by its place. Each
# load's copy was a control of its own, clicked again and again (corpus ho29_tasksmd: ~13 of 100 clicks).
_GENERATED_ID = re.compile(
    r"""
    [:«][rR][0-9a-zA-Z]*[:»]
    | (?:^|[^A-Za-z0-9])[rR]_[0-9a-z]+_(?:$|[^A-Za-z0-9])
    | ^(?:radix|headlessui|reach|mui|mantine|react-aria\d*|downshift)-
    | ^v-\d+(?:-\d+)*$
    | ^(?:mat|cdk)-[\w-]*-\d+$
    | ^ember\d+$
    | ^__BVID__\d+
    | ^id-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$
    | [_-](?=[A-Za-z0-9]{4,12}$)(?=[a-z0-9]*[A-Z])(?=[A-Z0-9]*[a-z])
    | [_-](?=[A-Za-z0-9]{4,12}$)(?![0-9a-fA-F]+$)[A-Za-z0-9]*[A-Za-z][0-9]+[A-Za-z]
    | [_-](?=[A-Za-z0-9]{4,12}$)(?![0-9A-F]+$)(?=[A-Z]*[0-9])(?=[0-9]*[A-Z])[A-Z0-9]+$
    | (?:^|[_-])(?:btn|button|dropdown|popover|popup|tooltip|toggle)(?:[_-][A-Za-z]+)*[_-]\d+$
    """,
    re.VERBOSE,
)
# A table cell's position names its column, a field of every row (a Copy button under "ID" and a menu
# under "Actions" are two controls): kept in a shape, unlike the positions of the rows themselves.
_NTH = re.compile(r"(?<!\btd)(?<!\bth):nth-of-type\(\d+\)")
_RECORD_ID = re.compile(r"#[A-Za-z_-]*\d[\w-]*")


def generated_id(ident: str) -> bool:
    """Whether an id is one a framework generates as it renders (it changes from load to load)."""
    return _GENERATED_ID.search(ident) is not None


def selector_shape(selector: str, *, positions: bool = False) -> str:
    """A `Selectors` selector without positions (`:nth-of-type`, but for a table cell's column; all
    kept with `positions`) and with ids
    holding a digit (a record's: `#tr-6d1a…`, `#post-42`) as `#<id>`: the control repeated in every
    item of a list, or side by side in a group, is one shape. Idempotent."""
    return _RECORD_ID.sub("#<id>", selector if positions else _NTH.sub("", selector))


class Selectors:
    """`css_selector` for many nodes of one tree in linear time: the children of each parent are
    counted once (not once per child, which a list of 100,000 links makes 10^10 steps), and the walk
    up from a node stops at the first ancestor with a usable id. Keep one per walk of a tree."""

    __slots__ = ("_steps",)

    def __init__(self) -> None:
        # id(element) → its own step of a selector (`li`, `li:nth-of-type(7)`); the tree outlives this
        self._steps: dict[int, str] = {}

    def _step(self, node: Node, parent: Node) -> str:
        step = self._steps.get(id(node))
        if step is None:
            totals = Counter(c.tag for c in parent.children if isinstance(c, Node))
            seen: Counter[str] = Counter()
            for child in parent.children:
                if isinstance(child, Node):
                    seen[child.tag] += 1
                    self._steps[id(child)] = (
                        child.tag if totals[child.tag] == 1 else f"{child.tag}:nth-of-type({seen[child.tag]})"
                    )
            step = self._steps[id(node)]
        return step

    def of(self, node: Node) -> str:
        """`#id` when `node` has a usable one (not `generated_id`), else an `:nth-of-type` path from
        the root (or from the nearest ancestor with a usable id)."""
        parts: list[str] = []
        current: Node | None = node
        while current is not None and current.tag != "#document":
            ident = current.get("id")
            if ident and _CSS_IDENT.fullmatch(ident) and not generated_id(ident):
                parts.append(f"#{ident}")
                break
            parent = current.parent
            if parent is None:
                parts.append(current.tag)
                break
            parts.append(self._step(current, parent))
            current = parent
        return " > ".join(reversed(parts))


def css_selector(node: Node) -> str:
    """A CSS selector for `node`: `#id` when it has a usable one, else an `:nth-of-type` path from the root.
    For many nodes of one tree, use one `Selectors` (linear in the tree, not quadratic)."""
    return Selectors().of(node)


def selected_option(select: Node) -> str | None:
    """The value a browser submits for a <select>: the selected option, else the first; its text when it
    has no value attribute. None for a select without options."""
    options = select.find_all("option")
    chosen = next((o for o in options if "selected" in o.attrs), options[0] if options else None)
    if chosen is None:
        return None
    return chosen.get("value") if "value" in chosen.attrs else chosen.text()


def at_path(top: Node, path: Sequence[int]) -> Node | None:
    """The element reached from `top` by element indexes (`path`, one a level), or None where one is
    out of range: the same place in another copy of a drawn structure (a row, a group)."""
    here = top
    for i in path:
        kids = here.elements
        if i >= len(kids):
            return None
        here = kids[i]
    return here


def own_rows(table: Node) -> Iterator[Node]:
    """A table's own rows in document order, its head's too (not those of a table nested in a cell)."""
    for node in table.iter():
        if node.tag == "tr" and next((a for a in node.ancestors() if a.tag == "table"), None) is table:
            yield node


def body_rows(table: Node) -> list[Node]:
    """A table's own rows in document order, outside its head (`own_rows` but a `thead`'s)."""
    return [r for r in own_rows(table) if not _in_head(r, table)]


def _in_head(row: Node, table: Node) -> bool:
    up = row.parent
    while up is not None and up is not table:
        if up.tag == "thead":
            return True
        up = up.parent
    return False


def colspan(cell: Node) -> int:
    """The columns a table cell declares it spans (`colspan`, 1 when absent or no positive whole number);
    each reader caps it as its layout needs."""
    value = cell.get("colspan").strip()
    return int(value) if value.isdigit() and int(value) > 0 else 1
