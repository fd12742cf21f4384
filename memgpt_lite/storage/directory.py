"""The store directory: one folder per agent/session, marked as ours, with atomic JSON writes.

Layout: `memgpt_lite.json` (marker with the format version), `recall.sqlite` (recall storage),
`archival/` (Chroma, embedded), `state.json` (agent state, written by `memgpt_lite.state`).
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memgpt_lite.errors import StoreError
from memgpt_lite.log import logger
from memgpt_lite.version import __version__

from .durability import durable

MARKER_NAME = "memgpt_lite.json"
FORMAT_NAME = "memgpt_lite-store"
FORMAT_VERSION = 1

_MISSING: Any = object()


def atomic_write_text(path: str | os.PathLike[str], text: str, *, mode: int | None = None) -> Path:
    """Write `text` so that readers see the old file or the new one, never half of either.

    tmp file in the same folder + fsync + os.replace, then fsync of the folder so the rename itself
    survives a crash (both fsyncs are skipped inside `durability.scratch_writes()`: a copy that will
    be deleted). On any failure the tmp file is removed and `path` is left as it was. `mode`
    (e.g. 0o644 for a report others read) replaces the tmp file's private 0o600.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            if durable():
                os.fsync(f.fileno())  # the rename must not publish a file whose bytes are still in flight
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    if durable():
        _fsync_dir(path.parent)
    return path


def atomic_write_json(path: str | os.PathLike[str], data: Any) -> None:
    """`data` as indented JSON, written atomically (`atomic_write_text`)."""
    text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False, default=_json_default)
    atomic_write_text(path, text + "\n")


def read_json(path: str | os.PathLike[str], default: Any = _MISSING) -> Any:
    """Read a JSON file; a missing file returns `default` (or raises `StoreError` when none is given)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if default is not _MISSING:
            return default
        raise StoreError(f"{path} is missing") from None
    except (OSError, UnicodeDecodeError) as e:
        raise StoreError(f"{path} cannot be read: {e}") from e
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise StoreError(f"{path} is corrupt (not valid JSON: {e})") from e


def _json_default(obj: Any) -> Any:
    if isinstance(obj, datetime):
        return obj.isoformat()
    if isinstance(obj, Path):
        return str(obj)
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json")
    raise TypeError(f"cannot store {type(obj).__name__} as JSON")


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # some platforms cannot open folders; the rename is still atomic there
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class StoreDirectory:
    """A validated store directory. Use `StoreDirectory.open(path)`; it never adopts a foreign folder."""

    def __init__(self, path: Path, marker: dict[str, Any]) -> None:
        self.path = path
        self.marker = marker

    @property
    def marker_path(self) -> Path:
        return self.path / MARKER_NAME

    @property
    def recall_path(self) -> Path:
        return self.path / "recall.sqlite"

    @property
    def chroma_path(self) -> Path:
        return self.path / "archival"

    @property
    def state_path(self) -> Path:
        return self.path / "state.json"

    @property
    def format_version(self) -> int:
        return int(self.marker["format_version"])

    def __repr__(self) -> str:
        return f"StoreDirectory({str(self.path)!r})"

    @classmethod
    def open(cls, path: str | os.PathLike[str], create: bool = True) -> StoreDirectory:
        """Open a store directory, creating it (or initialising an empty folder) when `create` is true.

        Raises `StoreError` for a path that is a file, a non-empty folder without our marker, a corrupt
        marker, or a marker written by a newer format version.
        """
        path = Path(path).expanduser()
        if path.exists() and not path.is_dir():
            raise StoreError(f"{path} is a file, not a store directory")
        marker_path = path / MARKER_NAME
        if marker_path.exists():
            return cls(path.resolve(), _validate_marker(marker_path))
        if not path.exists():
            if not create:
                raise StoreError(f"store directory {path} does not exist")
            try:
                path.mkdir(parents=True)
            except OSError as e:
                raise StoreError(f"cannot create store directory {path}: {e}") from e
        else:
            entries = sorted(p.name for p in path.iterdir())
            if entries:
                shown = ", ".join(entries[:5]) + (", ..." if len(entries) > 5 else "")
                raise StoreError(
                    f"{path} is not a memgpt_lite store: it has no {MARKER_NAME} marker but already "
                    f"contains {len(entries)} entries ({shown}); choose an empty or new folder"
                )
            if not create:
                raise StoreError(f"{path} is an empty folder, not a memgpt_lite store")
        marker = {
            "format": FORMAT_NAME,
            "format_version": FORMAT_VERSION,
            "created_at": datetime.now(UTC).isoformat(),
            "created_by": f"memgpt_lite {__version__}",
        }
        atomic_write_json(marker_path, marker)
        logger.debug("created store directory {}", path)
        return cls(path.resolve(), marker)


def _validate_marker(marker_path: Path) -> dict[str, Any]:
    try:
        marker = read_json(marker_path)
    except StoreError as e:
        raise StoreError(f"corrupt store marker: {e}") from e
    if not isinstance(marker, dict) or marker.get("format") != FORMAT_NAME:
        raise StoreError(f"{marker_path} is not a memgpt_lite store marker (format is not {FORMAT_NAME!r})")
    version = marker.get("format_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise StoreError(
            f"corrupt store marker {marker_path}: format_version {version!r} is not a positive integer"
        )
    if version > FORMAT_VERSION:
        raise StoreError(
            f"{marker_path.parent} was written by a newer memgpt_lite (store format {version}; this version "
            f"reads up to {FORMAT_VERSION}); upgrade memgpt_lite to open it"
        )
    return marker
