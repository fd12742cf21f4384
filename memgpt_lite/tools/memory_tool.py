"""The Claude memory tool (`{"type": "memory_20250818", "name": "memory"}`), executed client-side on files.

`MemoryTool(root)` maps the model's `/memories` directory onto `root`. It follows the SDK's reference
implementation's commands and result texts, and is stricter about safety:

- paths are validated segment by segment under `/memories` (no `..`, backslashes, percent-encoding,
  hidden names, NUL/control characters, look-alike prefixes such as `/memoriesX`, over-long paths), and
  no symlink may lead outside `root`; nothing outside `root` is ever read, written, renamed over or listed;
- per-file and total size limits;
- every text is redacted (`memgpt_lite.tools.redaction`) before it reaches the disk;
- files not accessed for a while can be listed and cleared (`expired`, `clear_expired`);
- every write is atomic (temporary file + rename).

Use it with the SDK's `client.beta.messages.tool_runner(tools=[MemoryTool(root)], ...)`, or with our
agent loop: `Agent(model, memory, tools=[MemoryTool(root)])` (it joins through `as_tool()`).
"""

from __future__ import annotations

import os
import shutil
import stat
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
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
from memgpt_lite.tools.memory_paths import VIRTUAL_ROOT, format_size, resolve_memory_path, within
from memgpt_lite.tools.redaction import Redacted, redact
from memgpt_lite.tools.registry import Tool, ToolContext

LINE_NUMBER_WIDTH = 6
_FILE_MODE = 0o600
_DIR_MODE = 0o700
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


