"""The conduit-htmx site's planted bugs, as data: what tests and benchmarks score found against.

Each bug names its kind (one of the six oracle kinds, or "client_error" for the browser oracle), the
route *shape* a correct fingerprint gives it (`bughunt.fingerprint.route_shape`), the concrete routes
where it shows, its click depth from the start page, whether it is behind the login, and what an
explorer needs to reach it: plain links (`a`), HTMX attributes read without scripts (`hx`), or a
browser that runs the page's scripts (`browser`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

Reach = Literal["a", "hx", "browser"]


@dataclass(frozen=True, slots=True)
class PlantedBug:
    kind: str
    shape: str
    routes: tuple[str, ...]
    depth: int
    login: bool
    reach: Reach
    description: str


PLANTED: tuple[PlantedBug, ...] = (
    PlantedBug(
        "server_error",
        "/profile/alice/favorites?page=<n>",
        ("/profile/alice/favorites?page=2",),
        3,
        False,
        "hx",
        "favourites page 2 crashes (IndexError) with a debug page whose only link is '#'",
    ),
    PlantedBug(
        "duplicate_pagination",
        "/tag/<slug>?page=<n>",
        ("/tag/python?page=2", "/tag/webdev?page=2"),
        2,
        False,
        "hx",
        "tag pages from page 2 on start one article early (off-by-one offset): one root cause, two tags",
    ),
    PlantedBug(
        "unescaped_script",
        "/article/<slug>",
        ("/article/profiling-slow-pages-t4u7",),
        2,
        False,
        "a",
        "one stored comment is rendered as raw HTML: its <script> runs",
    ),
    PlantedBug(
        "count_mismatch",
        "/profile/alice/followers",
        ("/profile/alice/followers",),
        2,
        False,
        "a",
        "the follower count includes a deactivated user the list leaves out",
    ),
    PlantedBug(
        "form_drops_value",
        "/editor/<slug>",
        # user A's three articles, then user B's one (each account reaches only its own editors)
        (
            "/editor/forms-that-keep-their-values-x6y4",
            "/editor/reading-stack-traces-d9e7",
            "/editor/templates-typed-by-hand-n4h2",
            "/editor/readable-type-on-the-web-h2j9",
        ),
        3,
        True,
        "a",
        "the editor's hidden tags input is rendered empty: saving drops the article's tags; and its "
        "description input is written without a value (the article page shows the description in an "
        "unmarked lede <p>): the untagged article's editor drops only that",
    ),
    PlantedBug(
        "unconfirmed_destructive",
        "/article/<slug>/comments/<n>/delete",
        # user A's comment, then user B's (each account sees only its own delete link)
        (
            "/article/property-based-testing-v5w3/comments/4/delete",
            "/article/css-grid-in-ten-minutes-z7a5/comments/7/delete",
        ),
        3,
        True,
        "a",
        "deleting your comment is a plain GET link that deletes at once and redirects back",
    ),
    PlantedBug(
        "client_error",
        "/article/<slug>",
        (
            "/article/css-grid-in-ten-minutes-z7a5",
            "/article/async-python-pitfalls-b8c6",
            "/article/caching-headers-explained-f1g8",
        ),
        2,
        False,
        "browser",
        "the related-articles widget's fetch() gets HTTP 500 for articles with a single tag",
    ),
)

SIX_KINDS: tuple[PlantedBug, ...] = tuple(b for b in PLANTED if b.kind != "client_error")


def planted_for(kind: str, route: str) -> PlantedBug | None:
    """The planted bug a finding of `kind` on `route` is, or None (a false positive)."""
    return next((b for b in PLANTED if b.kind == kind and route in b.routes), None)


@dataclass(slots=True)
class Score:
    """Reported bugs scored against `PLANTED`: which planted bugs were found, which reports match
    none (false positives), and how many extra reports one planted bug got (duplicates)."""

    found: list[PlantedBug] = field(default_factory=list)
    false_positives: list[tuple[str, str]] = field(default_factory=list)
    duplicates: int = 0

    @property
    def missed(self) -> list[PlantedBug]:
        return [b for b in PLANTED if b not in self.found]

    def to_dict(self) -> dict[str, object]:
        return {
            "found": [f"{b.kind} {b.shape}" for b in self.found],
            "missed": [f"{b.kind} {b.shape}" for b in self.missed],
            "false_positives": [f"{kind} {route}" for kind, route in self.false_positives],
            "duplicates": self.duplicates,
        }


def score(reports: Iterable[tuple[str, str]]) -> Score:
    """Score (kind, route) reports, e.g. the `bugs` of `bughunt explore --json`."""
    result = Score()
    for kind, route in reports:
        bug = planted_for(kind, route)
        if bug is None:
            result.false_positives.append((kind, route))
        elif bug in result.found:
            result.duplicates += 1
        else:
            result.found.append(bug)
    return result
