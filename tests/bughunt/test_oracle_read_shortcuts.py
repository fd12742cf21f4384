"""Shortcuts of the oracles' readings (issue 28, session 26): each answers what the plain definition it
replaces answers, tested on random input against that definition."""

from __future__ import annotations

import random

import pytest

from bughunt import dom
from bughunt.dom import Node
from bughunt.oracles import count_labels, pager_reading

_TAGS = (
    "div",
    "span",
    "a",
    "li",
    "ul",
    "nav",
    "p",
    "td",
    "tr",
    "table",
    "button",
    "script",
    "b",
    "img",
    "br",
)


def _random_markup(rnd: random.Random) -> str:
    parts = []
    for _ in range(rnd.randint(0, 80)):
        tag = rnd.choice(_TAGS)
        r = rnd.random()
        if r < 0.35:
            attrs = rnd.choice(
                ("", ' class="pagination"', ' id="pager"', ' class="c1"', ' aria-label="Pages"')
            )
            parts.append(f"<{tag}{attrs}>")
        elif r < 0.6:
            parts.append(f"</{tag}>")
        elif r < 0.85:
            parts.append(
                rnd.choice(("2", "Next", " 12 items ", "Page 3", "a b c " * rnd.randint(1, 12), "<br>"))
            )
        else:
            parts.append(f"<{tag}>{rnd.choice(('Go to next page', 'x', '3', ''))}</{tag}>")
    return "".join(parts)


_NO_TEXT = ("script", "style", "template")


def _plain_short_words(order: list[Node]) -> dict[int, list[str] | None]:
    """The short words of every element as count labels read them before `parse_html` kept each
    element's text (one loop for every element)."""
    words: dict[int, list[str] | None] = {}
    for node in reversed(order):
        own: list[str] = []
        fits = True
        for child in node.children:
            if isinstance(child, str):
                own += child.split()
            elif child.tag not in _NO_TEXT:
                inner = words[id(child)]
                if inner is None:
                    fits = False
                    break
                own += inner
            if len(own) > count_labels.LABEL_CHARS // 2:
                fits = False
                break
        words[id(node)] = own if fits and len(" ".join(own)) <= count_labels.LABEL_CHARS else None
    return words


@pytest.mark.parametrize("seed", range(60))
def test_short_texts_kept_by_the_parse_are_those_of_the_plain_loop(seed: int) -> None:
    markup = _random_markup(random.Random(seed))
    order = list(dom.parse_html(markup).iter())
    plain = _plain_short_words(order)
    for node in order:
        words = plain[id(node)]
        assert node.short_text(count_labels.LABEL_CHARS) == (None if words is None else " ".join(words))
    # and every kept text is the text read afresh (a tree built by hand keeps none)
    for node in dom.parse_html(markup * 3).iter():
        fresh = node._read_text()
        assert node._text == (fresh if len(fresh) <= dom.KEPT_TEXT_CHARS else None)
        assert node.text() == fresh


@pytest.mark.parametrize("seed", range(60))
def test_an_element_the_pager_scan_skips_is_neither_named_nor_a_bar_of_page_controls(seed: int) -> None:
    named = '<div class="pagination"><a href="?page=2">2</a></div><nav aria-label="Pager">1</nav>'
    for node in dom.parse_html(named + _random_markup(random.Random(seed))).iter():
        if not node.attrs and len(node.children) < 2:  # what `_pager_nodes` skips unasked
            assert not pager_reading._named_pager(node)
            assert not pager_reading._page_buttons(node)


_RANGE_WORDS = (
    "Showing",
    "1",
    "10",
    "57",
    "to",
    "TO",
    "of",
    "OF",
    "Of",
    "-",
    "–",
    "/",
    "(",
    ")",
    "items",
    ".",
    "5",
)


def _plain_parse_range(text: str) -> tuple[int, int, int] | None:
    text = " ".join(text.split())
    first_sentence = count_labels._FIRST_SENTENCE.split(text, maxsplit=1)[0]
    match = (
        count_labels._RANGE.match(text)
        or count_labels._SLASHED.match(text)
        or count_labels._RANGE.match(first_sentence)
    )
    return (int(match.group("a")), int(match.group("b")), int(match.group("n"))) if match else None


@pytest.mark.parametrize("seed", range(40))
def test_a_range_line_is_read_as_the_plain_patterns_read_it(seed: int) -> None:
    rnd = random.Random(seed)
    texts = ["Showing 1 TO 10 OF 57 items", "(1-25/43)", "1 - 5 Of 5. Five users."]
    for _ in range(300):
        texts.append(rnd.choice(("", " ")).join(rnd.choice(_RANGE_WORDS) for _ in range(rnd.randint(1, 9))))
    for text in texts:
        assert count_labels.parse_range(text) == _plain_parse_range(text), text
