"""What the store's in-memory copies tell those who keep figures of their own over them (the working
context's token count): which routes a write touched, and when every copy was dropped.

The link table and the visited set are read once per process and then kept in step with this
connection's writes; a rolled-back transaction, or a write that touches many rows at once (re-test
marks for a new version, expiry), drops them instead. `generation` counts the drops: a watcher that
sees it change starts afresh from the store.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol
from weakref import WeakSet


class Watcher(Protocol):
    def touched(self, routes: Iterable[str]) -> None:
        """These routes' visits or links (or links to them) may have changed."""


class Changes:
    __slots__ = ("generation", "watchers")

    def __init__(self) -> None:
        self.generation = 0
        # weak: a watcher lives as long as its session, the store may outlive many
        self.watchers: WeakSet[Watcher] = WeakSet()

    def touched(self, routes: Iterable[str]) -> None:
        if self.watchers:
            routes = tuple(routes)
            for w in self.watchers:
                w.touched(routes)

    def dropped(self) -> None:
        self.generation += 1
