"""Shortcuts on the step's path (issue 28, eighth pass): each answers what the plain definition it
replaces answers, tested on random input against that definition."""

from __future__ import annotations

import hashlib
import random

import pytest

from bughunt import dom
from bughunt.dom import Node, generated_id, parse_html
from bughunt.explorer.secrets import Scrubber
from bughunt.item_places import ItemPlaces
from tests.support.scrubbing import scrubbed_as_defined

_TEXT_CHARS = "ab-_/%=+ .\u00e9"


@pytest.mark.parametrize("seed", range(4))
def test_a_scrubbed_text_is_the_one_scan_of_every_form(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(300):
        secrets = ["".join(rnd.choice(_TEXT_CHARS) for _ in range(rnd.randint(2, 9))) for _ in range(3)]
        scrubber = Scrubber(secrets)
        for _ in range(20):
            pieces = [rnd.choice((*secrets, "x", "/", "%2F", " ", "ab")) for _ in range(rnd.randint(0, 6))]
            text = "".join(pieces)[: rnd.randint(0, 30)]
            assert scrubber.text(text) == scrubbed_as_defined(secrets, text), (secrets, text)


def _structure_hash_as_defined(root: Node) -> str:
    """Bottom-up, nothing kept between pages (the first definition, recursive: small trees only)."""

    def digest(node: Node) -> bytes:
        head = node.tag + "\0"
        head += "\0".join(
            sorted(
                f"{k}={' '.join(sorted(v.split())) if k == 'class' else v}"
                if k in ("id", "class", "role", "type", "name") and not (k == "id" and generated_id(v))
                else k
                for k, v in node.attrs.items()
                if k not in ("checked", "selected")
            )
        )
        seen: dict[bytes, None] = {}
        for child in node.children:
            if isinstance(child, Node) and child.tag not in ("script", "style", "template", "noscript"):
                seen.setdefault(digest(child), None)
        h = hashlib.blake2b(head.encode("utf-8", "replace") + b"\1", digest_size=16)
        for d in seen:
            h.update(d)
        return h.digest()

    return digest(root).hex()


def _random_markup(rnd: random.Random) -> str:
    parts = []
    for _ in range(rnd.randint(0, 30)):
        tag = rnd.choice(("div", "a", "li", "ul", "span", "input", "script", "form", "p"))
        attrs = " ".join(
            f'{name}="{rnd.choice(("", "x", "a b", "b  a", ":r1:", "7", "/x", "long " * 120))}"'
            for name in rnd.sample(
                ("id", "class", "role", "type", "href", "checked", "name", "title"), rnd.randint(0, 3)
            )
        )
        parts.append(f"<{tag} {attrs}>t" + ("" if rnd.random() < 0.4 else f"</{tag}>"))
    return "".join(parts)


@pytest.mark.parametrize("seed", range(4))
def test_the_structure_hash_kept_across_pages_is_the_one_of_each_page_alone(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rnd = random.Random(seed)
    # a small bound: the memos start afresh many times within the test
    monkeypatch.setattr(dom, "_MEMO_ENTRIES", rnd.choice((2, 16, 8192)))
    pages = [_random_markup(rnd) for _ in range(40)]
    for _ in range(3):
        for markup in rnd.sample(pages, len(pages)):
            root = parse_html(markup)
            assert dom.structure_hash(root) == _structure_hash_as_defined(root), markup


def _place_as_defined(link: Node) -> str | None:
    """`item_places`' docstring, walked up from the link with nothing kept."""
    around = [link.parent, *link.parent.ancestors()] if link.parent is not None else []
    if any(n.tag in ("nav", "header", "footer", "menu") or n.get("role") in _CHROME_ROLES for n in around):
        return None
    chain = [link]
    for up in link.ancestors():
        parent = up.parent
        if parent is not None and up.tag not in ("#document", "html", "body"):
            alike = sum(1 for c in parent.elements if c.signature() == up.signature())
            links = sum(1 for n in up.iter() if n.tag == "a")
            if alike >= 2 and (links >= 2 or len(up.text()) > len(link.text()) + 3):
                return f"{up.path()} >> {' > '.join(n.signature() for n in reversed(chain))}"
        chain.append(up)
    return None


_CHROME_ROLES = ("navigation", "menu", "menubar", "tablist", "tab")


def _random_lists(rnd: random.Random, depth: int = 0) -> str:
    parts = []
    for _ in range(rnd.randint(1, 4)):
        tag = rnd.choice(("div", "li", "ul", "p", "nav", "span", "a", "section"))
        cls = rnd.choice(("", ' class="item"', ' class="card x"', ' role="menu"', ' role="tab"'))
        inner = (
            _random_lists(rnd, depth + 1)
            if depth < 3 and rnd.random() < 0.6
            else rnd.choice(("", "t", "words here"))
        )
        extra = '<a href="/x">go</a>' if rnd.random() < 0.5 else ""
        parts.append(f"<{tag}{cls}>{inner}{extra}</{tag}>" * rnd.choice((1, 1, 2, 3)))
    return "".join(parts)


@pytest.mark.parametrize("seed", range(6))
def test_a_links_item_place_is_the_one_its_ancestors_give(seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(100):
        root = parse_html(_random_lists(rnd))
        places = ItemPlaces()
        links = [n for n in root.iter() if n.tag == "a"]
        for link in rnd.sample(links, len(links)):  # in any order: what is kept serves the next
            assert places.place(link) == _place_as_defined(link)
