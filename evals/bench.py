"""`python -m evals.bench [--json] [--context-only]`: an alias of `python -m benchmarks.memory`.

The benchmarks live in the top-level `benchmarks/` package; this name is kept because scripts use it.
The module is run by name, not imported: evals does not depend on benchmarks (the import contracts in
pyproject.toml keep benchmarks above every other package).
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path


def run_alias(module: str) -> None:
    """Run `module` as `__main__` with this process's arguments. `benchmarks/` sits beside the package
    in a clone (it is not installed), so the clone's root is put on the path when it is not there."""
    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    run_alias("benchmarks.memory")