class MemoryTool(BetaAbstractMemoryTool):
    """File-backed memory for Claude's memory tool, confined to `root`."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        max_file_bytes: int = 64 * 1024,
        max_total_bytes: int = 4 * 1024 * 1024,
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
        root_path = Path(root)
        root_path.mkdir(mode=_DIR_MODE, parents=True, exist_ok=True)
        self.root = root_path.resolve()
        self.max_file_bytes = max_file_bytes
        self.max_total_bytes = max_total_bytes
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
        if command not in _FIELDS:
            raise ToolError(f"Unknown memory command {command!r}; expected one of: {', '.join(_FIELDS)}.")
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

    # -- path safety ---------------------------------------------------------------------------------
    def _resolve(self, path: str) -> Path:
        """The real path inside `root` for a `/memories/...` path, or a `ToolError` saying what is wrong."""
        return resolve_memory_path(
            path,
            self.root,
            max_path_length=self.max_path_length,
            max_depth=self.max_depth,
            has_secret=lambda text: self._redactor(text).changed,
        )

    def _virtual(self, real: Path) -> str:
        rel = real.relative_to(self.root).as_posix()
        return VIRTUAL_ROOT if rel == "." else f"{VIRTUAL_ROOT}/{rel}"

    # -- file primitives -----------------------------------------------------------------------------
    def _read(self, real: Path, path: str) -> str:
        try:
            fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW)
        except FileNotFoundError as err:
            raise ToolError(f"The path {path} does not exist. Please provide a valid path.") from err
        except OSError as err:
            raise ToolError(f"The path {path} cannot be read as a regular file.") from err
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise ToolError(f"The path {path} is not a file.")
            if info.st_size > self.max_file_bytes:
                raise ToolError(f"File {path} is larger than the {self.max_file_bytes}-byte limit.")
            with os.fdopen(fd, "rb", closefd=False) as fh:
                data = fh.read()
        finally:
            os.close(fd)
        self._touch(real)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ToolError(f"File {path} is not UTF-8 text.") from err

    def _touch(self, real: Path, modified: bool = False) -> None:
        # Explicit access time: mounts with noatime/relatime would not keep it for us, and expiry reads it.
        try:
            now = self._clock()
            mtime = now if modified else os.stat(real, follow_symlinks=False).st_mtime
            os.utime(real, (now, mtime), follow_symlinks=False)
        except OSError:
            pass

    def _mkdirs(self, directory: Path) -> None:
        missing = []
        cur = directory
        while not cur.exists():
            missing.append(cur)
            cur = cur.parent
        if not cur.is_dir():
            raise ToolError(f"{self._virtual(cur)} is a file, not a directory.")
        for d in reversed(missing):
            d.mkdir(mode=_DIR_MODE)

    def _files(self) -> Iterator[tuple[Path, os.stat_result]]:
        """Every regular file under root (symlinks are not followed)."""
        for dirpath, _dirs, files in os.walk(self.root, followlinks=False):
            for name in files:
                p = Path(dirpath) / name
                try:
                    info = os.stat(p, follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISREG(info.st_mode):
                    yield p, info

    def _prepare_text(self, content: str, real: Path, path: str) -> Redacted:
        """Redact, then check the per-file and total limits for writing `content` to `real`."""
        cleaned = self._redactor(content)
        size = len(cleaned.text.encode("utf-8"))
        if size > self.max_file_bytes:
            raise ToolError(
                f"File {path} would be {size} bytes; the limit per file is {self.max_file_bytes} bytes."
            )
        total = sum(info.st_size for p, info in self._files() if p != real)
        if total + size > self.max_total_bytes:
            raise ToolError(
                f"Memory is full: writing {path} would use {total + size} bytes of the {self.max_total_bytes}-byte "
                "limit. Delete or shorten files first."
            )
        return cleaned

    def _write(self, real: Path, text: str) -> None:
        tmp = real.parent / f".tmp-{os.getpid()}-{uuid.uuid4().hex}"
        data = text.encode("utf-8")
        fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_NOFOLLOW, _FILE_MODE)
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, real)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        self._touch(real, modified=True)

    @staticmethod
    def _note(cleaned: Redacted) -> str:
        return f" ({cleaned.summary()} applied before writing)" if cleaned.changed else ""

    # -- the six commands ----------------------------------------------------------------------------
    def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        real = self._resolve(command.path)
        try:
            leaf = os.stat(real, follow_symlinks=False)
        except (FileNotFoundError, NotADirectoryError) as err:
            raise ToolError(f"The path {command.path} does not exist. Please provide a valid path.") from err
        if stat.S_ISDIR(leaf.st_mode):
            items: list[tuple[str, str]] = []
            self._collect(real, "", 1, items)
            header = f"Here're the files and directories up to 2 levels deep in {command.path}, excluding hidden items:"
            lines = [f"{format_size(leaf.st_size)}\t{command.path}"]
            lines += [f"{size}\t{command.path.rstrip('/')}/{rel}" for size, rel in items]
            return header + "\n" + "\n".join(lines)
        content = self._read(real, command.path)
        lines = content.split("\n")
        start = 1
        if command.view_range:
            first, last = command.view_range
            start = max(1, first)
            end = len(lines) if last == -1 else last
            lines = lines[start - 1 : end]
        numbered = [f"{str(i + start).rjust(LINE_NUMBER_WIDTH)}\t{line}" for i, line in enumerate(lines)]
        return f"Here's the content of {command.path} with line numbers:\n" + "\n".join(numbered)

    def _collect(self, directory: Path, rel: str, depth: int, items: list[tuple[str, str]]) -> None:
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_symlink():
                # Listed only when it stays inside root, and never descended into.
                try:
                    if not within(Path(entry.path).resolve(), self.root):
                        continue
                except (OSError, RuntimeError):
                    continue
            info = entry.stat(follow_symlinks=False)
            item = f"{rel}/{entry.name}" if rel else entry.name
            if entry.is_dir(follow_symlinks=False):
                items.append((format_size(info.st_size), item + "/"))
                if depth < 2:
                    self._collect(Path(entry.path), item, depth + 1, items)
            else:
                items.append((format_size(info.st_size), item))

    def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        real = self._resolve(command.path)
        if real == self.root:
            raise ToolError("Cannot create a file at /memories itself.")
        if os.path.lexists(real):
            raise ToolError(f"File {command.path} already exists")
        cleaned = self._prepare_text(command.file_text, real, command.path)
        self._mkdirs(real.parent)
        self._write(real, cleaned.text)
        return f"File created successfully at: {command.path}" + self._note(cleaned)

    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        real = self._resolve(command.path)
        content = self._read(real, command.path)
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
        cleaned = self._prepare_text(content.replace(command.old_str, command.new_str), real, command.path)
        self._write(real, cleaned.text)
        new_lines = cleaned.text.split("\n")
        lo, hi = max(0, changed_line - 2), min(len(new_lines), changed_line + 3)
        snippet = [f"{str(n).rjust(LINE_NUMBER_WIDTH)}\t{new_lines[n - 1]}" for n in range(lo + 1, hi + 1)]
        return (
            "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
            + "\n".join(snippet)
            + self._note(cleaned)
        )

    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        real = self._resolve(command.path)
        content = self._read(real, command.path)
        lines = content.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if command.insert_line < 0 or command.insert_line > len(lines):
            raise ToolError(
                f"Invalid `insert_line` parameter: {command.insert_line}. "
                f"It should be within the range [0, {len(lines)}]."
            )
        lines.insert(command.insert_line, command.insert_text.rstrip("\n"))
        cleaned = self._prepare_text("\n".join(lines) + "\n", real, command.path)
        self._write(real, cleaned.text)
        return f"The file {command.path} has been edited." + self._note(cleaned)

    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        real = self._resolve(command.path)
        if real == self.root:
            raise ToolError("Cannot delete the /memories directory itself")
        if real.is_dir() and not real.is_symlink():
            shutil.rmtree(real)
        elif os.path.lexists(real):
            real.unlink()
        else:
            raise ToolError(f"The path {command.path} does not exist")
        return f"Successfully deleted {command.path}"

    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        old = self._resolve(command.old_path)
        new = self._resolve(command.new_path)
        if old == self.root or new == self.root:
            raise ToolError("Cannot rename the /memories directory itself")
        if not os.path.lexists(old):
            raise ToolError(f"The path {command.old_path} does not exist")
        if os.path.lexists(new):
            raise ToolError(f"The destination {command.new_path} already exists")
        if within(new, old):
            raise ToolError(f"Cannot move {command.old_path} into itself")
        self._mkdirs(new.parent)
        os.rename(old, new)
        return f"Successfully renamed {command.old_path} to {command.new_path}"

    def clear_all_memory(self) -> str:
        for entry in os.scandir(self.root):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
        return "All memory cleared"

    # -- expiry --------------------------------------------------------------------------------------
    def expired(self, older_than: timedelta | float | None = None) -> list[str]:
        """`/memories/...` paths of files neither read nor written for `older_than` (default `expire_after`)."""
        limit = _seconds(older_than) if older_than is not None else self.expire_after
        if limit is None:
            raise ConfigError("no expiry configured: pass older_than= or set expire_after=")
        cutoff = self._clock() - limit
        out = [self._virtual(p) for p, info in self._files() if max(info.st_atime, info.st_mtime) < cutoff]
        return sorted(out)

    def clear_expired(self, older_than: timedelta | float | None = None) -> list[str]:
        """Delete the expired files (see `expired`); returns what was deleted."""
        removed = self.expired(older_than)
        for path in removed:
            (self.root / path[len(VIRTUAL_ROOT) + 1 :]).unlink(missing_ok=True)
        return removed
