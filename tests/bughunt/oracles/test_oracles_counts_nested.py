"""A count's nested items (`_with_nested`: a threaded "Comments (5)" counts the replies too) are
counted as the plain definition counts them — every element below an item whose kind is an item's —
whatever the tags, including ones whose names hold the characters a kind is spelled with."""

from __future__ import annotations

import random

from bughunt.dom import Node
from bughunt.oracles.counted_list import _kind, _with_nested

TAGS = ("li", "div", "article", "tr", "p", "a", "span", "h3", "my-el", "a.b", "li#x", "div.c", "x y")
CLASSES = ("", "c", "b", "c b", "reply", "x")


def plain(items: list[Node]) -> int:
    kinds = {_kind(i) for i in items}
    return len(items) + sum(1 for i in items for n in i.iter() if n is not i and _kind(n) in kinds)


def tree(rng: random.Random, depth: int, parent: Node | None = None) -> Node:
    cls = rng.choice(CLASSES)
    attrs = {"class": cls} if cls else {}
    if rng.random() < 0.2:
        attrs["id"] = f"comment-{rng.randrange(9)}"
    node = Node(rng.choice(TAGS), attrs, parent=parent)
    for _ in range(rng.randrange(4) if depth else 0):
        node.children.append(tree(rng, depth - 1, node))
        if rng.random() < 0.3:
            node.children.append("text")
    return node


def test_nested_items_counted_as_the_plain_definition() -> None:
    rng = random.Random(28)
    for _ in range(3000):
        root = tree(rng, 4)
        items = root.elements or [root]
        assert _with_nested(items) == plain(items)


def test_a_tag_spelled_like_a_kind_is_still_that_kind() -> None:
    # `<a class="b">` is of kind "a.b"; so is an element whose tag is "a.b" (no classes)
    item = Node("a", {"class": "b"})
    item.children.append(Node("a.b", parent=item))
    assert _with_nested([item]) == plain([item]) == 2
    reply = Node("li", {"class": "reply"})
    reply.children.append(Node("li", {"class": "reply"}, parent=reply))
    assert _with_nested([reply]) == 2
