# Sourced by explore.sh and test.sh: create ./.venv if needed, activate it, and install the project into
# it with the given extras unless the install is current. "Current" means a stamp file in the venv holds
# `venv_stamp`; the install is editable, so source changes never need a reinstall. Delete
# .venv/.installed-* (or the venv) to force one.
ensure_venv() {
  local extras="$1" stamp want
  [ -d .venv ] || python3 -m venv .venv
  . .venv/bin/activate
  stamp=".venv/.installed-${extras:-base}"
  want="$(venv_stamp)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  rm -f "$stamp"
  python -m pip install -q --upgrade pip
  python -m pip install -q -e ".${extras:+[$extras]}"
  echo "$want" > "$stamp"
}

# What an install depends on: pyproject.toml's [project] and [build-system] tables (dependencies, extras,
# entry points) and the interpreter. The [tool.*] settings (pytest, ruff, mypy, import-linter) are left
# out: editing them must not cost a reinstall.
venv_stamp() {
  python - <<'PY'
import hashlib, json, sys, tomllib

with open("pyproject.toml", "rb") as f:
    data = tomllib.load(f)
key = {"project": data.get("project"), "build-system": data.get("build-system"), "python": sys.version}
print(hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest())
PY
}

# Debian's headless Chromium for the browser engine (`--engine browser`/`auto`) and the browser tests;
# Playwright drives it and never downloads a browser. Installed only where it is missing and apt-get can
# run (root); elsewhere the explorer names the package in one line when a run needs it.
ensure_chromium() {
  if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || echo "warning: could not install chromium; $1" >&2
  fi
}
