"""Path safety for the Claude memory tool: a `/memories/...` path in, the names below the root out.

Validation is segment by segment, before the file system is touched — so `..` in any spelling, look-alike
prefixes, percent-encoding and invisible or line-breaking characters all fail with a `ToolError` the
model can read. The names are then walked with directory file descriptors (`memory_fs`), which is what
keeps symlinks — including ones swapped in by a racing local process — from leading out of the root.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import PurePath

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


def within(path: PurePath, root: PurePath) -> bool:
    """`path` is `root` or lies below it, compared part by part (`/t/memX` is not within `/t/mem`)."""
    parts, base = path.parts, root.parts
    return len(parts) >= len(base) and parts[: len(base)] == base


# Characters that render as nothing or as a line break: a name holding one can spoof a `view` listing
# (U+2028 starts a new line in many renderers) or look identical to another name (Hangul fillers).
_INVISIBLE = frozenset(
    "\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5\u2800"
    + "".join(chr(c) for c in range(0x180B, 0x1810))
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))
)
# Cc control, Cf format (zero-width, bidi), Zl/Zp line and paragraph separators, Co/Cs/Cn private,
# surrogate and unassigned code points.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})


def unsafe_character(text: str) -> str | None:
    """The first character of `text` that must not appear in a memory name, or None."""
    for c in text:
        cat = unicodedata.category(c)
        if cat in _REFUSED_CATEGORIES or c in _INVISIBLE or (cat == "Zs" and c != " "):
            return c
        if 0xE0100 <= ord(c) <= 0xE01EF:  # variation selectors supplement
            return c
    return None


def path_segments(path: str, *, max_path_length: int, max_depth: int) -> list[str]:
    """The names below `/memories` in `path`; `ToolError` for anything that is not a plain, safe path."""
    if not isinstance(path, str) or not path:
        raise ToolError("A path is required, e.g. /memories/notes.md")
    if len(path) > max_path_length:
        raise ToolError(f"Path is too long ({len(path)} characters; the limit is {max_path_length}).")
    bad = unsafe_character(path)
    if bad is not None:
        raise ToolError(
            f"Path contains U+{ord(bad):04X} ({unicodedata.name(bad, 'unnamed')}): control characters, line or "
            "paragraph separators and invisible characters are not allowed in names."
        )
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
