"""Where on a page each link sits: the item of a list holding it (`actions.item_places`).

An item is an element repeated beside siblings of its own tag and classes that holds more than the
link; links of one place, one per item, lead to instances of one page type. Computed for every link
of a page in one pass (`ItemPlaces`), since a page of thousands of links shares most ancestors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from bughunt.dom import Node

T = TypeVar("T")

_CHROME_TAGS = frozenset(("nav", "header", "footer", "menu"))
_UNNAMED = frozenset(("#document", "html", "body"))
"""Elements `Node.path` leaves out."""
_CHROME_ROLES = frozenset(("navigation", "menu", "menubar", "tablist", "tab"))


def _down_from_known(node: Node | None, known: dict[Node, T], root: T, step: Callable[[Node, T], T]) -> T:
    """What `node` is, each element's made from its parent's by `step` and kept in `known` (keyed by
    the node itself: nodes hash by identity, without an `id()` call each): one walk up to the nearest
    ancestor already known (`root` above the document), then down."""
    unknown: list[Node] = []
    while node is not None and node not in known:
        unknown.append(node)
        node = node.parent
    value = known[node] if node is not None else root
    for up in reversed(unknown):
        value = known[up] = step(up, value)
    return value


class ItemPlaces:
    """`item_places` for every link of one page in linear time: the signatures of each parent's
    children are tallied once, and what is asked of an ancestor (does it hold two links, how much
    text) is computed once, however many links it holds."""

    __slots__ = ("_alike", "_signature", "_links", "_text", "_chrome", "_path", "_items")

    def __init__(self) -> None:
        # keyed by the elements themselves (they hash by identity); parent → signature tally of its children
        self._alike: dict[Node, dict[str, int]] = {}
        self._signature: dict[Node, str] = {}
        self._links: dict[Node, bool] = {}
        self._text: dict[Node, int] = {}
        self._chrome: dict[Node, bool] = {}
        self._path: dict[Node, str] = {}
        self._items: dict[Node, tuple[Node, ...]] = {}

    def signature(self, node: Node) -> str:
        known = self._signature.get(node)
        if known is None:
            known = self._signature[node] = node.signature()
        return known

    def _repeated(self, node: Node, parent: Node) -> bool:
        tally = self._alike.get(parent)
        if tally is None:
            # a plain dict, not a `Counter`: one is made for each parent of a link's ancestors
            tally = self._alike[parent] = {}
            signature = self.signature
            for child in parent.children:
                if isinstance(child, Node):
                    key = signature(child)
                    tally[key] = tally.get(key, 0) + 1
        return tally[self.signature(node)] >= 2

    def _two_links(self, node: Node) -> bool:
        known = self._links.get(node)
        if known is None:
            links = (n for n in node.iter() if n.tag == "a")
            known = self._links[node] = next(links, None) is not None and next(links, None) is not None
        return known

    def _text_size(self, node: Node) -> int:
        known = self._text.get(node)
        if known is None:
            known = self._text[node] = len(node.text())
        return known

    def _in_chrome(self, node: Node | None) -> bool:
        """Is `node` navigation chrome or inside it: asked once per element, however many links it holds."""
        return _down_from_known(
            node,
            self._chrome,
            False,
            lambda up, inside: inside or up.tag in _CHROME_TAGS or up.get("role") in _CHROME_ROLES,
        )

    def _path_of(self, node: Node) -> str:
        """`node.path()`, each step from its parent's (kept): the items of a page's lists share all
        but their last steps, and each ancestor's path is made once."""

        def step(up: Node, path: str) -> str:
            if up.tag in _UNNAMED:
                return path
            own = self.signature(up)
            return f"{path} > {own}" if path else own

        return _down_from_known(node, self._path, "", step)

    def _repeated_from(self, node: Node) -> tuple[Node, ...]:
        """`node` and its ancestors that are repeated beside their siblings (`_repeated`; not the
        document, `html` or `body`), nearest first: the elements a link below could be an item of.
        Asked once per element, however many links it holds (the links of a page share most of
        their ancestors, and a link outside every list walked up to the root)."""

        def step(up: Node, found: tuple[Node, ...]) -> tuple[Node, ...]:
            parent = up.parent
            if parent is not None and up.tag not in _UNNAMED and self._repeated(up, parent):
                return (up, *found)
            return found

        return _down_from_known(node, self._items, (), step)

    def place(self, link: Node) -> str | None:
        """Where in the items of a list `link` sits (`item_places`), or None: below the nearest
        repeated ancestor that holds more than the link (another link, or more text)."""
        parent = link.parent
        if parent is None or self._in_chrome(parent):
            return None
        for up in self._repeated_from(parent):
            if self._two_links(up) or self._text_size(up) > len(link.text()) + 3:
                chain = [link]
                below = parent
                while below is not up:
                    chain.append(below)
                    below = below.parent  # type: ignore[assignment]  # `up` is an ancestor
                inner = " > ".join(self.signature(n) for n in reversed(chain))
                return f"{self._path_of(up)} >> {inner}"
        return None
