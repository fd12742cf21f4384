"""One writer per store directory: a lock held on the store folder itself while a process has it open.

Two processes writing one store would each keep their own idea of it (the agent state, the explorer's
position) and the last to save would silently drop the other's work, so the second opener is refused
with the pid of the first. The lock that counts is an `flock` on the store *folder* (opened read-only):
deleting or replacing a file in the store cannot defeat it, as it could a lock on a lock file. A small
lock file beside the data still carries the holder's pid (for the message) under a POSIX record lock.
The kernel releases both when the holder exits, `kill -9` included, so a crash never leaves a stale
lock behind. A forked child is another writer: it closes its inherited copies right after the fork
(so it neither holds nor prolongs the parent's lock) and must take the lock itself, which fails while
the parent holds it. Within one process the lock is counted, so code that opens a store twice works.
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
_HELD: dict[str, list[int]] = {}  # resolved lock path -> [fd, open count, pid that took it, folder fd]


def _forget_after_fork() -> None:
    # The child's copies of the descriptors share the parent's locks: close them so that the lock ends
    # with the parent, and forget them so that the child asks for the lock like any other process.
    for entry in _HELD.values():
        for fd in (entry[0], entry[3]):
            try:
                os.close(fd)
            except OSError:
                pass
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


class StoreLock:
    """Exclusive lock on `path` (a file inside the store). `acquire` raises `StoreError` when another
    process holds it; `release` is idempotent."""

    def __init__(self, path: str | os.PathLike[str], what: str) -> None:
        self.path = Path(path)
        self.what = what
        # Keyed by folder: the folder is what is locked, whatever the lock file is called.
        self._key = str(self.path.parent.resolve())
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
                folder = os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            except OSError as e:
                raise StoreError(
                    f"{self.what} {self.path.parent} cannot be opened ({e.strerror or e})"
                ) from None
            try:
                fcntl.flock(folder, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(folder)
                raise self._in_use() from None
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError as e:
                os.close(folder)
                raise StoreError(
                    f"{self.what} {self.path.parent} cannot be written ({e.strerror or e}); "
                    "it may be read-only"
                ) from None
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                os.close(folder)
                raise self._in_use() from None
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
            _HELD[self._key] = [fd, 1, os.getpid(), folder]
            self._held = True
        return self

    def _in_use(self) -> StoreError:
        try:
            with open(self.path, "rb") as f:
                holder = f.read(32).decode("ascii", errors="replace").strip()
        except OSError:
            holder = ""
        who = f"process {holder}" if holder.isdigit() else "another process"
        return StoreError(
            f"{self.what} {self.path.parent} is in use by {who}; wait for it to finish or stop it "
            "(one process at a time may write a store)"
        )

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
                os.close(entry[0])  # closing the descriptors releases the locks
                os.close(entry[3])
