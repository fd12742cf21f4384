"""The one breadth-first search: every BFS over a link table (strategies, planning, the report's map) walks it.

Generic over hashable nodes and a `neighbours` function, so each caller decides which links count (the
links seen now on the current page, remembered ones elsewhere, none for a page never visited).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import TypeVar

N = TypeVar("N", bound=Hashable)


def breadth_first(start: N, neighbours: Callable[[N], Iterable[N]]) -> Iterator[tuple[N, N]]:
    """`(node, parent)` for every node reachable from `start`, in discovery order; first `(start, start)`.

    Ties go to the earliest link (neighbours are taken in order, the queue is first-in first-out), so
    the first node discovered with a property is a nearest one. A caller that stops iterating stops
    the search: nodes are yielded when discovered, before their own links are read.
    """
    seen = {start}
    yield start, start
    queue = [start]
    for p in queue:  # the list grows while we walk it: a FIFO queue without deque overhead
        for q in neighbours(p):
            if q not in seen:
                seen.add(q)
                yield q, p
                queue.append(q)
