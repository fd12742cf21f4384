"""The Claude memory tool (`{"type": "memory_20250818", "name": "memory"}`), executed client-side on files.

`MemoryTool(root)` maps the model's `/memories` directory onto `root`. It follows the SDK's reference
implementation's commands and result texts, and is stricter about safety:

- paths are validated segment by segment under `/memories` (no `..`, backslashes, percent-encoding,
  hidden names, control characters, line/paragraph separators, invisible fillers, look-alike prefixes
  such as `/memoriesX`, over-long paths);
- the file system is reached only through directory descriptors (`memgpt_lite.tools.memory_fs`): no
  symlink is ever followed, not even one a racing local process swaps in between a check and a use, so
  nothing outside `root` is ever read, written, renamed over, deleted or listed; `delete` and `rename`
  of a symlink act on the link; only regular files with one link are read (no FIFO, device or hard link
  to an outside file), and symlinks, special files and oddly named entries are left out of listings;
- per-file, total size and file-count limits; the size is checked before redaction runs;
- every text is redacted (`memgpt_lite.tools.redaction`, linear time) before it reaches the disk;
- files not accessed for a while can be listed and cleared (`expired`, `clear_expired`);
- every write is atomic (temporary file + rename in the same folder).

Use it with the SDK's `client.beta.messages.tool_runner(tools=[MemoryTool(root)], ...)`, or with our
agent loop: `Agent(model, memory, tools=[MemoryTool(root)])` (it joins through `as_tool()`).
"""

from __future__ import annotations

import fcntl
import os
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import timedelta
from pathlib import PurePosixPath
from typing import Any

from anthropic.lib.tools import BetaAbstractMemoryTool, ToolError
from anthropic.types.beta import (
    BetaMemoryTool20250818CreateCommand,
    BetaMemoryTool20250818DeleteCommand,
    BetaMemoryTool20250818InsertCommand,
    BetaMemoryTool20250818RenameCommand,
    BetaMemoryTool20250818StrReplaceCommand,
    BetaMemoryTool20250818ViewCommand,
)

from memgpt_lite.errors import ConfigError
from memgpt_lite.tools.memory_fs import TMP_PREFIX, ConfinedTree, Entry, TreeError
from memgpt_lite.tools.memory_paths import VIRTUAL_ROOT, format_size, path_segments, unsafe_character, within
from memgpt_lite.tools.redaction import Redacted, redact
from memgpt_lite.tools.registry import Tool, ToolContext

LINE_NUMBER_WIDTH = 6
_FIELDS: dict[str, dict[str, type]] = {
    "view": {"path": str},
    "create": {"path": str, "file_text": str},
    "str_replace": {"path": str, "old_str": str, "new_str": str},
    "insert": {"path": str, "insert_line": int, "insert_text": str},
    "delete": {"path": str},
    "rename": {"old_path": str, "new_path": str},
}


# What the API expands the memory tool into, approximately — used only to count the prompt's tokens.
COUNTING_DESCRIPTION = (
    "Memory tool: view, create, str_replace, insert, delete and rename files under /memories to keep notes "
    "across conversations. Always view the memory directory before doing anything else; record progress as "
    "you go, since the context window may be reset at any moment and unrecorded work is lost. Keep the "
    "directory organised: update and delete files rather than duplicating them."
)
COUNTING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "command": {"type": "string", "enum": list(_FIELDS)},
        "path": {"type": "string", "description": "A path under /memories"},
        "view_range": {"type": "array", "items": {"type": "integer"}},
        "file_text": {"type": "string"},
        "old_str": {"type": "string"},
        "new_str": {"type": "string"},
        "insert_line": {"type": "integer"},
        "insert_text": {"type": "string"},
        "old_path": {"type": "string"},
        "new_path": {"type": "string"},
    },
    "required": ["command"],
}


def _seconds(value: timedelta | float | None) -> float | None:
    if value is None:
        return None
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


LOCK_WAIT_S = 10.0
"""The longest a write waits for another write to the same memory to finish."""


