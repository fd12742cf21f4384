"""A noun's singular read against the words seen beside it (`bughunt/oracles/nouns.py`), and the count
oracles that compare nouns so: a count over one item named for it (`counted_list`), a usage line
against its table's title (`count_usage`). Words of English, made-up pages with generic markup."""

from __future__ import annotations

import pytest

from bughunt.oracles.count_usage import usage_mismatches
from bughunt.oracles.counts import check_count_mismatch
from bughunt.oracles.nouns import same_noun, singular
from bughunt.page import FetchedPage
from tests.support.pages import Site

SINGULARS = [
    ("posts", {"post"}, "post"),
    ("Entries", {"entry"}, "entry"),
    ("boxes", {"box"}, "box"),
    ("classes", {"class"}, "class"),
    ("news", {"news"}, "news"),
    ("status", {"status"}, "status"),
    ("aliases", {"alias"}, "alias"),
    ("categories", {"Category"}, "category"),
    ("series", {"series"}, "series"),
    ("addresses", {"address"}, "address"),
    ("address", {"address"}, "address"),
    ("cases", {"case"}, "case"),
    ("replies", {"comment", "reply"}, "reply"),
]


@pytest.mark.parametrize(("word", "seen", "expected"), SINGULARS)
def test_the_singular_is_the_form_of_the_word_that_is_seen(word: str, seen: set[str], expected: str) -> None:
    assert singular(word, seen) == expected


@pytest.mark.parametrize(
    ("word", "seen"),
    [
        ("post", {"posts"}),  # one way: a seen plural is no singular of the word
        ("posts", {"poster"}),
        ("status", {"state"}),
        ("is", {"i"}),  # too short a stem to be a word
    ],
)
def test_no_singular_when_no_seen_word_is_one_of_its_forms(word: str, seen: set[str]) -> None:
    assert singular(word, seen) is None


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("post", "posts", True),
        ("Drafts", "draft", True),
        ("entry", "entries", True),
        ("box", "boxes", True),
        ("class", "classes", True),
        ("alias", "Aliases", True),
        ("category", "categories", True),
        ("address", "addresses", True),
        ("news", "news", True),
        ("status", "statuses", True),
        ("series", "series", True),
        ("post", "poster", False),
        ("entry", "entrie", False),
        ("inactive", "active", False),
    ],
)
def test_two_words_name_the_same_things_singular_or_plural_alike(a: str, b: str, same: bool) -> None:
    assert same_noun(a, b) is same and same_noun(b, a) is same


BLOG = Site("http://blog.test", "<html><head><title>Blog</title></head><body><main>", "</main></body></html>")


def thread(count: str, inner: str) -> FetchedPage:
    return BLOG.page(
        f'<h2 id="replies">{count}</h2><div id="thread">{inner}</div>',
        "/topics/7",
    )


def _reply(n: int) -> str:
    return f'<div class="reply"><small>Ann said:</small><p>Reply number {n}, nothing more.</p></div>'


def test_a_count_over_one_item_of_its_nouns_singular_is_compared() -> None:
    # "2 replies" over one `div.reply`: the class is the noun's singular (-ies → -y), the item is one
    [found] = check_count_mismatch(thread("2 replies", _reply(1)))
    assert (found.evidence["shown"], found.evidence["listed"]) == (2, 1)
    assert check_count_mismatch(thread("1 reply", _reply(1))) == []


def test_a_box_named_for_the_plural_is_a_wrapper_of_the_items_not_one_of_them() -> None:
    # "1 reply" over `div.replies` holding two replies: the box is no reply, its two are counted
    inner = f'<div class="replies">{_reply(1)}{_reply(2)}</div>'
    [found] = check_count_mismatch(thread("1 reply", inner))
    assert (found.evidence["shown"], found.evidence["listed"]) == (1, 2)


def _overview(said: int) -> FetchedPage:
    rows = "".join(f"<tr><td>Category {n}</td><td>{n} posts</td></tr>" for n in range(3))
    return BLOG.page(
        f"<ul><li>Categories: {said} / 10</li></ul>"
        f'<table><tr><th colspan="2">:: Category</th></tr><tr><th>Name</th><th>Posts</th></tr>{rows}</table>',
        "/admin",
    )


def test_a_usage_line_in_the_plural_names_a_table_titled_in_the_singular() -> None:
    assert [(n.text(), a, b) for n, a, b in usage_mismatches(_overview(2))] == [("Categories: 2 / 10", 2, 3)]
    assert usage_mismatches(_overview(3)) == []
