"""Path safety for the Claude memory tool: a `/memories/...` path in, a real path inside the root out.

Validation is segment by segment, before the file system is touched, and then again on the resolved
path — so `..` in any spelling, look-alike prefixes and symlinks that lead out of the root all fail with
a `ToolError` the model can read.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from pathlib import Path

from anthropic.lib.tools import ToolError

VIRTUAL_ROOT = "/memories"
_FORBIDDEN_CHARS = frozenset('<>:"|?*')
_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


def format_size(n: int) -> str:
    """Sizes as the SDK's reference implementation renders them (4096 → 4K, 1536 → 1.5K)."""
    if n == 0:
        return "0B"
    units = ["B", "K", "M", "G"]
    i = min((n.bit_length() - 1) // 10, len(units) - 1)
    size = n / (1024**i)
    return f"{int(size)}{units[i]}" if size == int(size) else f"{size:.1f}{units[i]}"


def within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def path_segments(path: str, *, max_path_length: int, max_depth: int) -> list[str]:
    """The names below `/memories` in `path`; `ToolError` for anything that is not a plain, safe path."""
    if not isinstance(path, str) or not path:
        raise ToolError("A path is required, e.g. /memories/notes.md")
    if len(path) > max_path_length:
        raise ToolError(f"Path is too long ({len(path)} characters; the limit is {max_path_length}).")
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in path):
        raise ToolError("Path contains NUL, control or invisible formatting characters.")
    if "\\" in path:
        raise ToolError(f"Path {path!r} contains a backslash; use / to separate directories.")
    if _PERCENT_ESCAPE.search(path):
        raise ToolError(f"Path {path!r} contains percent-encoded characters, which are not allowed.")
    if path != VIRTUAL_ROOT and not path.startswith(VIRTUAL_ROOT + "/"):
        raise ToolError(f"Path must start with /memories, got: {path}")
    rel = path[len(VIRTUAL_ROOT) :]
    if rel.endswith("/"):
        rel = rel[:-1]
    segments = rel.split("/")[1:] if rel else []
    if len(segments) > max_depth:
        raise ToolError(f"Path is nested too deeply ({len(segments)} levels; the limit is {max_depth}).")
    for seg in segments:
        if seg in ("", ".", ".."):
            raise ToolError(
                f"Path {path!r} contains an empty, '.' or '..' segment; it would escape /memories"
            )
        if seg.startswith("."):
            raise ToolError(f"Hidden names (starting with '.') are not allowed: {seg!r}")
        if seg != seg.strip() or seg.endswith("."):
            raise ToolError(f"Names may not begin or end with spaces or end with '.': {seg!r}")
        if _FORBIDDEN_CHARS & set(seg):
            raise ToolError(f'Name {seg!r} contains one of the forbidden characters <>:"|?*')
        if len(seg.encode("utf-8")) > 255:
            raise ToolError(f"Name {seg[:40]!r}… is longer than 255 bytes.")
    return segments


def resolve_memory_path(
    path: str,
    root: Path,
    *,
    max_path_length: int = 256,
    max_depth: int = 8,
    has_secret: Callable[[str], bool] | None = None,
) -> Path:
    """The real path inside `root` (already resolved) for `path`, or a `ToolError` saying what is wrong."""
    segments = path_segments(path, max_path_length=max_path_length, max_depth=max_depth)
    if has_secret is not None and has_secret(path):
        raise ToolError("Path contains what looks like a secret or personal data; choose a neutral name.")
    current = root
    for seg in segments:
        current = current / seg
        if current.is_symlink():
            try:
                target = current.resolve(strict=False)
            except (OSError, RuntimeError) as err:
                raise ToolError(f"Path {path} goes through a broken symlink.") from err
            if not within(target, root):
                raise ToolError(f"Path {path} would escape /memories directory via symlink")
    try:
        resolved = current.resolve(strict=False)
    except (OSError, RuntimeError) as err:
        raise ToolError(f"Path {path} cannot be resolved.") from err
    if not within(resolved, root):
        raise ToolError(f"Path {path} would escape /memories directory")
    return resolved
