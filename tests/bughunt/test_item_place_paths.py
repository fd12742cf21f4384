"""`ItemPlaces._path_of` (each element's path made from its parent's) answers `Node.path()`."""

from __future__ import annotations

from bughunt.dom import parse_html
from bughunt.item_places import ItemPlaces

PAGE = """<!doctype html><html><body>
<main class="content wide"><section id="a"><ul class="list"><li class="item"><a href="/1">one</a>
<span>by <a href="/u/1">ann</a></span></li><li class="item"><a href="/2">two</a></li></ul></section>
<div><div class="  "><table><tr><td><p>deep <em>text</em></p></td></tr></table></div></div></main>
<body><footer><nav class="b a"><a href="/x">x</a></nav></footer></body>
</body></html>"""


def test_path_of_answers_node_path_for_every_element_in_any_order() -> None:
    root = parse_html(PAGE)
    elements = list(root.iter())
    # deepest first, then shallowest first: a path is made from kept parents' paths either way
    for order in (reversed(elements), iter(elements)):
        places = ItemPlaces()
        for node in order:
            assert places._path_of(node) == node.path(), node.tag
    assert ItemPlaces()._path_of(root) == ""
    em = next(n for n in elements if n.tag == "em")
    assert ItemPlaces()._path_of(em) == "main.content.wide > div > div > table > tbody > tr > td > p > em"
