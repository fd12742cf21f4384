#!/usr/bin/env bash
# Install everything the test suite needs into ./.venv (skipped when the venv is current: CI starts from
# a clean clone, so it always installs) and run it. `.ci/run` runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
ensure_venv test
ensure_chromium "browser tests will be skipped"
# One bytecode cache for the run's ~300 Python processes (xdist workers, CLI commands under test), kept in
# .venv between runs (outside the tree, so fresh clones made by tests stay untouched; the README test's
# clones inherit this one). Without it (PYTHONDONTWRITEBYTECODE, or no cache for a new clone) every process
# compiles the project and pytest rewrites every test module again; a cache made afresh for each run costs
# every run the compilation of every imported package too (~8 s of CPU per process that imports Chroma,
# several at once at the start). A .pyc records its source's mtime and size, so a stale one is recompiled.
export PYTHONPYCACHEPREFIX="${PYTHONPYCACHEPREFIX:-$PWD/.venv/pycache}"
unset PYTHONDONTWRITEBYTECODE
ruff check memgpt_lite bughunt evals tests benchmarks
ruff format --check memgpt_lite bughunt evals tests benchmarks
lint-imports --no-cache  # the layers of docs/architecture.md (contracts in pyproject.toml)
# The type checker runs beside the tests (they wait on subprocesses and sockets much of the time).
mypy_log=$(mktemp)
mypy >"$mypy_log" 2>&1 & mypy_pid=$!
# Tests run on every core (pytest-xdist), one more worker than cores: many tests wait on a subprocess.
# The inner loop is `bash scripts/test.sh -m "not slow"` (the tests marked slow are the end-to-end ones).
status=0
started=$SECONDS
python -m pytest -n "${PYTEST_WORKERS:-$(( $(nproc) + 1 ))}" --dist worksteal "$@" || status=$?
took=$(( SECONDS - started ))
selection=all prev=
for arg in "$@"; do
  if [ "$prev" = -m ]; then selection="-m \"$arg\""; elif [ "${arg#-m}" != "$arg" ] && [ "$arg" != -m ]; then selection="-m \"${arg#-m}\""; fi
  prev=$arg
done
if ! wait "$mypy_pid"; then cat "$mypy_log"; echo "mypy failed" >&2; status=1; fi
rm -f "$mypy_log"
echo "tests took ${took} s (wall), selection: ${selection}${*:+ (pytest arguments: $*)}" >&2
exit "$status"
