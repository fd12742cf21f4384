"""A file tree confined to one root folder by directory file descriptors, safe against a racing process.

Every operation starts from a descriptor of the root (checked to be the same folder the tree was made
for) and walks the names one at a time with `openat`-style calls (`os.open(name, dir_fd=...)`) and
`O_NOFOLLOW | O_DIRECTORY`: a symlink anywhere on the way fails the walk instead of being followed, so a
local process that swaps a folder for a symlink between a check and a use cannot redirect a read, a
write or a delete. The last name is then acted on through its parent's descriptor (`unlinkat`,
`renameat`, `shutil.rmtree(dir_fd=...)`, which is itself symlink-safe), so deleting or renaming a link
acts on the link. Only regular files with a single link are read (opened with `O_NONBLOCK` and checked
with `fstat` before a byte is read: no FIFO can block, no device is read, no hard link to a file outside
the root is shown).

Errors come out as `TreeError(kind, message)`; the memory tool turns them into `ToolError`s.
"""

from __future__ import annotations

import errno
import itertools
import os
import shutil
import stat
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
_TMP_FLAGS = os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC
FILE_MODE = 0o600
DIR_MODE = 0o700
TMP_PREFIX = ".tmp-"
_NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.ENOSYS}


class TreeError(Exception):
    """`kind` is one of: missing, exists, symlink, not_dir, not_file, linked, too_big, replaced, io."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Entry:
    """One entry found by `walk`: names from the root, `lstat` result."""

    names: tuple[str, ...]
    info: os.stat_result

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.info.st_mode)

    @property
    def is_plain_file(self) -> bool:
        return stat.S_ISREG(self.info.st_mode) and self.info.st_nlink == 1


def _shown(names: Sequence[str]) -> str:
    return "/".join(names) or "."


class ConfinedTree:
    """The folder `root` (created if missing) and every file below it, reached only through descriptors."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        path = Path(root)
        path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
        self.root = path.resolve()
        info = os.stat(self.root, follow_symlinks=False)
        if not stat.S_ISDIR(info.st_mode):
            raise NotADirectoryError(f"{self.root} is not a folder")
        self._identity = (info.st_dev, info.st_ino)

    # -- descriptors ---------------------------------------------------------------------------------
    def _open_root(self) -> int:
        try:
            fd = os.open(self.root, _DIR_FLAGS)
        except OSError as err:
            raise TreeError(
                "replaced", f"the memory folder {self.root} cannot be opened ({err.strerror})"
            ) from err
        info = os.fstat(fd)
        if (info.st_dev, info.st_ino) != self._identity:
            os.close(fd)
            raise TreeError("replaced", f"the memory folder {self.root} was replaced by another folder")
        return fd

    @contextmanager
    def folder(self, names: Sequence[str], *, create: bool = False) -> Iterator[int]:
        """A descriptor of the folder `names` below the root (created, mode 0700, when `create`)."""
        fd = self._open_root()
        try:
            for i, name in enumerate(names):
                try:
                    try:
                        nfd = os.open(name, _DIR_FLAGS, dir_fd=fd)
                    except FileNotFoundError:
                        if not create:
                            raise
                        try:
                            os.mkdir(name, DIR_MODE, dir_fd=fd)
                        except FileExistsError:
                            pass  # made by someone else meanwhile: opened (and checked) below all the same
                        nfd = os.open(name, _DIR_FLAGS, dir_fd=fd)
                except OSError as err:
                    raise self._walk_error(err, names[: i + 1], fd, name) from err
                os.close(fd)
                fd = nfd
            yield fd
        finally:
            os.close(fd)

    @staticmethod
    def _walk_error(err: OSError, names: Sequence[str], parent: int, name: str) -> TreeError:
        where = _shown(names)
        if isinstance(err, FileNotFoundError):
            return TreeError("missing", f"{where} does not exist")
        if err.errno in (errno.ELOOP, errno.ENOTDIR):
            try:
                link = stat.S_ISLNK(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
            except OSError:
                link = False
            if link:
                return TreeError("symlink", f"{where} is a symlink, which the memory tool never follows")
            return TreeError("not_dir", f"{where} is a file, not a directory")
        return TreeError("io", f"{where} cannot be opened ({err.strerror})")

    # -- single entries ------------------------------------------------------------------------------
    def lstat(self, names: Sequence[str]) -> os.stat_result | None:
        """The entry's own status (a link's, not its target's), or None when it does not exist."""
        if not names:
            fd = self._open_root()
            try:
                return os.fstat(fd)
            finally:
                os.close(fd)
        with self.folder(names[:-1]) as parent:
            try:
                return os.stat(names[-1], dir_fd=parent, follow_symlinks=False)
            except FileNotFoundError:
                return None

    def read(self, names: Sequence[str], *, max_bytes: int, now: float | None = None) -> bytes:
        """The bytes of a regular, singly-linked file of at most `max_bytes`; its access time set to `now`."""
        with self.folder(names[:-1]) as parent:
            try:
                fd = os.open(names[-1], _READ_FLAGS, dir_fd=parent)
            except FileNotFoundError as err:
                raise TreeError("missing", f"{_shown(names)} does not exist") from err
            except OSError as err:
                if err.errno == errno.ELOOP:
                    raise TreeError(
                        "symlink", f"{_shown(names)} is a symlink, which is never followed"
                    ) from err
                raise TreeError(
                    "not_file", f"{_shown(names)} cannot be read as a file ({err.strerror})"
                ) from err
            try:
                info = os.fstat(fd)
                if stat.S_ISDIR(info.st_mode):
                    raise TreeError("not_file", f"{_shown(names)} is a directory")
                if not stat.S_ISREG(info.st_mode):
                    raise TreeError(
                        "not_file", f"{_shown(names)} is not a regular file (a FIFO, socket or device)"
                    )
                if info.st_nlink != 1:
                    raise TreeError(
                        "linked", f"{_shown(names)} has other hard links, so it may be a file outside"
                    )
                if info.st_size > max_bytes:
                    raise TreeError("too_big", f"{_shown(names)} is larger than the {max_bytes}-byte limit")
                chunks, left = [], max_bytes + 1
                while left > 0 and (chunk := os.read(fd, min(left, 1 << 16))):
                    chunks.append(chunk)
                    left -= len(chunk)
                data = b"".join(chunks)
                if len(data) > max_bytes:  # grew after the fstat
                    raise TreeError("too_big", f"{_shown(names)} is larger than the {max_bytes}-byte limit")
                if now is not None:
                    # Explicit access time: noatime/relatime mounts would not keep it, and expiry reads it.
                    try:
                        os.utime(fd, (now, info.st_mtime))
                    except OSError:
                        pass
                return data
            finally:
                os.close(fd)

    def write(
        self, names: Sequence[str], data: bytes, *, exclusive: bool, create_parents: bool, now: float
    ) -> None:
        """Atomically (temporary file + rename in the same folder) write `data` as `names`.

        `exclusive`: fail if the name exists (a hard link of the finished temporary file, which never
        replaces anything); otherwise replace the entry itself — never a symlink's target."""
        with self.folder(names[:-1], create=create_parents) as parent:
            tmp = f"{TMP_PREFIX}{os.getpid()}-{uuid.uuid4().hex}"
            fd = os.open(tmp, _TMP_FLAGS, FILE_MODE, dir_fd=parent)
            try:
                try:
                    view = memoryview(data)
                    while view:
                        view = view[os.write(fd, view) :]
                    os.utime(fd, (now, now))
                    os.fsync(fd)
                finally:
                    os.close(fd)
                if exclusive:
                    try:
                        os.link(tmp, names[-1], src_dir_fd=parent, dst_dir_fd=parent, follow_symlinks=False)
                        os.unlink(tmp, dir_fd=parent)
                    except FileExistsError as err:
                        raise TreeError("exists", f"{_shown(names)} already exists") from err
                    except OSError as err:
                        if err.errno not in _NO_HARD_LINKS:
                            raise
                        # A file system without hard links: check, then rename (the name may appear in
                        # between only by another process's hand, inside the root).
                        if self._exists_in(parent, names[-1]):
                            raise TreeError("exists", f"{_shown(names)} already exists") from err
                        os.replace(tmp, names[-1], src_dir_fd=parent, dst_dir_fd=parent)
                else:
                    os.replace(tmp, names[-1], src_dir_fd=parent, dst_dir_fd=parent)
            except BaseException:
                try:
                    os.unlink(tmp, dir_fd=parent)
                except OSError:
                    pass
                raise
            try:
                os.fsync(parent)
            except OSError:
                pass

    @staticmethod
    def _exists_in(parent: int, name: str) -> bool:
        try:
            os.stat(name, dir_fd=parent, follow_symlinks=False)
            return True
        except FileNotFoundError:
            return False

    def delete(self, names: Sequence[str]) -> None:
        """Remove the entry `names`: a folder with everything in it, anything else (a symlink too) itself."""
        with self.folder(names[:-1]) as parent:
            self._delete_in(parent, names)

    def _delete_in(self, parent: int, names: Sequence[str]) -> None:
        for attempt in range(3):
            try:
                info = os.stat(names[-1], dir_fd=parent, follow_symlinks=False)
            except FileNotFoundError as err:
                raise TreeError("missing", f"{_shown(names)} does not exist") from err
            try:
                if stat.S_ISDIR(info.st_mode):
                    # Descriptor-based and symlink-safe: a folder swapped for a link meanwhile is refused.
                    shutil.rmtree(names[-1], dir_fd=parent)
                else:
                    os.unlink(names[-1], dir_fd=parent)
                return
            except FileNotFoundError as err:
                raise TreeError("missing", f"{_shown(names)} does not exist") from err
            except OSError as err:
                # The entry changed kind between the stat and the removal, or a folder being emptied was
                # given a new entry (another process): look again.
                retry = isinstance(err, IsADirectoryError | NotADirectoryError) or err.errno in (
                    errno.ELOOP,
                    errno.ENOTEMPTY,
                )
                if not retry or attempt == 2:
                    raise TreeError("io", f"{_shown(names)} could not be deleted ({err})") from err

    def rename(self, old: Sequence[str], new: Sequence[str], *, create_parents: bool) -> None:
        """Move the entry `old` (a link itself, not its target) to `new`, which must not exist."""
        with self.folder(old[:-1]) as old_parent, self.folder(new[:-1], create=create_parents) as new_parent:
            try:
                os.stat(old[-1], dir_fd=old_parent, follow_symlinks=False)
            except FileNotFoundError as err:
                raise TreeError("missing", f"{_shown(old)} does not exist") from err
            try:
                os.stat(new[-1], dir_fd=new_parent, follow_symlinks=False)
                raise TreeError("exists", f"{_shown(new)} already exists")
            except FileNotFoundError:
                pass
            try:
                os.rename(old[-1], new[-1], src_dir_fd=old_parent, dst_dir_fd=new_parent)
            except OSError as err:
                raise TreeError("io", f"{_shown(old)} could not be renamed ({err.strerror})") from err

    def clear(self) -> None:
        """Remove everything below the root (the root stays)."""
        with self.folder(()) as fd:
            for name in [e.name for e in os.scandir(fd)]:
                try:
                    self._delete_in(fd, (name,))
                except TreeError as err:
                    if err.kind != "missing":
                        raise

    # -- walking -------------------------------------------------------------------------------------
    def walk(
        self,
        names: Sequence[str] = (),
        *,
        max_depth: int | None = None,
        limit: int | None = None,
        skip: Callable[[str], bool] = lambda name: False,
    ) -> Iterator[Entry]:
        """Entries below `names`, depth first in name order, never through a symlink; at most `limit`
        entries (a local process may have made millions), and names for which `skip` holds left out
        (with everything below them)."""
        count = 0

        def names_in(fd: int) -> Iterator[str]:
            with os.scandir(fd) as it:
                found = [e.name for e in itertools.islice(it, None if limit is None else limit + 1)]
            return iter(sorted(found))

        with self.folder(names) as top:
            first = os.dup(top)
            stack: list[tuple[int, tuple[str, ...], int, Iterator[str]]] = []
            try:
                stack.append((first, tuple(names), 1, names_in(first)))
                while stack:
                    fd, prefix, depth, pending = stack[-1]
                    name = next(pending, None)
                    if name is None:
                        stack.pop()
                        os.close(fd)
                        continue
                    if skip(name):
                        continue
                    try:
                        info = os.stat(name, dir_fd=fd, follow_symlinks=False)
                    except OSError:
                        continue
                    if limit is not None and count >= limit:
                        return
                    count += 1
                    yield Entry((*prefix, name), info)
                    if stat.S_ISDIR(info.st_mode) and (max_depth is None or depth < max_depth):
                        try:
                            child = os.open(name, _DIR_FLAGS, dir_fd=fd)
                        except OSError:
                            continue
                        try:
                            stack.append((child, (*prefix, name), depth + 1, names_in(child)))
                        except OSError:
                            os.close(child)
            finally:
                for fd, *_ in stack:
                    os.close(fd)
