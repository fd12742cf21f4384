"""Whether a count cell and the page it links count the same population.

A management table — each row offering writes on its own record (a form that posts, an Edit or
Delete control) — counts what its manager handles: every item of the record in every state, the
comments awaiting moderation, the drafts, the hidden and the spam among them. The record's own page
(which the row names by its title, and its count links, often at a section: `/post/64#comments`) is where the
record is read, and lists the items its readers are shown — the approved comments, the published
revisions — even to its manager, who moderates elsewhere. The two disagree by design: a management
row's count of its own record's items is not compared with the record's page. Families: a blog's
admin table of posts with a Comments column linking each post (Bluelog, WordPress's Posts screen), a
shop's back-office product list counting reviews beside the storefront's product page (Saleor,
Django admin changelists with related counts), a forum's moderation list of topics counting replies
beside the topic page. Still compared: a management list's count of a page of those things (a reader's
category whose "7 feeds" links the category's feed list), a tracker's overview row (no writes) whose
"open" links the open-issue list, and a card's count of its record's items (`count_records`: a topic
card's "3 replies" beside the topic page): each counts what the other page lists.
"""

from __future__ import annotations

from bughunt.dom import Node
from bughunt.oracles.destroying_verbs import VERBS
from bughunt.oracles.destructive_words import words_of
from bughunt.oracles.item_identity import count_label
from bughunt.oracles.lists import targets
from bughunt.oracles.reading import resolve

WRITE_WORDS = VERBS | {"edit", "approve", "moderate", "publish", "unpublish"}
"""Words of a control acting on its record (besides a form that posts)."""


def offers_writes(node: Node) -> bool:
    """Whether `node` (a table row) offers a write on its record: a form posting, or a
    link or button whose words act on it ("Edit", "Delete", "Approve")."""
    for n in node.iter():
        if n.tag == "form" and n.get("method").strip().lower() == "post":
            return True
        if n.tag in ("a", "button") and WRITE_WORDS & set(words_of(n.text())):
            return True
    return False


def managed_count_of_own_record(row: Node, count: Node, url: str, base: str) -> bool:
    """Whether the count link `count` of `row`, leading to `url`, is a management row's count of its
    own record's items: the row offers writes and another of its links, one that names the record in
    words (its title), leads to the same page. Not compared with the record's page, which shows its
    readers' share of them."""
    if not offers_writes(row):
        return False
    return any(
        node is not count
        and (words := node.text().strip())
        and not count_label(words)
        and resolve(base, href) == url
        for node, href in targets(row)
        if node.tag == "a"
    )
