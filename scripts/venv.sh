# Sourced by explore.sh and test.sh: create ./.venv if needed, activate it, and install the project into
# it with the given extras unless the install is current. "Current" means a stamp file in the venv holds
# the hash of pyproject.toml (dependencies, entry points) and of the interpreter; the install is editable,
# so source changes never need a reinstall. Delete .venv/.installed-* (or the venv) to force one.
ensure_venv() {
  local extras="$1" stamp want
  [ -d .venv ] || python3 -m venv .venv
  . .venv/bin/activate
  stamp=".venv/.installed-${extras:-base}"
  want="$( (cat pyproject.toml; python --version) | sha256sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  rm -f "$stamp"
  python -m pip install -q --upgrade pip
  python -m pip install -q -e ".${extras:+[$extras]}"
  echo "$want" > "$stamp"
}
