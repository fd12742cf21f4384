"""Where a resource page shows an edit form's fields when nothing on it names them.

A page often shows a stored value in an unmarked element (a summary in a bare `<p>` under the title):
no class, id or label says which field it is, so `form_values.shown_value` cannot find it. Its *position*
can: forms list their fields in the order pages show them. When an empty text field sits between two
filled fields of the form, and the resource page shows both neighbours' values in the same order with
text in between that no field of the form holds, that text is the empty field's stored value.

The text blocks of a page are its elements' own text with inline children, outside furniture (nav,
header, footer, forms, scripts), outside controls (buttons, labels, options) and outside links to
other pages (an author's name links to the author: it names another resource). Between the
neighbours, a block counts only when it reads as content: two or more words, not a date, a time or a
count, and not text the edit page itself shows outside its form (the site's own furniture), nor
text another instance of the resource's template shows as well (the template's own words: `forms`
opens one such sibling when memory knows it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from bughunt.dom import Node
from bughunt.oracles.reading import resolve
from bughunt.urls import hash_route

_FURNITURE = frozenset({"nav", "footer", "form", "script", "style", "head", "template", "noscript"})
_CONTROLS = frozenset({"button", "label", "select", "option", "textarea", "input", "svg", "title"})
_INLINE = frozenset(
    "a abbr b bdi bdo br cite code data dfn em i kbd mark q s samp small span strong sub sup time u var wbr".split()
)
_VOLATILE = frozenset(
    "jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june july august "
    "september october november december mon tue wed thu fri sat sun monday tuesday wednesday thursday "
    "friday saturday sunday am pm ago at on of min mins minute minutes hour hours day days week weeks "
    "month months year years today yesterday read".split()
)
_WORD = re.compile(r"\w+")
MIN_WORDS = 2


class Block(NamedTuple):
    text: str
    words: frozenset[str]
    parent: int = 0
    """Identity of the element holding the block's element: blocks of one parent are siblings."""


def _words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.casefold()))


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(text.casefold()))


def _is_reference(node: Node, base: str, resource: str) -> bool:
    """A link to another page (its text names that page, not a value of this one), a script link or
    an in-page jump; a link to the resource itself (a preview's title) is content."""
    href = node.get("href")
    if node.tag != "a" or not href:
        return False
    if href.startswith("javascript:") or (href.startswith("#") and not hash_route(href[1:])):
        return True  # a control, or a jump to a place on this page: the page's furniture
    target = resolve(base, href)
    return target is not None and _page_key(target) != _page_key(resource)


def _page_key(url: str) -> str:
    """A URL as the page it names: a single-page app's hash route counts, a plain anchor does not."""
    path, _, fragment = url.partition("#")
    return path.rstrip("/") + ("#" + fragment.rstrip("/") if hash_route(fragment) else "")


def _skipped(node: Node, base: str, resource: str, furniture: frozenset[str] = _FURNITURE) -> bool:
    if node.tag == "header" and furniture is _FURNITURE:
        # The page's banner is furniture; an article's own header holds its title.
        return not any(a.tag in ("article", "main") for a in node.ancestors())
    return node.tag in furniture or node.tag in _CONTROLS or _is_reference(node, base, resource)


def _has_block_child(node: Node) -> bool:
    return any(c.tag not in _INLINE for c in node.iter() if c is not node)


def blocks(doc: Node, base: str, resource: str, furniture: frozenset[str] = _FURNITURE) -> list[Block]:
    """The page's text blocks in document order (see the module docstring); `furniture` the
    elements skipped with their content."""
    out: list[Block] = []
    stack: list[Node] = [doc]
    while stack:
        node = stack.pop()
        if _skipped(node, base, resource, furniture):
            continue
        inline_text: list[str] = []
        children: list[Node] = []
        for child in node.children:
            if isinstance(child, str):
                inline_text.append(child)
            elif child.tag in _INLINE and not _has_block_child(child):
                if not _skipped(child, base, resource, furniture):
                    inline_text.append(_inline_text(child, base, resource, furniture))
            else:
                children.append(child)
        text = " ".join(" ".join(inline_text).split())
        if text:
            out.append(Block(text, _words(text), id(node.parent)))
        stack.extend(reversed(children))
    return out


def _inline_text(node: Node, base: str, resource: str, furniture: frozenset[str]) -> str:
    parts: list[str] = []
    for child in node.children:
        if isinstance(child, str):
            parts.append(child)
        elif not _skipped(child, base, resource, furniture):
            parts.append(_inline_text(child, base, resource, furniture))
    return " ".join(parts)


