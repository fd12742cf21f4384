"""The CI gate's names that a run's command line needs before its first click (`--fail-on`'s choices,
the default baseline's path, the exit code): apart from `baseline`, whose records and reader a run only
needs when it is given a baseline or asked for a verdict, after its last click."""

from __future__ import annotations

from pathlib import Path

DEFAULT_PATH = Path("bughunt-baseline.json")
FAIL_ON = ("none", "new", "open")
EXIT_BUGS = 3
"""Exit code when --fail-on finds bugs (1 stays a runtime failure, 2 bad input)."""
