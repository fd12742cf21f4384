"""A card's count of a record's things, against the record's own page: a forum's list says "3 replies" on
a topic's card, the topic's page — the card's title link — says "2 replies" over its two replies.

Lists of records summarise each record on its card: a topic's replies, a post's comments, a
question's answers, a project's open issues. The card's count (`count_targets.item_counts`: a count
label inside a list item) names things its record's page lists; when none of the card's links is a
page named for those things (`/category/4/feeds`: read by `count_targets` as it was), the card's
**permalink** (`item_identity.identities`: its heading's link, else its one link to a detail page)
leads to the record's page, which states its own count of them. That page's statement is read
(`record_total`): the count labels naming the same thing (singular or plural alike), outside menus,
headers and footers and outside the cards of *other* records the page lists (a sidebar's "Related:
… 4 replies"), when they all say one number. A record page that states no such count is not
compared: its list alone may count the opening post, be paged, or show only what this visitor may see.

Stated on lists, links and count labels: forums' topic lists, blogs' post cards with comment counts,
Q&A sites' answer counts, trackers' project cards; whatever the family.
"""

from __future__ import annotations

from bughunt.oracles.count_labels import _labels
from bughunt.oracles.lists import find_lists, holds_link, identities, item_facts
from bughunt.oracles.nouns import same_noun
from bughunt.oracles.pagination import furniture
from bughunt.page import FetchedPage, base_url


def permalinks(page: FetchedPage) -> dict[int, str]:
    """Each list item's own page (its permalink, `identities`), by `id` of the item, for the items of
    the page's lists that have one."""
    memo, base = item_facts(page), base_url(page)
    out: dict[int, str] = {}
    for _container, items in find_lists(page.document):
        for item, ident in zip(items, identities(items, base, memo), strict=True):
            link = next((i.removeprefix("href:") for i in ident if i.startswith("href:")), None)
            if link:
                out.setdefault(id(item), link)
    return out


def record_total(page: FetchedPage, word: str) -> int | None:
    """The one number the record's page states for `word` (a noun's last word, singular and plural
    alike: `nouns.same_noun`), or None when it states none, or two."""
    others = _other_cards(page)
    said = {
        shown
        for node, noun, shown in _labels(page)
        if noun.split()
        and same_noun(noun.split()[-1], word)
        and not furniture(node)
        and not any(id(a) in others for a in node.ancestors())
    }
    return said.pop() if len(said) == 1 else None


def _other_cards(page: FetchedPage) -> set[int]:
    """The `id`s of the page's list items that link another page (cards of other records): their
    counts are theirs, not the page's record's."""
    memo, base = item_facts(page), base_url(page)
    return {
        id(item)
        for _container, items in find_lists(page.document)
        if len(items) >= 2
        for item in items
        if holds_link(item, memo, base)
    }
