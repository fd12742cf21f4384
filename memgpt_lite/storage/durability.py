"""Whether a store's writes wait for the disk: always, except inside `scratch_writes()`.

A throwaway copy of a store (an evaluation runs each case on its own copy and deletes it) loses
nothing in a crash, so the fsyncs that make a kept store survive a power cut only cost time there
(about 2 ms each on a disk; one layer-2 run made ~1,800). Inside the block atomic file writes still
go through a temporary file and a rename and SQLite still uses WAL, so readers never see half a
write; only the wait for the disk is skipped. The setting is a context variable: it covers the
calling thread and the tasks it starts, and a thread started elsewhere keeps the durable default.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["durable", "scratch_writes"]

_SCRATCH: ContextVar[bool] = ContextVar("memgpt_lite_scratch_writes", default=False)


@contextmanager
def scratch_writes() -> Iterator[None]:
    """Inside the block, stores opened and written skip fsync (for copies that will be deleted)."""
    token = _SCRATCH.set(True)
    try:
        yield
    finally:
        _SCRATCH.reset(token)


def durable() -> bool:
    """Must writes wait for the disk here (False only inside `scratch_writes()`)?"""
    return not _SCRATCH.get()
