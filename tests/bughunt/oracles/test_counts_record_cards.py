"""A card's count against its record's own page (`bughunt/oracles/count_records.py`): a forum's topic
list says "3 replies" on a topic's card, the topic's page — the card's title link — says "2 replies"
over its two replies. Made-up forum, generic markup (a card is an `article` with a heading link and a
count beside it; the topic page states its own count)."""

from __future__ import annotations

import pytest

from bughunt.oracles.count_targets import item_counts
from bughunt.oracles.counts import check_count_mismatch
from bughunt.page import FetchedPage
from tests.support.pages import Site

FORUM = Site("http://forum.test", "<html><head><title>Forum</title></head><body>", "</body></html>")

REPLIES = {"tabs-or-spaces-7": 2, "slow-queries-6": 0, "dark-mode-5": 4}


def plural(n: int) -> str:
    return f"{n} {'reply' if n == 1 else 'replies'}"


def card(slug: str, shown: int) -> str:
    title = slug.rsplit("-", 1)[0].replace("-", " ").title()
    return (
        f'<article class="media"><div class="media-content"><h4><a href="/topics/{slug}">{title}</a>'
        f'<span class="tag">Help</span></h4><p><strong>ann</strong> posted 2 days ago</p></div>'
        f'<div class="media-right"><span class="muted">{plural(shown)}</span></div></article>'
    )


def topic_list(path: str, extra: int = 0) -> FetchedPage:
    cards = "".join(card(slug, n + extra) for slug, n in REPLIES.items())
    return FORUM.page(
        '<nav><a href="/">Recent</a> <a href="/tags/help">Help</a></nav>'
        f'<div class="box"><div class="section">{cards}</div></div>',
        path,
    )


def topic(slug: str, own_count: bool = True, related: bool = False) -> FetchedPage:
    n = REPLIES[slug]
    replies = "".join(
        f'<article class="media"><strong>bob</strong><p>Reply {i}.</p><small>1 day ago</small></article>'
        for i in range(n)
    )
    count = f'<div class="media-right"><span class="muted">{plural(n)}</span></div>' if own_count else ""
    aside = (
        '<aside><ul class="related">'
        + "".join(
            f'<li><a href="/topics/other-{i}">Other {i}</a> <span>{plural(9)}</span></li>' for i in (1, 2)
        )
        + "</ul></aside>"
        if related
        else ""
    )
    return FORUM.page(
        f'<div class="box"><h4>{slug}</h4><article class="media"><div class="media-content">'
        f"<p>The opening post.</p>{replies}</div>{count}</article>{aside}</div>",
        f"/topics/{slug}",
    )


def topics(**kw: bool) -> list[FetchedPage]:
    return [topic(slug, **kw) for slug in REPLIES]


@pytest.mark.parametrize(("extra", "fires"), [(0, False), (1, True)])
def test_a_card_count_is_compared_with_the_count_its_record_page_states(extra: int, fires: bool) -> None:
    found = check_count_mismatch(topic_list("/", extra), FORUM.fetcher(*topics()))
    assert [(f.evidence["shown"], f.evidence["listed"]) for f in found] == ([(3, 2)] if fires else [])


def test_the_lists_showing_one_card_template_report_one_bug() -> None:
    front = check_count_mismatch(topic_list("/", 1), FORUM.fetcher(*topics()))
    tag = check_count_mismatch(topic_list("/tags/help", 1), FORUM.fetcher(*topics()))
    assert len(front) == len(tag) == 1
    assert front[0].route != tag[0].route and front[0].fingerprint == tag[0].fingerprint


def test_a_card_reads_its_permalink_and_two_record_pages_at_most() -> None:
    claims = item_counts(topic_list("/", 1))
    assert [(c.shown, c.url.rsplit("/", 1)[1], c.record) for c in claims] == [
        (3, "tabs-or-spaces-7", True),
        (1, "slow-queries-6", True),
        (5, "dark-mode-5", True),
    ]
    fetch = FORUM.fetcher(*topics(own_count=False))
    assert check_count_mismatch(topic_list("/", 1), fetch) == []  # no count stated: not compared
    assert len(fetch.calls) == 2


def test_counts_of_other_records_on_the_record_page_are_not_its_own() -> None:
    # the topic page states no count of its own; its sidebar's cards of other topics each say "9
    # replies": theirs, not the topic's
    fetch = FORUM.fetcher(*topics(own_count=False, related=True))
    assert check_count_mismatch(topic_list("/", 0), fetch) == []
