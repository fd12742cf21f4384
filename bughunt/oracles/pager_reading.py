"""Reading a list's pager: its controls, the ways on to the next page, the list's other pages, its
first page's number, and whether the list is paged at all.

A pager counts as paging only when it leads to another page (`other_pages`): « 1 » with disabled
arrows pages nothing. Moved whole from `lists.py` (which re-exports these names).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from bughunt.dom import Node
from bughunt.oracles.link_targets import _URL_ATTRS, targets
from bughunt.oracles.list_finding import find_lists, is_pager
from bughunt.oracles.offset_steps import offset_pagers
from bughunt.oracles.reading import (
    list_page_key,
    named_page,
    names_later_page,
    numbered_page_of,
    resolve,
)
from bughunt.page import FetchedPage, base_url, tree_reading
from bughunt.tree_facts import tree_facts

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
    return origin if not label.strip() and _icon_way_on(active_controls(pagers)) else None


def pager_ways_on(page: FetchedPage) -> list[Node]:
    """The controls of the page's pager that lead to its next page: those that read as the next or
    the second page ("2", "Next", "›"), else, on an icon-only pager's first page, its one enabled
    control without words (each copy of it: a pager drawn above and below its table)."""
    return list(page.derived(_pager_ways_on))


def _pager_ways_on(page: FetchedPage) -> list[Node]:
    pagers = pager_nodes(page)
    controls = active_controls(pagers)
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


_LATER_WORDS = re.compile(r"^[^\w\s]*\s*(?:next|older|earlier)\b[\w\s]{0,20}[^\w\s]*$", re.I)


def reads_later(label: str) -> bool:
    """Whether a control's words say it opens the list's later rows: "Next", "↓ Older...", "Older
    posts »", "Earlier entries" (a list newest first names its next page for what it holds)."""
    return bool(_LATER_WORDS.match(" ".join(label.split())))


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


def active_controls(pagers: list[Node]) -> list[Node]:
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


@tree_reading
def _pager_nodes(page: FetchedPage) -> list[Node]:
    root = page.document
    found = [c for c, items in find_lists(root) if is_pager(c, items)]
    ids = {id(c) for c in found}
    # Only an element with attributes can be named a pager (`_named_pager`), and a bar of controls
    # (`_page_buttons`) is the parent of links or buttons: those, in document order, not every element.
    facts = tree_facts(page)
    bars = (n.parent for n in facts.tagged("a", "button") if n.parent is not None)
    named = (n for n in facts.attributed if _named_pager(n))
    for node in facts.in_order([*named, *(b for b in bars if len(b.children) >= 2)]):
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
    if len(node.children) < 2:
        return False  # most elements asked (every one of the page): fewer children, fewer controls
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
    if offset_pagers(page):
        return True  # its links step a key by a page's rows (`offset_steps`), whatever it is called
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
        # most links have no rel: no set made for them
        if n.tag in ("a", "link")
        and n.get("rel")
        and {"next", "prev", "previous"} & set(n.get("rel").lower().split())
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
