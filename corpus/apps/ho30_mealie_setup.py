"""Mealie's dependencies for a corpus build (ours): `ho30_mealie_setup.py ROOT`.

Back end: Mealie pins its Python dependencies in `poetry.lock` (its Docker image installs those); pip
resolving `pyproject.toml`'s ranges alone would pick releases the app was never run with. So the lock's
versions become a pip constraints file and the checkout is installed into `{root}/.corpus-venv` with
them, editable (the injected bugs are edits of the checkout). Front end: yarn 1 from `frontend/yarn.lock`, as the Dockerfile does,
from the registry npm is set up with (the lock names yarn's own); `--ignore-engines` because a build-time
type package declares Node <= 19 and this machine has a newer Node (the Dockerfile's node:16 image is
not to be had here).
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve()
VENV = ROOT / ".corpus-venv"


def main() -> None:
    lock = tomllib.loads((ROOT / "poetry.lock").read_text())
    pins = sorted(f"{p['name']}=={p['version']}" for p in lock["package"])
    constraints = ROOT / ".corpus-constraints.txt"
    constraints.write_text("\n".join(pins) + "\n")
    if not (VENV / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    pip = [str(VENV / "bin" / "pip"), "install", "-q", "-c", str(constraints)]
    subprocess.run([*pip, "-e", str(ROOT)], check=True)
    registry = subprocess.run(
        ["npm", "config", "get", "registry"], check=True, capture_output=True, text=True
    ).stdout.strip()
    subprocess.run(
        [
            "yarn",
            "install",
            "--frozen-lockfile",
            "--non-interactive",
            "--ignore-engines",
            "--network-timeout",
            "600000",
            "--registry",
            registry,
        ],
        cwd=ROOT / "frontend",
        check=True,
    )


if __name__ == "__main__":
    main()
