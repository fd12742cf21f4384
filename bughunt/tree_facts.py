"""What one walk of a page's tree gives every reader that selects from the whole page: `TreeFacts`.

The oracles, the action extraction and the step's reading each picked their own elements out of the
whole document — its forms, headings, tables, cells, scripts, metas, the elements that carry an
attribute — each with a loop over every element of the page, ten
to twenty such loops a page. One walk, made the first time a reader asks and kept with the page
(`FetchedPage.derived`: a page loaded again unchanged shares it), groups the elements by tag and keeps
those with attributes; the readers read the groups. Nothing here judges a page: these
are the tree's own facts, in document order, as `Node.find_all` would give them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType

from bughunt.dom import Node
from bughunt.page import FetchedPage
from bughunt.record_repr import field_repr

CODE_TAGS = ("code", "pre", "kbd", "samp", "var", "tt")
"""HTML's elements of computer code: what a program says (`a_tuple[0]`, `x.f(1)`, `purge()`), quoted in a
page — documentation, a diff, a log — never a label of the page's own interface."""


@dataclass(repr=False, frozen=True, eq=False)
class TreeFacts:
    """One page's elements grouped as readers select them; read-only (tuples and read-only maps)."""

    __repr__ = field_repr

    by_tag: Mapping[str, tuple[Node, ...]]
    """Tag → the page's elements of that tag, in document order."""
    attributed: tuple[Node, ...]
    """The elements with at least one attribute, in document order: every link, form control and
    named container (most elements of a page carry none, and none of those leads anywhere)."""
    order: tuple[Node, ...]
    """Every element, in document order (the root first)."""

    @cached_property
    def places(self) -> Mapping[int, int]:
        """`id(element)` → its place in document order: to merge groups as one walk would meet them."""
        return MappingProxyType({id(n): at for at, n in enumerate(self.order)})

    @cached_property
    def in_code(self) -> frozenset[int]:
        """`id(element)` of every element that is computer code or sits inside it (`CODE_TAGS`)."""
        return frozenset(id(n) for code in self.tagged(*CODE_TAGS) for n in code.iter())

    def tagged(self, *tags: str) -> list[Node]:
        """The page's elements of these tags in document order: `page.document.find_all(*tags)`."""
        by_tag = self.by_tag
        groups = [by_tag[tag] for tag in set(tags) if tag in by_tag]
        if len(groups) <= 1:  # most asks: one tag, or one of several the page has
            return list(groups[0]) if groups else []
        return self.in_order(n for group in groups for n in group)

    def has(self, *tags: str) -> bool:
        """Whether the page has an element of any of these tags."""
        return any(tag in self.by_tag for tag in tags)

    def in_order(self, nodes: Iterable[Node]) -> list[Node]:
        """Elements of this page, each once, in document order."""
        places = self.places
        placed = {places[id(n)]: n for n in nodes}  # each once: one place, one element
        return [placed[at] for at in sorted(placed)]


def tree_facts(page: FetchedPage) -> TreeFacts:
    """The page's tree facts, read by one walk the first time any reader asks (kept with the tree, for
    every page of the same body: `FetchedPage.tree_derived`)."""
    return page.tree_derived(read_tree)


def read_tree(root: Node) -> TreeFacts:
    """One walk of `root`'s tree (every element below it and itself, in document order)."""
    groups: dict[str, list[Node]] = {}
    attributed: list[Node] = []
    order = tuple(root.iter())
    for node in order:
        group = groups.get(node.tag)
        if group is None:
            groups[node.tag] = [node]
        else:
            group.append(node)
        if node.attrs:
            attributed.append(node)
    return TreeFacts(
        by_tag=MappingProxyType({tag: tuple(nodes) for tag, nodes in groups.items()}),
        attributed=tuple(attributed),
        order=order,
    )
