"""`python -m memgpt_lite.tools.bench_redaction`: an alias of `python -m benchmarks.redaction`.

The benchmark lives in the top-level `benchmarks/` package; this name is kept because scripts use it.
The module is run by name, not imported: memgpt_lite never imports benchmarks (the import contracts
in pyproject.toml keep benchmarks above every other package).
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

if __name__ == "__main__":
    # `benchmarks/` sits beside the package in a clone (it is not installed)
    root = str(Path(__file__).resolve().parents[2])
    if root not in sys.path:
        sys.path.insert(0, root)
    runpy.run_module("benchmarks.redaction", run_name="__main__", alter_sys=True)
