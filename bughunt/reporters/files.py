"""Writing the CI files (`--junit`, `--sarif`): atomically, so a killed run never leaves half a file
for the CI to read."""

from __future__ import annotations

import json
from pathlib import Path

from memgpt_lite.storage.directory import atomic_write_text

from .junit import junit_xml
from .records import StoredRun
from .sarif import sarif_log


def write_ci_files(
    run: StoredRun, *, junit: Path | None, sarif: Path | None, accepted: frozenset[str] | None = None
) -> list[Path]:
    """Write the files asked for; `accepted` (a baseline's fingerprints) marks accepted bugs in both."""
    written = []
    if junit is not None:
        written.append(_write(junit, junit_xml(run, accepted or frozenset())))
    if sarif is not None:
        written.append(_write(sarif, json.dumps(sarif_log(run, accepted), indent=2) + "\n"))
    return written


def _write(out: Path, text: str) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    return atomic_write_text(out, text, mode=0o644)
