"""What one walk of a page's tree gives every reader that selects from the whole page: `TreeFacts`.

The oracles, the action extraction and the step's reading each picked their own elements out of the
whole document — its forms, headings, tables, cells, scripts, metas, the elements that carry an
attribute, those with an inline event handler — each with a loop over every element of the page, ten
to twenty such loops a page. One walk, made the first time a reader asks and kept with the page
(`FetchedPage.derived`: a page loaded again unchanged shares it), groups the elements by tag and keeps
those with attributes and with handlers; the readers read the groups. Nothing here judges a page: these
are the tree's own facts, in document order, as `Node.find_all` would give them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bughunt.dom import Node
from bughunt.page import FetchedPage


@dataclass(frozen=True, slots=True, eq=False)
class TreeFacts:
    """One page's elements grouped as readers select them; read-only (tuples and a read-only map)."""

    by_tag: Mapping[str, tuple[Node, ...]]
    """Tag → the page's elements of that tag, in document order."""
    attributed: tuple[Node, ...]
    """The elements with at least one attribute, in document order: every link, form control and
    named container (most elements of a page carry none, and none of those leads anywhere)."""
    handlers: tuple[Node, ...]
    """The elements with an inline event handler attribute (`onclick`, `onerror`, …), in document order."""
    places: Mapping[int, int]
    """`id(element)` → its place in document order: to merge two groups as one walk would meet them."""

    def tagged(self, *tags: str) -> list[Node]:
        """The page's elements of these tags in document order: `page.document.find_all(*tags)`."""
        if len(tags) == 1:
            return list(self.by_tag.get(tags[0], ()))
        return self.in_order(n for tag in set(tags) for n in self.by_tag.get(tag, ()))

    def has(self, *tags: str) -> bool:
        """Whether the page has an element of any of these tags."""
        return any(tag in self.by_tag for tag in tags)

    def in_order(self, nodes: Iterable[Node]) -> list[Node]:
        """Elements of this page, each once, in document order."""
        places = self.places
        unique = {id(n): n for n in nodes}
        return sorted(unique.values(), key=lambda n: places[id(n)])


def tree_facts(page: FetchedPage) -> TreeFacts:
    """The page's tree facts, read by one walk the first time any reader asks (kept with the page)."""
    return page.derived(_read)


def _read(page: FetchedPage) -> TreeFacts:
    return read_tree(page.document)


def read_tree(root: Node) -> TreeFacts:
    """One walk of `root`'s tree (every element below it and itself, in document order)."""
    groups: dict[str, list[Node]] = {}
    attributed: list[Node] = []
    handlers: list[Node] = []
    places: dict[int, int] = {}
    for at, node in enumerate(root.iter()):
        places[id(node)] = at
        group = groups.get(node.tag)
        if group is None:
            groups[node.tag] = [node]
        else:
            group.append(node)
        attrs = node.attrs
        if attrs:
            attributed.append(node)
            if any(name.startswith("on") for name in attrs):
                handlers.append(node)
    return TreeFacts(
        by_tag=MappingProxyType({tag: tuple(nodes) for tag, nodes in groups.items()}),
        attributed=tuple(attributed),
        handlers=tuple(handlers),
        places=MappingProxyType(places),
    )
