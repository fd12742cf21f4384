"""Seed the NiceGUI website for the corpus: nothing to create, only a fresh start.

Usage: ho32_nicegui_seed.py ROOT. The site keeps no data of its own; NiceGUI's storage (browser and
general storage, e.g. the documentation demos' counters) lives in ROOT/.nicegui and is removed, so
every build starts as a first visit.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def main(root: Path) -> None:
    shutil.rmtree(root / ".nicegui", ignore_errors=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
