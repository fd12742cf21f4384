#!/usr/bin/env bash
# Install the project into ./.venv (skipped when the venv is current) and run the BugHunt explorer on the
# built-in site (no API key needed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
ensure_venv ""
ensure_chromium "--engine browser will say how to get it"
exec bughunt explore --builtin-site --store ./bughunt-store --budget 30 --report ./bughunt-report.html "$@"
