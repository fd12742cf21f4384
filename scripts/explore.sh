#!/usr/bin/env bash
# Install the project into ./.venv and run the BugHunt explorer on the built-in site (no API key needed).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d .venv ] || python3 -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip
python -m pip install -q -e .
exec bughunt explore --builtin-site --store ./bughunt-store --budget 30 --report ./bughunt-report.html "$@"
