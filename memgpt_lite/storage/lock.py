"""One writer per store directory: an advisory lock file held while a process has the store open.

Two processes writing one store would each keep their own idea of it (the agent state, the explorer's
position) and the last to save would silently drop the other's work, so the second opener is refused
with the pid of the first. The lock is a POSIX record lock (`lockf`) on a small file in the store:
the kernel releases it when the holder exits, `kill -9` included, so a crash never leaves a stale lock
behind, and a forked child does not inherit it (a worker process is another writer). Within one
process the lock is counted, so code that opens the same store twice keeps working.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from memgpt_lite.errors import StoreError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock; stores are then unguarded, as before
    fcntl = None  # type: ignore[assignment]

_GUARD = threading.Lock()
_HELD: dict[str, list[int]] = {}  # resolved lock path -> [fd, open count, pid that took it]


class StoreLock:
    """Exclusive lock on `path` (a file inside the store). `acquire` raises `StoreError` when another
    process holds it; `release` is idempotent."""

    def __init__(self, path: str | os.PathLike[str], what: str) -> None:
        self.path = Path(path)
        self.what = what
        self._key = str(self.path.resolve())
        self._held = False

    def acquire(self) -> StoreLock:
        if self._held or fcntl is None:
            return self
        with _GUARD:
            entry = _HELD.get(self._key)
            if entry is not None and entry[2] != os.getpid():
                del _HELD[self._key]  # inherited through fork: the lock was the parent's, not ours
                entry = None
            if entry is not None:
                entry[1] += 1
                self._held = True
                return self
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as e:
                raise StoreError(
                    f"{self.what} {self.path.parent} cannot be written ({e.strerror or e}); "
                    "it may be read-only"
                ) from None
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _read_pid(fd)
                os.close(fd)
                who = f"process {holder}" if holder else "another process"
                raise StoreError(
                    f"{self.what} {self.path.parent} is in use by {who}; wait for it to finish or stop it "
                    "(one process at a time may write a store)"
                ) from None
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
            _HELD[self._key] = [fd, 1, os.getpid()]
            self._held = True
        return self

    def release(self) -> None:
        if not self._held:
            return
        self._held = False
        with _GUARD:
            entry = _HELD.get(self._key)
            if entry is None or entry[2] != os.getpid():
                return
            entry[1] -= 1
            if entry[1] <= 0:
                del _HELD[self._key]
                os.close(entry[0])  # closing the descriptor releases the lock


def _read_pid(fd: int) -> str:
    try:
        return os.pread(fd, 32, 0).decode("ascii", errors="replace").strip()
    except OSError:
        return ""
