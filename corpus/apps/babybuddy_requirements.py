"""Install Baby Buddy's pinned requirements into its virtualenv, without the file's own index line.

Usage: python babybuddy_requirements.py ROOT VENV. `requirements.txt` starts with
`-i https://pypi.python.org/simple`, which would replace pip's configured index; every other line is
a pinned package, installed as written.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

root, venv = Path(sys.argv[1]), Path(sys.argv[2])
lines = (root / "requirements.txt").read_text(encoding="utf-8").splitlines()
pins = [line for line in lines if line.strip() and not line.startswith(("-i ", "--index-url"))]
with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as out:
    out.write("\n".join(pins) + "\n")
subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "-r", out.name], check=True)
Path(out.name).unlink()