_LABELLED = re.compile(r"^[^:]{1,40}:\s*(?P<value>\S.*)$", re.S)
"""A line that names what it shows before a colon ("User: ann", "Email: ann@example.test")."""


def holds(value: str, block: Block) -> bool:
    """A field's value holds a block: the same text, or every word of the block is one of the value's
    (a rendered markdown body, a tag of a comma-separated list), or the block is the value under a
    label of its own ("User: ann" for a username field: a profile's heading)."""
    if not value or not block.words:
        return False
    if _norm(value) == _norm(block.text) or block.words <= _words(value):
        return True
    labelled = _LABELLED.match(block.text)
    return labelled is not None and _norm(labelled.group("value")) == _norm(value)


def _content_like(block: Block) -> bool:
    letters = [w for w in block.words if not w.isdigit()]
    return len(letters) >= MIN_WORDS and not set(letters) <= _VOLATILE


def unlabelled_values(
    fields: Sequence[tuple[str, str]],
    index: int,
    shown: Sequence[Block],
    furniture: set[str],
    *,
    preview: bool = False,
) -> list[str]:
    """The texts `shown` (a resource page's blocks) has where field `index` of `fields` ((name,
    value) in form order; that field empty) would show, judged by its filled neighbours; [] when
    there is no "between" (a neighbour not shown, or shown out of order). A record's `preview` in a
    list shows its leading fields and leaves the rest out (a title and its summary, not the body):
    there the block right after the field before stands for it though filled fields follow unshown."""
    values = [v for _, v in fields]

    def positions(i: int) -> list[int]:
        return [n for n, b in enumerate(shown) if holds(values[i], b)]

    before = next((p for i in range(index - 1, -1, -1) if values[i] and (p := positions(i))), None)
    after_field = next((i for i in range(index + 1, len(values)) if values[i] and positions(i)), None)
    if before is None:
        return []
    start = _shown_at(before)
    if after_field is None:
        # Only a field no filled one follows: a filled field the page does not show might stand there.
        return (
            [] if any(values[index + 1 :]) and not preview else _last_shown(values, shown, start, furniture)
        )
    after = [p for p in positions(after_field) if p > start and p not in before]
    if not after:
        return []
    return [
        block.text
        for block in shown[start + 1 : min(after)]
        if _content_like(block)
        # a line labelling itself ("Swimlane: Default") is another field's value, as after the last one
        and not _SELF_LABELLED.match(block.text)
        and _norm(block.text) not in furniture
        and not any(holds(v, block) for v in values if v)
    ]


_SELF_LABELLED = re.compile(r"^[^:]{1,40}:\s*\S")


def _shown_at(positions: list[int]) -> int:
    """Where a value is shown among the blocks that hold it: the first block of the longest run of
    consecutive ones. A body rendered as several paragraphs holds every short block made of its words
    too (the project's name in the menu, "open" in a sidebar): the run of its paragraphs is where it
    stands. A value shown whole in one block (a title in the heading and the breadcrumb) is first shown
    at its first."""
    best, best_len = positions[0], 0
    run_start, run_len = positions[0], 0
    for at, p in enumerate(positions):
        if at and p == positions[at - 1] + 1:
            run_len += 1
        else:
            run_start, run_len = p, 1
        if run_len > best_len:
            best, best_len = run_start, run_len
    return best


def _last_shown(values: Sequence[str], shown: Sequence[Block], start: int, furniture: set[str]) -> list[str]:
    """An empty field that ends the form, after the last filled one the page shows (an "about me"
    under the name it follows):
    the page's next block, when it stands beside that neighbour's block in one element (the record's
    own part, not a list of comments further down), reads as content and is no line labelling itself
    as another field ("Member since: …")."""
    after = shown[start + 1 : start + 2]
    if not after or after[0].parent != shown[start].parent:
        return []
    block = after[0]
    if (
        not _content_like(block)
        or _SELF_LABELLED.match(block.text)
        or _norm(block.text) in furniture
        or any(holds(v, block) for v in values if v)
    ):
        return []
    return [block.text]


def normalised(text: str) -> str:
    return _norm(text)


def page_texts(doc: Node, base: str, url: str) -> set[str]:
    """Normalised texts of a page's blocks outside its forms, nav and footer included (what the edit
    page shows besides its form is the site's furniture)."""
    return {_norm(b.text) for b in blocks(doc, base, url, furniture=frozenset({"form", "script", "style"}))}
