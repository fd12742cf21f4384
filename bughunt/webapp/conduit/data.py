"""The conduit-htmx site's seed content: users, articles, comments, follows and favourites.

Fixed data, so every run of the site (and every figure measured on it) starts from the same state.
Dates are fixed too; the feed shows newest first. `PAGE_SIZE` is small so lists have pages.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PAGE_SIZE = 3
DEMO_USER = "demo"
DEMO_PASSWORD = "conduit-demo"
"""User A: an account that can log in (a public test fixture, not a secret)."""
SECOND_USER = "demo2"
SECOND_PASSWORD = "conduit-demo2"
"""User B: a second account with its own article and comment, so two logged-in users see different
pages (their own edit and delete links); a public test fixture like the first."""
DEMO_ACCOUNTS: dict[str, str] = {DEMO_USER: DEMO_PASSWORD, SECOND_USER: SECOND_PASSWORD}
"""Every account that can log in: user name -> password."""


@dataclass(frozen=True, slots=True)
class User:
    name: str
    bio: str
    email: str
    image: str
    active: bool = True
    """A deactivated user still counts in the follower tally (the planted count bug) but is not listed."""


@dataclass(slots=True)
class Article:
    slug: str
    title: str
    author: str
    date: str
    tags: tuple[str, ...]
    description: str
    body: str


@dataclass(slots=True)
class Comment:
    id: int
    article: str
    author: str
    date: str
    body: str
    raw_html: bool = False
    """Rendered without escaping: the planted stored-XSS bug (one comment's "markdown" path)."""


@dataclass(slots=True)
class Seed:
    users: dict[str, User]
    articles: list[Article]
    comments: list[Comment]
    follows: dict[str, set[str]] = field(default_factory=dict)
    """user -> the users they follow."""
    favorites: dict[str, list[str]] = field(default_factory=dict)
    """user -> slugs they favourited, in order."""


def seed() -> Seed:
    users = {
        u.name: u
        for u in (
            User("alice", "Writes about Python and testing.", "alice@example.test", "/static/a.svg"),
            User("bob", "Front-end, HTMX, no build step.", "bob@example.test", "/static/b.svg"),
            User("carol", "Systems and Rust.", "carol@example.test", "/static/c.svg"),
            User("dave", "Web performance.", "dave@example.test", "/static/d.svg"),
            User("erin", "Gone fishing.", "erin@example.test", "/static/e.svg", active=False),
            User(DEMO_USER, "The demo account.", "demo@example.test", "/static/demo.svg"),
            User(SECOND_USER, "The second demo account.", "demo2@example.test", "/static/demo2.svg"),
        )
    }
    a = Article
    articles = [
        a("pytest-fixtures-in-depth-k2p9", "Pytest fixtures in depth", "alice", "2024-05-11",
          ("python", "testing"), "Scopes, factories and teardown.", "Fixtures are functions..."),
        a("htmx-without-a-build-step-m3q1", "HTMX without a build step", "bob", "2024-05-10",
          ("htmx", "webdev"), "Swap fragments, keep the server in charge.", "hx-get fetches..."),
        a("rust-ownership-for-pythonistas-r8s2", "Rust ownership for Pythonistas", "carol", "2024-05-09",
          ("rust", "python"), "Borrowing explained with lists.", "A value has one owner..."),
        a("profiling-slow-pages-t4u7", "Profiling slow pages", "dave", "2024-05-08",
          ("webdev", "python"), "From flame graph to fix.", "Start with the server timing..."),
        a("property-based-testing-v5w3", "Property-based testing", "alice", "2024-05-07",
          ("testing", "python"), "Let the machine write the cases.", "Hypothesis generates..."),
        a("forms-that-keep-their-values-x6y4", "Forms that keep their values", DEMO_USER, "2024-05-06",
          ("webdev", "htmx"), "Post, redirect, get.", "After a POST, redirect..."),
        a("css-grid-in-ten-minutes-z7a5", "CSS grid in ten minutes", "bob", "2024-05-05",
          ("webdev",), "Two lines of CSS, one layout.", "grid-template-areas..."),
        a("async-python-pitfalls-b8c6", "Async Python pitfalls", "carol", "2024-05-04",
          ("python",), "Blocking calls in coroutines.", "A single time.sleep..."),
        a("reading-stack-traces-d9e7", "Reading stack traces", DEMO_USER, "2024-05-03",
          ("python", "testing"), "Bottom line first.", "The last line names the error..."),
        a("caching-headers-explained-f1g8", "Caching headers explained", "dave", "2024-05-02",
          ("webdev",), "ETag, max-age, no-store.", "A response without Cache-Control..."),
        a("templates-typed-by-hand-n4h2", "Templates typed by hand", DEMO_USER, "2024-05-01",
          (), "Every attribute written out, one forgotten.", "A hand-written input needs its value..."),
        # User B's article: the oldest (last in every list it is in) and tagged with tags no other
        # article has, so no list of user A's view gains a page and no planted bug a new occurrence
        # beyond user B's own editor.
        a("readable-type-on-the-web-h2j9", "Readable type on the web", SECOND_USER, "2024-04-30",
          ("typography", "ux"), "Line length, leading, contrast.", "Sixty to seventy characters..."),
    ]  # fmt: skip
    comments = [
        Comment(1, "htmx-without-a-build-step-m3q1", "alice", "2024-05-10", "Nice, no node_modules!"),
        Comment(2, "profiling-slow-pages-t4u7", "bob", "2024-05-08", "Which profiler do you use?"),
        Comment(
            3, "profiling-slow-pages-t4u7", "dave", "2024-05-09",
            'Try this: <script>document.title = "pwned"; alert(document.cookie)</script> works for me',
            raw_html=True,
        ),
        Comment(4, "property-based-testing-v5w3", DEMO_USER, "2024-05-07", "Great intro, thanks."),
        Comment(5, "property-based-testing-v5w3", "carol", "2024-05-07", "Shrinking is the best part."),
        Comment(6, "pytest-fixtures-in-depth-k2p9", "bob", "2024-05-11", "Factories as fixtures <3"),
        Comment(7, "css-grid-in-ten-minutes-z7a5", SECOND_USER, "2024-05-06", "Grid areas read like a map."),
    ]  # fmt: skip
    follows = {
        "bob": {"alice"}, "carol": {"alice"}, "erin": {"alice"}, DEMO_USER: {"bob", "carol"},
        "alice": {"bob"}, "dave": {"carol"},
    }  # fmt: skip
    favorites = {
        "alice": [
            "htmx-without-a-build-step-m3q1", "rust-ownership-for-pythonistas-r8s2",
            "profiling-slow-pages-t4u7", "css-grid-in-ten-minutes-z7a5",
        ],
        "bob": ["pytest-fixtures-in-depth-k2p9"],
        DEMO_USER: ["async-python-pitfalls-b8c6"],
    }  # fmt: skip
    return Seed(users, articles, comments, follows, favorites)
