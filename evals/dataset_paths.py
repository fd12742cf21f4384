"""Where the case sets live: `evals/datasets/<name>/`, data beside the code, never package data.

Until the sets became datasets they were folders of the package itself (`evals/cases/`,
`evals/heldout/`, `evals/heldout2/` …), and scripts name those paths (`--cases evals/heldout2`,
`--cases evals/cases/traps.yaml`). A path of that old layout that no longer exists is read as the
same set in its dataset folder, so those scripts keep working.
"""

from __future__ import annotations

from pathlib import Path

DATASETS_DIR = Path(__file__).parent / "datasets"
"""The versioned datasets: case sets and records files (`evals/datasets/manifest.yaml` lists them)."""
DEFAULT_SET = "own"
"""The project's own cases (the version-1 cases and the trap cases), the default of `--cases`."""
FIXTURE_SET = "fixture"
"""The generated BugHunt fixture's records (a records file, no cases)."""

_OLD_NAMES = {"cases": DEFAULT_SET}
"""Sets whose folder was renamed when it moved (`evals/cases/` is the own set); the held-out sets kept
their names (`evals/heldout2/` is `evals/datasets/heldout2/`)."""


def dataset_dir(name: str) -> Path:
    return DATASETS_DIR / name


def resolve_old_layout(path: Path) -> Path:
    """`path`, or — when it does not exist and names a set in the old layout (`…/evals/heldout2[/f]`)
    — the same set (and file) under `evals/datasets/`, if that exists. Anything else is returned as
    given, so a missing path still fails where it is read, naming the path the user wrote."""
    if path.exists():
        return path
    parts = path.parts
    for i, part in enumerate(parts[:-1]):
        if part != "evals" or parts[i + 1] == "datasets":
            continue
        name = _OLD_NAMES.get(parts[i + 1], parts[i + 1])
        moved = Path(*parts[: i + 1], "datasets", name, *parts[i + 2 :])
        if moved.exists():
            return moved
    return path
