"""The data of the synthetic scale site: items, categories, tags and users, generated from one seed.

Everything is drawn once from `random.Random(shape.seed)`, so two processes with one `Shape` serve
the same site byte for byte (a before/after comparison of the explorer walks the same pages). The
proportions follow issue 28's site: each item has 3–6 tags from one neighbourhood of the tag ids
(related topics share items, so neighbouring tags list some of the same items), 15–35 related items
of its category, 0–4 comments, and an author drawn with a skew (a few busy authors, many quiet ones).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

SORTS: tuple[str, ...] = ("new", "top", "title")
"""Sort orders of a category's list; `new` is the default (`/c/<k>` without a query)."""

_ADJECTIVES = (
    "quiet swift amber hollow bright narrow gentle rapid silent brave rustic modern "
    "ancient crisp dusty golden hidden lively mellow noble"
).split()
_NOUNS = (
    "harbor lantern meadow circuit garden ledger compass orchard signal bridge canyon "
    "engine festival gallery journal market notebook palette quarry river"
).split()
_TOPICS = (
    "python testing caching design layout fonts audio maps travel cooking budget hiking "
    "chess poetry gardening history robotics physics music cycling"
).split()


@dataclass(frozen=True, slots=True)
class Shape:
    """How big the site is. The default is issue 28's site (≥ 10,000 pages); `QUICK` is for tests."""

    items: int = 10_000
    categories: int = 20
    tags: int = 200
    users: int = 500
    per_page: int = 20
    users_per_page: int = 50
    seed: int = 7


FULL = Shape()
QUICK = Shape(items=240, categories=4, tags=24, users=30, per_page=10, users_per_page=10)


@dataclass(frozen=True, slots=True)
class Comment:
    author: int
    text: str


@dataclass(frozen=True, slots=True)
class Item:
    id: int
    title: str
    description: str
    category: int
    author: int
    tags: tuple[int, ...]
    score: int
    related: tuple[int, ...]
    comments: tuple[Comment, ...]


def pages(count: int, per_page: int) -> int:
    """Pages a list of `count` entries takes (an empty list still has its first page)."""
    return max(1, -(-count // per_page))


class Catalog:
    """The generated site data and its indexes (lists by category and sort, by tag, by author)."""

    def __init__(self, shape: Shape = FULL) -> None:
        self.shape = shape
        rng = random.Random(shape.seed)
        categories = [1 + rng.randrange(shape.categories) for _ in range(shape.items)]
        by_category: dict[int, list[int]] = {k: [] for k in range(1, shape.categories + 1)}
        for i, k in enumerate(categories, start=1):
            by_category[k].append(i)
        items: dict[int, Item] = {}
        for i, k in enumerate(categories, start=1):
            # clustered tags: one neighbourhood of six ids, so neighbouring tags share items
            t0 = rng.randrange(shape.tags)
            tags = tuple(
                sorted({(t0 + d) % shape.tags + 1 for d in rng.sample(range(6), 3 + rng.randrange(4))})
            )
            mates = by_category[k]
            wanted = min(15 + rng.randrange(21), len(mates) - 1)
            related = tuple(r for r in rng.sample(mates, min(wanted + 1, len(mates))) if r != i)[:wanted]
            comments = tuple(
                Comment(
                    1 + rng.randrange(shape.users),
                    f"{rng.choice(_ADJECTIVES)} point about {rng.choice(_NOUNS)}",
                )
                for _ in range(rng.randrange(5))
            )
            adjective, noun = rng.choice(_ADJECTIVES), rng.choice(_NOUNS)
            items[i] = Item(
                id=i,
                title=f"The {adjective} {noun} no. {i}",
                description=f"Notes on a {adjective} {noun}, kept in {self.category_name(k)}.",
                category=k,
                # skewed: a few busy authors (low ids), many with one or two items
                author=1 + int(shape.users * rng.random() ** 1.6),
                tags=tags,
                score=int(1000 * rng.random() ** 3),
                related=related,
                comments=comments,
            )
        self.items = items
        self._by_category = by_category

    @staticmethod
    def category_name(k: int) -> str:
        return f"{_TOPICS[(k - 1) % len(_TOPICS)].title()} {(k - 1) // len(_TOPICS) + 1}"

    def tag_name(self, t: int) -> str:
        return f"{_TOPICS[(t - 1) % len(_TOPICS)]}-{t}"

    @staticmethod
    def user_name(u: int) -> str:
        return f"user{u}"

    def listing(self, category: int, sort: str) -> list[int]:
        """A category's items in one sort order (`new`: newest first; `top`: by score; `title`)."""
        return self._listings[(category, sort)]

    @cached_property
    def _listings(self) -> dict[tuple[int, str], list[int]]:
        out: dict[tuple[int, str], list[int]] = {}
        for k, ids in self._by_category.items():
            out[(k, "new")] = sorted(ids, reverse=True)
            out[(k, "top")] = sorted(ids, key=lambda i: (-self.items[i].score, i))
            out[(k, "title")] = sorted(ids, key=lambda i: (self.items[i].title, i))
        return out

    @cached_property
    def by_tag(self) -> dict[int, list[int]]:
        """Each tag's items, best scored first (popular items lead every tag they carry)."""
        out: dict[int, list[int]] = {t: [] for t in range(1, self.shape.tags + 1)}
        for item in self.items.values():
            for t in item.tags:
                out[t].append(item.id)
        for ids in out.values():
            ids.sort(key=lambda i: (-self.items[i].score, i))
        return out

    @cached_property
    def by_author(self) -> dict[int, list[int]]:
        """Each user's items, newest first."""
        out: dict[int, list[int]] = {u: [] for u in range(1, self.shape.users + 1)}
        for item in self.items.values():
            out[item.author].append(item.id)
        for ids in out.values():
            ids.reverse()
        return out

    def category_pages(self, category: int) -> int:
        return pages(len(self._by_category[category]), self.shape.per_page)