class MemoryTool(BetaAbstractMemoryTool):
    """File-backed memory for Claude's memory tool, confined to `root`."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        max_file_bytes: int = 64 * 1024,
        max_total_bytes: int = 4 * 1024 * 1024,
        max_files: int = 1000,
        max_path_length: int = 256,
        max_depth: int = 8,
        expire_after: timedelta | float | None = None,
        redactor: Callable[[str], Redacted] = redact,
        clock: Callable[[], float] = time.time,
        cache_control: Any = None,
    ) -> None:
        super().__init__(cache_control=cache_control)
        if max_file_bytes <= 0 or max_total_bytes < max_file_bytes:
            raise ConfigError("max_file_bytes must be > 0 and max_total_bytes >= max_file_bytes")
        if max_files <= 0:
            raise ConfigError("max_files must be > 0")
        self._tree = ConfinedTree(root)
        self.root = self._tree.root
        self.max_file_bytes = max_file_bytes
        self.max_total_bytes = max_total_bytes
        self.max_files = max_files
        self.max_path_length = max_path_length
        self.max_depth = max_depth
        self.expire_after = _seconds(expire_after)
        self._redactor = redactor
        self._clock = clock

    # -- integration ---------------------------------------------------------------------------------
    def as_tool(self) -> Tool:
        """This tool for a `ToolRegistry`: the provider definition plus a handler for its commands."""

        def handle(arguments: dict[str, Any], ctx: ToolContext) -> Any:
            return self.call(arguments)

        return Tool.native(
            self.to_dict(), handle, description=COUNTING_DESCRIPTION, input_schema=COUNTING_SCHEMA
        )

    def call(self, input: object) -> Any:
        """Check the command's shape before the SDK builds it unchecked; then dispatch."""
        if not isinstance(input, dict):
            raise ToolError("The memory tool input must be a JSON object.")
        command = input.get("command")
        if not isinstance(command, str) or command not in _FIELDS:
            # an object or a list is no command (and unhashable): named by its type, never echoed whole
            shown = repr(command[:40]) if isinstance(command, str) else f"of type {type(command).__name__}"
            raise ToolError(f"Unknown memory command {shown}; expected one of: {', '.join(_FIELDS)}.")
        for name, kind in _FIELDS[command].items():
            value = input.get(name)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise ToolError(f"The {command} command needs `{name}` ({kind.__name__}).")
        view_range = input.get("view_range")
        if command == "view" and view_range is not None:
            ok = isinstance(view_range, list) and len(view_range) == 2
            if not ok or not all(isinstance(v, int) and not isinstance(v, bool) for v in view_range):
                raise ToolError("`view_range` must be a list of two integers [start, end] (end may be -1).")
        return super().call(input)

    # -- paths ---------------------------------------------------------------------------------------
    def _names(self, path: str) -> tuple[str, ...]:
        """The names below the root for a `/memories/...` path, or a `ToolError` saying what is wrong."""
        segments = path_segments(path, max_path_length=self.max_path_length, max_depth=self.max_depth)
        if self._redactor(path).changed:
            raise ToolError("Path contains what looks like a secret or personal data; choose a neutral name.")
        return tuple(segments)

    @staticmethod
    def _virtual(names: Sequence[str]) -> str:
        return "/".join((VIRTUAL_ROOT, *names))

    @staticmethod
    def _listable(name: str) -> bool:
        # Entries a local process made with names the tool would refuse (hidden, temporary, invisible or
        # line-breaking characters) are never shown: they could spoof the listing.
        return not name.startswith(".") and unsafe_character(name) is None and name == name.strip()

    @contextmanager
    def _errors(self, path: str) -> Iterator[None]:
        """File-system trouble as a `ToolError` in the reference implementation's words where it has them."""
        try:
            yield
        except TreeError as err:
            if err.kind == "missing":
                raise ToolError(f"The path {path} does not exist. Please provide a valid path.") from err
            if err.kind == "symlink":
                raise ToolError(
                    f"Path {path} goes through a symlink; the memory tool never follows symlinks (it would "
                    "escape /memories or be redirected)."
                ) from err
            raise ToolError(f"{path}: {err}.") from err

    # -- file primitives -----------------------------------------------------------------------------
    def _read(self, names: tuple[str, ...], path: str) -> str:
        with self._errors(path):
            data = self._tree.read(names, max_bytes=self.max_file_bytes, now=self._clock())
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ToolError(f"File {path} is not UTF-8 text.") from err

    def _usage(self) -> Iterator[Entry]:
        """Every entry under root, at most `max_files + 1` (enough to tell that the limit is reached)."""
        return self._tree.walk(limit=self.max_files + 1, skip=lambda name: name.startswith(TMP_PREFIX))

    def _prepare_text(
        self, content: str, names: tuple[str, ...], path: str, *, replacing: os.stat_result | None
    ) -> Redacted:
        """Check the per-file limit, redact, then check the per-file, total and count limits for writing
        `content` as `names` (`replacing`: the file it replaces, not counted twice)."""
        # Before redaction as well as after: redaction may lengthen a text, and an over-long text must
        # not cost redaction time at all.
        raw = len(content.encode("utf-8", errors="surrogatepass"))
        if raw > self.max_file_bytes:
            raise ToolError(
                f"File {path} would be {raw} bytes; the limit per file is {self.max_file_bytes} bytes."
            )
        cleaned = self._redactor(content)
        size = len(cleaned.text.encode("utf-8", errors="surrogatepass"))
        if size > self.max_file_bytes:
            raise ToolError(
                f"File {path} would be {size} bytes; the limit per file is {self.max_file_bytes} bytes."
            )
        total = entries = 0
        with self._errors(path):
            for entry in self._usage():
                entries += 1
                same = replacing is not None and (entry.info.st_dev, entry.info.st_ino) == (
                    replacing.st_dev,
                    replacing.st_ino,
                )
                if stat.S_ISREG(entry.info.st_mode) and not same:
                    total += entry.info.st_size
        if total + size > self.max_total_bytes:
            raise ToolError(
                f"Memory is full: writing {path} would use {total + size} bytes of the {self.max_total_bytes}-byte "
                "limit. Delete or shorten files first."
            )
        if replacing is None:
            new_entries = 1 + self._missing_folders(names)
            if entries + new_entries > self.max_files:
                raise ToolError(
                    f"Memory holds {entries if entries <= self.max_files else 'more than ' + str(self.max_files)} "
                    f"files and folders; the limit is {self.max_files}. Delete or merge files first."
                )
        return cleaned

    @contextmanager
    def _writing(self, path: str) -> Iterator[None]:
        """Hold the memory's write lock from the size check to the write: without it, two writers (two
        threads or two processes on one root) both pass the total-size check and overshoot it.

        The lock is `flock` on the root folder itself (no file of its own in the memory), taken through
        a descriptor of this call's own, so threads of one process exclude each other too; the wait is
        bounded by `LOCK_WAIT_S`."""
        try:
            fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as err:
            raise ToolError(f"{path}: the memory folder cannot be opened ({err.strerror or err}).") from err
        try:
            deadline = time.monotonic() + LOCK_WAIT_S
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise ToolError(f"{path}: memory is busy with another write; try again.") from None
                    time.sleep(0.005)
            yield
        finally:
            os.close(fd)  # closing the descriptor releases its lock

    def _missing_folders(self, names: tuple[str, ...]) -> int:
        for depth in range(len(names) - 1, 0, -1):
            try:
                if self._tree.lstat(names[:depth]) is not None:
                    return len(names) - 1 - depth
            except TreeError:
                return 0  # the walk fails on this path anyway, with its own message
        return len(names) - 1

    def _text_bytes(self, text: str) -> bytes:
        return text.encode("utf-8", errors="replace")

    @staticmethod
    def _note(cleaned: Redacted) -> str:
        return f" ({cleaned.summary()} applied before writing)" if cleaned.changed else ""

    # -- the six commands ----------------------------------------------------------------------------
    def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        names = self._names(command.path)
        with self._errors(command.path):
            leaf = self._tree.lstat(names)
        if leaf is None:
            raise ToolError(f"The path {command.path} does not exist. Please provide a valid path.")
        if stat.S_ISLNK(leaf.st_mode):
            raise ToolError(f"The path {command.path} is a symlink, which the memory tool never follows.")
        if stat.S_ISDIR(leaf.st_mode):
            header = f"Here're the files and directories up to 2 levels deep in {command.path}, excluding hidden items:"
            lines = [f"{format_size(leaf.st_size)}\t{command.path}"]
            base = command.path.rstrip("/")
            with self._errors(command.path):
                for entry in self._tree.walk(
                    names, max_depth=2, limit=self.max_files, skip=lambda n: not self._listable(n)
                ):
                    rel = "/".join(entry.names[len(names) :])
                    if entry.is_dir:
                        lines.append(f"{format_size(entry.info.st_size)}\t{base}/{rel}/")
                    elif entry.is_plain_file:
                        lines.append(f"{format_size(entry.info.st_size)}\t{base}/{rel}")
            return header + "\n" + "\n".join(lines)
        content = self._read(names, command.path)
        lines = content.split("\n")
        start = 1
        if command.view_range:
            first, last = command.view_range
            start = max(1, first)
            end = len(lines) if last == -1 else last
            lines = lines[start - 1 : end]
        numbered = [f"{str(i + start).rjust(LINE_NUMBER_WIDTH)}\t{line}" for i, line in enumerate(lines)]
        return f"Here's the content of {command.path} with line numbers:\n" + "\n".join(numbered)

    def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        names = self._names(command.path)
        if not names:
            raise ToolError("Cannot create a file at /memories itself.")
        try:
            exists = self._tree.lstat(names) is not None
        except TreeError as err:
            if err.kind != "missing":  # a symlink or a file on the way: say so
                with self._errors(command.path):
                    raise
            exists = False  # a folder on the way is missing: created below
        if exists:
            raise ToolError(f"File {command.path} already exists")
        with self._writing(command.path), self._errors(command.path):
            cleaned = self._prepare_text(command.file_text, names, command.path, replacing=None)
            try:
                self._tree.write(
                    names,
                    self._text_bytes(cleaned.text),
                    exclusive=True,
                    create_parents=True,
                    now=self._clock(),
                )
            except TreeError as err:
                if err.kind == "exists":
                    raise ToolError(f"File {command.path} already exists") from err
                raise
        return f"File created successfully at: {command.path}" + self._note(cleaned)

    def _edit(self, names: tuple[str, ...], path: str, new_text: str, before: os.stat_result) -> Redacted:
        with self._writing(path):
            cleaned = self._prepare_text(new_text, names, path, replacing=before)
            with self._errors(path):
                self._tree.write(
                    names,
                    self._text_bytes(cleaned.text),
                    exclusive=False,
                    create_parents=False,
                    now=self._clock(),
                )
        return cleaned

    def _read_for_edit(self, names: tuple[str, ...], path: str) -> tuple[str, os.stat_result]:
        content = self._read(names, path)
        with self._errors(path):
            info = self._tree.lstat(names)
        if info is None:
            raise ToolError(f"The path {path} does not exist. Please provide a valid path.")
        return content, info

    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        names = self._names(command.path)
        if not names:
            raise ToolError("/memories is a directory, not a file.")
        content, info = self._read_for_edit(names, command.path)
        count = content.count(command.old_str) if command.old_str else 0
        if count == 0:
            raise ToolError(
                f"No replacement was performed, old_str `{command.old_str}` did not appear verbatim in {command.path}."
            )
        if count > 1:
            lines, start = [], 0
            while (pos := content.find(command.old_str, start)) != -1:
                lines.append(content[:pos].count("\n") + 1)
                start = pos + 1
            raise ToolError(
                f"No replacement was performed. Multiple occurrences of old_str `{command.old_str}` in lines: "
                f"{', '.join(map(str, lines))}. Please ensure it is unique"
            )
        changed_line = content[: content.find(command.old_str)].count("\n")
        cleaned = self._edit(names, command.path, content.replace(command.old_str, command.new_str), info)
        new_lines = cleaned.text.split("\n")
        lo, hi = max(0, changed_line - 2), min(len(new_lines), changed_line + 3)
        snippet = [f"{str(n).rjust(LINE_NUMBER_WIDTH)}\t{new_lines[n - 1]}" for n in range(lo + 1, hi + 1)]
        return (
            "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
            + "\n".join(snippet)
            + self._note(cleaned)
        )

    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        names = self._names(command.path)
        if not names:
            raise ToolError("/memories is a directory, not a file.")
        content, info = self._read_for_edit(names, command.path)
        lines = content.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if command.insert_line < 0 or command.insert_line > len(lines):
            raise ToolError(
                f"Invalid `insert_line` parameter: {command.insert_line}. "
                f"It should be within the range [0, {len(lines)}]."
            )
        lines.insert(command.insert_line, command.insert_text.rstrip("\n"))
        cleaned = self._edit(names, command.path, "\n".join(lines) + "\n", info)
        return f"The file {command.path} has been edited." + self._note(cleaned)

    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        names = self._names(command.path)
        if not names:
            raise ToolError("Cannot delete the /memories directory itself")
        try:
            self._tree.delete(names)
        except TreeError as err:
            if err.kind == "missing":
                raise ToolError(f"The path {command.path} does not exist") from err
            with self._errors(command.path):
                raise
        return f"Successfully deleted {command.path}"

    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        old = self._names(command.old_path)
        new = self._names(command.new_path)
        if not old or not new:
            raise ToolError("Cannot rename the /memories directory itself")
        if within(PurePosixPath(*new), PurePosixPath(*old)):
            raise ToolError(f"Cannot move {command.old_path} into itself")
        try:
            self._tree.rename(old, new, create_parents=True)
        except TreeError as err:
            if err.kind == "missing" and self._tree_missing(old):
                raise ToolError(f"The path {command.old_path} does not exist") from err
            if err.kind == "exists":
                raise ToolError(f"The destination {command.new_path} already exists") from err
            with self._errors(f"{command.old_path} -> {command.new_path}"):
                raise
        return f"Successfully renamed {command.old_path} to {command.new_path}"

    def _tree_missing(self, names: tuple[str, ...]) -> bool:
        try:
            return self._tree.lstat(names) is None
        except TreeError as err:
            return err.kind == "missing"

    def clear_all_memory(self) -> str:
        with self._errors(VIRTUAL_ROOT):
            self._tree.clear()
        return "All memory cleared"

    # -- expiry --------------------------------------------------------------------------------------
    def _plain_files(self) -> Iterator[Entry]:
        for entry in self._tree.walk(skip=lambda name: not self._listable(name)):
            if entry.is_plain_file:
                yield entry

    def expired(self, older_than: timedelta | float | None = None) -> list[str]:
        """`/memories/...` paths of files neither read nor written for `older_than` (default `expire_after`)."""
        limit = _seconds(older_than) if older_than is not None else self.expire_after
        if limit is None:
            raise ConfigError("no expiry configured: pass older_than= or set expire_after=")
        cutoff = self._clock() - limit
        with self._errors(VIRTUAL_ROOT):
            out = [
                self._virtual(e.names)
                for e in self._plain_files()
                if max(e.info.st_atime, e.info.st_mtime) < cutoff
            ]
        return sorted(out)

    def clear_expired(self, older_than: timedelta | float | None = None) -> list[str]:
        """Delete the expired files (see `expired`); returns what was deleted."""
        removed = []
        for path in self.expired(older_than):
            names = tuple(path[len(VIRTUAL_ROOT) + 1 :].split("/"))
            try:
                info = self._tree.lstat(names)
                # Only what is still the plain file that expired: never a folder or link swapped in.
                if info is not None and stat.S_ISREG(info.st_mode):
                    self._tree.delete(names)
                    removed.append(path)
            except TreeError:
                continue
        return removed
