"""How often Python's cyclic garbage collector runs while a session explores.

Every parsed page is a tree of `dom.Node`s that point at their parents (a cycle per element), so a
page's tree is freed by the cyclic collector, not by reference counting. At CPython's default pace (a
young collection every 700 net new container objects) a collection falls in the middle of nearly
every page's parse and reading: the half-read tree survives into the older generations, and from
there into the full collections, which walk everything alive (memory, the trees of pages kept for
the oracles). On the scale site (`benchmarks.scale_site`, 200 clicks) that was ~0.26 s of CPU in the
collector out of ~2.1 s after start-up (`gc.callbacks` timing). With a young generation of
`YOUNG_OBJECTS`, most trees are already garbage when a collection comes, are freed there, and no
full collection is needed: ~0.07 s. The price is memory: up to that many dead objects wait (a few
tens of pages' trees, ~10-20 MB) before they are freed. Nothing a session does depends on when
garbage is collected (no finalizer of ours has an effect), so its walk and findings are the same.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG_OBJECTS = 100_000
"""The young generation's threshold during a session (CPython's default is 700)."""


@contextmanager
def paced_collector() -> Iterator[None]:
    """Collect young garbage every `YOUNG_OBJECTS` net new objects inside; the thresholds before
    (another caller's, or the default) come back afterwards. One already higher is kept."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], YOUNG_OBJECTS), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
