"""The explorer's structured memory in the simulator: a visit record holding each page's links.

Generic over hashable node ids, so the real web explorer can hold routes in it. Capacity is counted
in entries; when full, a new entry evicts one (the *eviction*: what is forgotten):

- ``fifo``: the oldest written entry;
- ``lru``: the least recently used (a revisit moves the page to newest);
- ``random``: a uniformly drawn entry, using the run's own generator (one draw per eviction), as the seed.

A dict keeps insertion order, which is write order (fifo) or recency order (lru).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Literal, Protocol, TypeVar

from memgpt_lite.errors import ConfigError

from .rng import Rng

N = TypeVar("N", bound=Hashable)

Eviction = Literal["fifo", "lru", "random"]
EVICTIONS: tuple[Eviction, ...] = ("fifo", "lru", "random")
Policy = Eviction  # the old name (it clashed with the explorer's link-choosing policy); kept for callers
POLICIES = EVICTIONS


class KnownLinks(Protocol[N]):
    """What a strategy may read from memory: which nodes are remembered and their remembered links."""

    def __contains__(self, node: object) -> bool: ...

    def links(self, node: N) -> Sequence[N]: ...


class Memory(dict[N, Sequence[N]]):
    """Visit record + link table (node → remembered links) with an optional capacity and eviction.

    A dict subclass so the strategies' membership tests stay at C speed; write through `write` only
    (links replaced in place with ``memory[node] = links``, never ``dict.__setitem__``: `rewrites`).
    """

    __slots__ = (
        "capacity",
        "eviction",
        "rnd",
        "evictions",
        "rewrites",
        "replaced",
        "__weakref__",
    )  # the planner's index follows one

    def __init__(
        self, capacity: int | None = None, eviction: Eviction = "fifo", rnd: Rng | None = None
    ) -> None:
        super().__init__()
        if capacity is not None and capacity < 1:
            raise ConfigError(f"capacity: must be at least 1 or None (unlimited), got {capacity}")
        if eviction not in EVICTIONS:
            raise ConfigError(f"eviction: must be one of {', '.join(EVICTIONS)}, got {eviction!r}")
        if eviction == "random" and capacity is not None and rnd is None:
            raise ConfigError("eviction 'random' needs a random generator")
        self.capacity = capacity
        self.eviction = eviction
        self.rnd = rnd
        self.evictions = 0
        self.rewrites = 0
        """Changes other than a node added at the end — an eviction, a revisit moved to the end, links
        replaced in place: a reader that follows the memory by what it gained (the planner's
        `KnownIndex`) starts afresh when this moves, instead of comparing the whole memory each time."""
        self.replaced: dict[N, Sequence[N]] = {}
        """Each node whose links `replace` changed, with its links before the first change since the
        reader that follows the memory (the planner's `KnownIndex`, which empties it) last looked: it
        takes back what it counted of those instead of starting afresh. At most one entry a node."""

    def __setitem__(self, node: N, links: Sequence[N]) -> None:
        if node in self:
            self.rewrites += 1
        super().__setitem__(node, links)

    def __delitem__(self, node: N) -> None:
        self.rewrites += 1
        super().__delitem__(node)

    def links(self, node: N) -> Sequence[N]:
        """Remembered links of `node`; empty when the node is not (or no longer) remembered."""
        return self.get(node, ())

    def write(self, node: N, links: Sequence[N]) -> None:
        """Record a visit to `node` and the links seen there. A page visited again keeps of its
        remembered links those it still shows: a page's links change between visits (a form filled
        with other made-up words, another language, a window of page numbers), and a trip planned to
        a link the page once showed but no longer does never arrives — it went back and forth between
        two pages to the end of the budget. Links it shows for the first time are not added: the smallest
        change that ends such a trip (adding them too was measured no better, and on a live dashboard
        possibly worse)."""
        if node in self:
            if self.eviction == "lru":
                del self[node]
                self[node] = links
                return
            was = self[node]
            shown = set(links)
            if any(q not in shown for q in was):
                self.replace(node, tuple(q for q in was if q in shown))
            return
        if self.capacity is not None and len(self) >= self.capacity:
            if self.eviction == "random":
                keys = list(self)
                victim = keys[int(self.rnd() * len(keys))]  # type: ignore[misc]
            else:
                victim = next(iter(self))
            del self[victim]
            self.evictions += 1
        self[node] = links

    def replace(self, node: N, links: Sequence[N]) -> None:
        """Replace a remembered node's links in place: its place in the eviction order stays (no use
        is counted), and a reader following the memory reads the change from `replaced`."""
        self.replaced.setdefault(node, self[node])
        super().__setitem__(node, links)


class NoMemory(dict[N, Sequence[N]]):
    """The always-empty view a strategy sees when the visit record is switched off."""

    __slots__ = ()

    def links(self, node: N) -> Sequence[N]:
        return ()
