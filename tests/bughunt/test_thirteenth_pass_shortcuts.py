"""Shortcuts of the thirteenth pass (issue 28, the steady cost a fetch): each answers what the plain
definition it replaces answers, tested on random input against that definition."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bughunt import dom
from bughunt.dom import Node
from bughunt.oracles import destructive_words

_TAGS = ("div", "span", "a", "li", "ul", "p", "table", "tr", "td", "form", "select", "option", "script", "b")


def _random_markup(rnd: random.Random) -> str:
    parts = []
    for _ in range(rnd.randint(0, 80)):
        tag = rnd.choice(_TAGS)
        r = rnd.random()
        if r < 0.45:
            parts.append(f'<{tag} class="c{rnd.randint(0, 3)}">')
        elif r < 0.75:
            parts.append(f"</{tag}>")
        elif r < 0.85:
            parts.append(rnd.choice(("text", " ", "<!-- c -->", "<br>", "<!doctype html>", "&amp;")))
        else:
            parts.append(f"<{tag}>x</{tag}>")
    return "".join(parts)


def _walked(node: Node) -> list[Node]:
    """The node and its descendant elements in document order, read off `children` (nothing kept)."""
    out, stack = [], [node]
    while stack:
        current = stack.pop()
        out.append(current)
        stack.extend(c for c in reversed(current.children) if isinstance(c, Node))
    return out


def _random_caps(rnd: random.Random, i: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every third parse under small caps: children hung on an ancestor past the depth, a page cut short."""
    if i % 3 == 0:
        monkeypatch.setattr(dom, "MAX_DEPTH", rnd.randint(2, 6))
        monkeypatch.setattr(dom, "MAX_NODES", rnd.randint(5, 60))
    else:
        monkeypatch.undo()


@pytest.mark.parametrize("seed", range(4))
def test_a_parsed_nodes_kept_children_and_subtree_are_those_of_its_tree(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rnd = random.Random(seed)
    for i in range(300):
        _random_caps(rnd, i, monkeypatch)
        root = dom.parse_html(_random_markup(rnd) * rnd.randint(1, 3))
        for node in _walked(root):
            assert node.elements == [c for c in node.children if isinstance(c, Node)]
            assert all(a is b for a, b in zip(node.iter(), _walked(node), strict=True))
            assert node.find_all("a", "li") == [n for n in _walked(node) if n.tag in ("a", "li")]


def test_a_list_of_elements_changed_by_its_caller_leaves_the_tree_as_it_was() -> None:
    root = dom.parse_html("<ul><li>a</li><li>b</li></ul>")
    ul = root.find_all("ul")[0]
    items = ul.elements
    items.pop()
    items.append(Node("li"))
    assert [n.text() for n in ul.elements] == ["a", "b"]


def test_a_tree_built_by_hand_is_read_as_it_is_now() -> None:
    # no parse behind it: its children may still change, so nothing is kept for it
    parent = Node("ul")
    first = Node("li", parent=parent)
    parent.children.append(first)
    assert parent.elements == [first]
    second = Node("li", parent=parent)
    parent.children.append(second)
    assert parent.elements == [first, second]
    assert list(parent.children[0].iter()) == [first]


_LETTERS = "abcdeilmnoprstuvwyzACDEILMNOPRSTUVWYZ /-?=_.0"


@pytest.mark.parametrize("seed", range(3))
def test_the_destructive_first_look_answers_as_the_case_blind_search(seed: int) -> None:
    rnd = random.Random(seed)
    verbs = sorted(destructive_words.VERBS | destructive_words.ACCOUNT_VERBS)
    # Unicode's case folding: a long s is an `s`, the Kelvin sign a `k`, a dotted capital I an `i`
    odd = ("ſ", "\u212a", "İ", "ı", "é", "ß")
    for _ in range(3000):
        text = "".join(rnd.choice(_LETTERS) for _ in range(rnd.randint(0, 30)))
        if rnd.random() < 0.4:
            verb = rnd.choice(verbs)
            verb = "".join(c.upper() if rnd.random() < 0.5 else c for c in verb)
            if rnd.random() < 0.3:
                at = rnd.randrange(len(verb))
                verb = verb[:at] + rnd.choice(odd) + verb[at + 1 :]
            text = text[: len(text) // 2] + verb + text[len(text) // 2 :]
        expected = destructive_words.MAY_DESTROY.search(text) is not None
        assert destructive_words.may_destroy(text) == expected, text
    assert destructive_words.may_destroy("DEſTROY") and destructive_words.may_destroy("unlin\u212a")


def test_a_parsed_node_has_every_field_a_node_made_by_hand_has() -> None:
    # the parse makes its nodes without `Node.__init__`: a field it forgot would be unset
    root = dom.parse_html('<div class="a"><p>x</p><script>1</script></div>')
    made = Node("p")
    for node in _walked(root):
        for f in dataclasses.fields(Node):
            getattr(node, f.name)  # raises AttributeError when unset
        assert type(node.line) is int and type(node.attrs) is dict
    assert {f.name for f in dataclasses.fields(Node)} == set(Node.__slots__)
    assert made._elements is None and root.find_all("p")[0]._elements == []


def _by_hand(node: Node, parent: Node | None = None) -> Node:
    """A copy of `node`'s subtree built by hand (`Node.__init__`: nothing kept, as no parse made it)."""
    copy = Node(node.tag, dict(node.attrs), parent=parent)
    copy.children = [c if isinstance(c, str) else _by_hand(c, copy) for c in node.children]
    return copy


@pytest.mark.parametrize("seed", range(3))
def test_the_digests_a_parse_keeps_are_those_a_walk_of_the_tree_makes(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `parse_html` hashes every element as it reads its place and text; `structure_hash` of a tree
    # built by hand walks it. The same digest for the page and for each of its subtrees (an item's
    # structure is asked of a parsed element), with the caps too.
    rnd = random.Random(seed)
    hashed = 0
    for i in range(150):
        _random_caps(rnd, i, monkeypatch)
        markup = _random_markup(rnd) * rnd.randint(1, 3)
        if rnd.random() < 0.3:  # attributes the digest reads and those it leaves out, values too long to keep
            markup += f'<input type="checkbox" checked id=":r{i}:" name="n" data-x="{"v" * 600}"><noscript><b></b></noscript>'
        root = dom.parse_html(markup)
        for node in _walked(root):
            assert node._digest is not None or node is root and not root.children  # an empty page: none
            assert dom.structure_hash(node) == dom.structure_hash(_by_hand(node))
            hashed += 1
    assert hashed > 1000


def test_a_head_with_long_values_is_hashed_but_never_kept_by_the_memo() -> None:
    # `_digest` looks a head up before it measures its values: a page of long values (inline data,
    # a style) must still not fill the process's memo with them, and hashes as a walk of it does
    long = "v" * (dom._MEMO_VALUE_CHARS + 1)
    markup = f'<div class="c" data-x="{long}"><span title="{long}">a</span><i>b</i></div><p id="p">t</p>'
    root = dom.parse_html(markup)
    kept = list(dom._HEADS)
    assert kept and all(sum(len(value) for _, value in key[1:]) <= dom._MEMO_VALUE_CHARS for key in kept)
    assert dom.structure_hash(root) == dom.structure_hash(_by_hand(root))
    assert dom.parse_html(markup)._digest == root._digest  # the second parse, from the memos
