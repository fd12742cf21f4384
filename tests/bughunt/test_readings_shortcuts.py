"""Shortcuts in a page's readings (issue 28, the step's path, seventh pass): each answers what the
plain definition it replaces answers, tested on random input against that definition."""

from __future__ import annotations

import random

import pytest

from bughunt.dom import Node

_CLASS_CHARS = " \t\nab-c_x\u00a0\u2003"  # ASCII and Unicode white space, as `str.split` reads both


def _signature_as_defined(node: Node) -> str:
    return node.tag + "".join(f".{c}" for c in sorted(node.classes))


@pytest.mark.parametrize("seed", range(4))
def test_an_elements_signature_is_its_tag_and_sorted_classes(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(5_000):
        attrs = {}
        if rnd.random() < 0.8:
            attrs["class"] = "".join(rnd.choice(_CLASS_CHARS) for _ in range(rnd.randint(0, 12)))
        node = Node(rnd.choice(("div", "a", "li")), attrs)
        assert node.signature() == _signature_as_defined(node), attrs
