"""What the built-in site shows: articles, comments, people. Fixed data, so every run sees the same site.

Articles A, B and C have pages (the site definition's pages 12, 14, 16); the others only appear in
lists, as titles without a page, because every link a page shows is fixed by `bughunt.site`.
"""

from __future__ import annotations

from typing import NamedTuple

USERNAME = "tester"
AUTHOR = "Ada Lovelace"


class Article(NamedTuple):
    slug: str
    title: str
    description: str
    body: tuple[str, ...]
    tags: tuple[str, ...]
    author: str
    date: str
    favorites: int


ARTICLES: dict[str, Article] = {
    a.slug: a
    for a in (
        Article(
            "a",
            "How agents remember: a MemGPT primer",
            "Main context is RAM, external stores are disk.",
            (
                "A language model forgets everything outside its window. MemGPT treats the window like RAM "
                "and pages facts in and out of external storage with function calls.",
                "At 70% of the window the agent is warned to save what matters; at 100% old messages are "
                "summarised and evicted, but stay searchable in recall storage.",
            ),
            ("qa", "memory"),
            AUTHOR,
            "November 2, 2026",
            12,
        ),
        Article(
            "b",
            "Exploratory testing with a step budget",
            "Thirty clicks, twenty-four pages, six bugs.",
            (
                "An exploratory tester with a budget of thirty steps must choose every click. Without a record "
                "of what it has seen, it walks in circles around the home page.",
                "A visited set and a link table turn the walk into a search, and a bug table keyed by "
                "fingerprint stops the same bug from being reported twice.",
            ),
            ("qa", "testing"),
            AUTHOR,
            "November 9, 2026",
            7,
        ),
        Article(
            "c",
            "Frontier search for web agents",
            "Step toward the nearest page you have not seen.",
            (
                "Frontier exploration keeps the links of every visited page and walks, breadth first, to the "
                "nearest page not yet in memory.",
                "It stops when no unvisited page is left, which on a small site happens well before the budget.",
            ),
            ("agent", "memory"),
            AUTHOR,
            "November 16, 2026",
            21,
        ),
    )
}


class Preview(NamedTuple):
    """An article as a list shows it; `slug` is None for articles without a page of their own."""

    title: str
    description: str
    author: str
    date: str
    tags: tuple[str, ...]
    slug: str | None = None


def preview(slug: str) -> Preview:
    a = ARTICLES[slug]
    return Preview(a.title, a.description, a.author, a.date, a.tags, slug)


EXTRA: dict[str, Preview] = {
    "d": Preview("Flaky tests and how to love them", "Retry is not a fix.", "Grace Hopper", "October 28, 2026", ("testing",)),
    "e": Preview("Ten heuristics for bug triage", "Severity is not priority.", "Linus Pauling", "October 21, 2026", ("qa",)),
    "f": Preview("Reading stack traces out loud", "The last frame is rarely the culprit.", "Grace Hopper", "October 14, 2026", ("debugging",)),
    "g": Preview("Pairing with a fuzzer", "Let the machine find the inputs you would not.", "Alan Kay", "October 7, 2026", ("testing", "security")),
}  # fmt: skip

FEED: dict[int, tuple[Preview, ...]] = {
    1: (preview("a"), preview("b"), EXTRA["d"]),
    2: (preview("c"), EXTRA["e"], EXTRA["f"]),
    3: (EXTRA["g"],),
}
FEED_BUGGY_PAGE_3: tuple[Preview, ...] = (EXTRA["g"], EXTRA["f"])
"""The injected bug: page 3 repeats an article already listed on page 2."""

SEARCH_QUERY = "memory"
SEARCH: dict[int, tuple[Preview, ...]] = {
    1: (preview("a"), EXTRA["d"], EXTRA["e"]),
    2: (preview("c"), EXTRA["g"]),
}
SEARCH_TOTAL = sum(len(v) for v in SEARCH.values())

FAVORITES: tuple[Preview, ...] = (preview("a"), EXTRA["d"])
FAVORITES_STALE_COUNT = 3
"""The injected bug: the count shown above My Favorites was not refreshed after an unfavourite."""

MY_ARTICLES: tuple[Preview, ...] = (preview("b"), preview("c"))
FOLLOWERS: tuple[str, ...] = ("Grace Hopper", "Alan Kay", "Linus Pauling")


class Comment(NamedTuple):
    author: str
    date: str
    text: str
    trusted_html: bool = False
    """True only for the injected XSS: the text is rendered without escaping."""


A_COMMENTS: tuple[Comment, ...] = (
    Comment("Grace Hopper", "November 3, 2026", "The 70% warning threshold finally clicked for me. Thanks!"),
    Comment("Alan Kay", "November 4, 2026", "I typed <b>bold</b> here and it shows as text, as it should."),
    Comment(
        "mallory",
        "November 5, 2026",
        'Nice post! <script>document.title = "pwned"; alert(document.cookie)</script>',
        trusted_html=True,
    ),
)
READER_COMMENT = Comment("Linus Pauling", "November 20, 2026", "Bookmarked for the next sprint.")
POISON_AUTHOR = "a reader"
