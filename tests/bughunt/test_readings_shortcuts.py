"""Shortcuts in a page's readings (issue 28, the step's path, seventh pass): each answers what the
plain definition it replaces answers, tested on random input against that definition."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bughunt.dom import Node, parse_html
from bughunt.oracles.count_labels import LABEL_CHARS, _innermost, parse_count, parse_range
from bughunt.oracles.link_targets import _URL_ATTRS, targets
from bughunt.page import FetchedPage

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


def _targets_as_defined(doc: Node) -> list[tuple[Node, str]]:
    out = []
    for node in doc.iter():
        if node.tag not in ("a", "link", "button", "li", "span", "div", "option"):
            continue
        href = next((node.get(a) for a in _URL_ATTRS if node.get(a)), "")
        if href and (node.tag in ("a", "link") or not node.get("href")):
            out.append((node, href))
    return out


def _random_page(rnd: random.Random) -> str:
    parts = []
    for _ in range(rnd.randint(1, 40)):
        tag = rnd.choice(("a", "link", "button", "li", "span", "div", "option", "p", "form", "td"))
        attrs = " ".join(
            f'{name}="{rnd.choice(("", "/x", "#", " "))}"' if rnd.random() < 0.8 else name
            for name in rnd.sample((*_URL_ATTRS, "class", "title"), rnd.randint(0, 4))
        )
        parts.append(f"<{tag} {attrs}>t" + ("" if rnd.random() < 0.3 else f"</{tag}>"))
    return "".join(parts)


@pytest.mark.parametrize("seed", range(4))
def test_the_targets_of_a_page_are_those_the_plain_walk_finds(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(300):
        doc = parse_html(_random_page(rnd))
        assert targets(doc) == _targets_as_defined(doc)


def _innermost_as_defined(doc: Node, parse: Callable[[str], tuple[Any, ...] | None]) -> list[Any]:
    """Count labels and range lines as every element's own `short_text` reads them."""
    found = []
    for node in doc.iter():
        if node.tag in ("script", "style", "title", "option", "#document", "html", "body"):
            continue
        text = node.short_text(LABEL_CHARS)
        parsed = parse(text) if text is not None else None
        if parsed and not any(parse(c.text()) for c in node.elements):
            found.append((node, *parsed))
    return found


_LABEL_TEXTS = ("Comments (3)", "12 articles", "Showing 1-10 of 42", "1 to 20 of 300 results", "x", "(7)", "")


def _random_counts_page(rnd: random.Random) -> FetchedPage:
    parts = []
    for _ in range(rnd.randint(1, 30)):
        tag = rnd.choice(("div", "span", "h2", "p", "li", "script", "option", "b"))
        inner = rnd.choice(_LABEL_TEXTS) + (
            f"<i>{rnd.choice(_LABEL_TEXTS)}</i>" if rnd.random() < 0.3 else ""
        )
        parts.append(f"<{tag}>{inner}" + ("" if rnd.random() < 0.4 else f"</{tag}>"))
    html = f"<html><head><title>t</title></head><body>{''.join(parts)}</body></html>"
    return FetchedPage("http://app.test/", "/", 200, {}, "text/html", html, 1.0)


@pytest.mark.parametrize("seed", range(4))
def test_count_labels_and_range_lines_are_those_each_element_reads_alone(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(200):
        p = _random_counts_page(rnd)
        assert _innermost(p, parse_count) == _innermost_as_defined(p.document, parse_count)
        assert _innermost(p, parse_range) == _innermost_as_defined(p.document, parse_range)
