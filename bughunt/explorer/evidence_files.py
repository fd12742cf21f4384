"""Screenshots and DOM snapshots of a bug's failing state (browser engine), kept in the store folder.

When a step finds a new bug and the engine can capture (the browser can; plain HTTP cannot), the page
is photographed once — a viewport PNG and the DOM as rendered, each bounded — into
`<store>/evidence/<fingerprint>.png` and `.dom.txt`, and the bug entry's evidence names the files (paths
relative to the store). The DOM snapshot is page content: a file to look at, never memory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable

from .harness import StepOutcome
from .store import ExplorerStore

EVIDENCE_DIR = "evidence"
MAX_FILE_BYTES = 2_000_000


@runtime_checkable
class Captures(Protocol):
    def capture(self, url: str, png: Path, html: Path, *, max_bytes: int = ...) -> bool: ...


def keep_screenshots(store: ExplorerStore, engine: object, out: StepOutcome, url: str) -> int:
    """Capture `url` for each new bug of the step `out`; returns how many captures were kept."""
    if not out.new_bugs or not isinstance(engine, Captures) or store.read_only:
        return 0
    kept = 0
    for finding in {f.fingerprint: f for f in out.new_bugs}.values():
        png = Path(EVIDENCE_DIR) / f"{finding.fingerprint}.png"
        # plain text on purpose: opened from disk, a saved page would run the site's scripts again
        html = Path(EVIDENCE_DIR) / f"{finding.fingerprint}.dom.txt"
        if not engine.capture(url, store.dir / png, store.dir / html, max_bytes=MAX_FILE_BYTES):
            continue
        # the rendered page may echo a secret ("your password is …"): the store's scrubber runs on
        # every text it keeps, these files included (a screenshot's pixels are not text)
        dom = store.dir / html
        dom.write_text(
            store.scrubber.text(dom.read_text(encoding="utf-8", errors="replace")), encoding="utf-8"
        )
        with store.transaction():
            store.bug_table.attach(
                finding.fingerprint, {"screenshot": png.as_posix(), "dom_snapshot": html.as_posix()}
            )
        kept += 1
    return kept
