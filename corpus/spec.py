"""One application of the corpus as its `corpus/apps/<name>.toml` describes it.

A file that does not follow the format is one `SpecError` naming the file and the key, so a typo
costs a line of output, not a traceback half-way through a run.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

KINDS = frozenset(
    {
        "server_error",
        "duplicate_pagination",
        "unescaped_script",
        "count_mismatch",
        "form_drops_value",
        "unconfirmed_destructive",
        "client_error",
        "unsafe_get",
    }
)
ENGINES = frozenset({"http", "browser", "auto"})
APPS_DIR = Path(__file__).resolve().parent / "apps"


class SpecError(ValueError):
    """An application file that does not follow the corpus format (the message names file and key)."""


@dataclass(frozen=True)
class Edit:
    """A find/replace on one file of the checkout: `find` must occur exactly once."""

    file: str
    find: str
    replace: str


@dataclass(frozen=True)
class Bug:
    id: str
    kind: str
    route: re.Pattern[str]
    depth: int
    login: bool
    what: str
    inject: tuple[Edit, ...]


@dataclass(frozen=True)
class Upstream:
    """A misbehaviour of the application as published, verified by hand on the clean build: a report
    it explains is the explorer right about the app, so it is scored neither a find nor a false
    positive. Matched by kind and either a route pattern (fullmatched like a planted bug's) or the
    report's fingerprint."""

    id: str
    kind: str
    route: re.Pattern[str] | None
    fingerprint: str
    what: str


@dataclass(frozen=True)
class Login:
    url: str
    username: str
    password: str


@dataclass(frozen=True)
class App:
    name: str
    family: str
    repo: str
    commit: str
    subdir: str
    licence: str
    engine: str
    start_path: str
    setup: tuple[str, ...]
    seed: tuple[str, ...]
    start: str
    ready_path: str
    env: dict[str, str] = field(default_factory=dict)
    login: Login | None = None
    patches: tuple[Edit, ...] = ()
    bugs: tuple[Bug, ...] = ()
    path: Path = Path()
    upstream: tuple[Upstream, ...] = ()
    # the loopback name the explorer is given (the server still binds 127.0.0.1): "localhost" for a
    # framework that names every loopback address so in the redirects it builds (Next.js's NextURL)
    host: str = "127.0.0.1"
    # repository files left out of the checkout: a mirror may lack a big blob (a test fixture) the app
    # never reads, and a checkout that needs every file would fail on it
    absent: tuple[str, ...] = ()
    # seconds one build's seed may take (None: the runner's default): a seed that also builds the
    # build's own front end bundle (a webpack build of minutes) needs more than filling a database
    seed_timeout_s: float | None = None


LOOPBACK_NAMES = ("127.0.0.1", "localhost")
"""Names an app file may give its loopback server: nothing else, so no run leaves the machine."""


def _str(data: dict[str, object], key: str, where: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise SpecError(f"{where}: `{key}` must be a string")
    return value


def _strs(data: dict[str, object], key: str, where: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SpecError(f"{where}: `{key}` must be a list of strings")
    return tuple(value)


def _seconds(data: dict[str, object], key: str, where: str) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise SpecError(f"{where}: `{key}` must be a positive number of seconds")
    return float(value)


def _edits(data: dict[str, object], key: str, where: str) -> tuple[Edit, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise SpecError(f"{where}: `{key}` must be a list of tables ([[{key}]])")
    edits = []
    for n, item in enumerate(value, 1):
        at = f"{where} {key} #{n}"
        edits.append(Edit(_str(item, "file", at), _str(item, "find", at), _str(item, "replace", at)))
        if not edits[-1].find:
            raise SpecError(f"{at}: `find` is empty")
    return tuple(edits)


def _kind(data: dict[str, object], at: str) -> str:
    kind = _str(data, "kind", at)
    if kind not in KINDS:
        raise SpecError(f"{at}: kind {kind!r} is not one of {', '.join(sorted(KINDS))}")
    return kind


def _bug(data: dict[str, object], where: str) -> Bug:
    bug_id = _str(data, "id", where)
    at = f"{where} bug {bug_id}"
    kind = _kind(data, at)
    try:
        route = re.compile(_str(data, "route", at))
    except re.error as error:
        raise SpecError(f"{at}: `route` is not a regular expression ({error})") from None
    depth, login = data.get("depth"), data.get("login", False)
    if not isinstance(depth, int) or isinstance(depth, bool) or not 0 <= depth <= 10:
        raise SpecError(f"{at}: `depth` must be a whole number of clicks")
    if not isinstance(login, bool):
        raise SpecError(f"{at}: `login` must be true or false")
    inject = _edits(data, "inject", at)
    if not inject:
        raise SpecError(f"{at}: no [[bugs.inject]] edit")
    return Bug(bug_id, kind, route, depth, login, _str(data, "what", at), inject)


def _upstream(data: dict[str, object], where: str) -> Upstream:
    entry_id = _str(data, "id", where)
    at = f"{where} upstream {entry_id}"
    kind = _kind(data, at)
    route, fingerprint = data.get("route"), data.get("fingerprint", "")
    if (route is None) == (not fingerprint):
        raise SpecError(f"{at}: give exactly one of `route` and `fingerprint`")
    if not isinstance(fingerprint, str) or (fingerprint and not re.fullmatch(r"[0-9a-f]{16}", fingerprint)):
        raise SpecError(f"{at}: `fingerprint` must be 16 hexadecimal digits (a bug's fingerprint)")
    pattern = None
    if route is not None:
        try:
            pattern = re.compile(_str(data, "route", at))
        except re.error as error:
            raise SpecError(f"{at}: `route` is not a regular expression ({error})") from None
    what = _str(data, "what", at)
    if not what.strip():
        raise SpecError(f"{at}: `what` must say how the app misbehaves and how it was verified")
    return Upstream(entry_id, kind, pattern, fingerprint, what)


def load(path: Path) -> App:
    """Read and check one application file."""
    where = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise SpecError(f"{where}: {error}") from None
    name = _str(data, "name", where)
    if name != path.stem:
        raise SpecError(f"{where}: `name` is {name!r}, the file is {path.stem!r}")
    commit = _str(data, "commit", where)
    if not re.fullmatch(r"[0-9a-f]{40}", commit):
        raise SpecError(f"{where}: `commit` must be 40 hexadecimal digits")
    engine = _str(data, "engine", where, "http")
    if engine not in ENGINES:
        raise SpecError(f"{where}: `engine` must be one of {', '.join(sorted(ENGINES))}")
    env = data.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise SpecError(f"{where}: `env` must be a table of strings")
    login = None
    if "login" in data:
        table = data["login"]
        if not isinstance(table, dict):
            raise SpecError(f"{where}: `login` must be a table")
        login = Login(
            _str(table, "url", f"{where} [login]"),
            _str(table, "username", f"{where} [login]"),
            _str(table, "password", f"{where} [login]"),
        )
    bugs = data.get("bugs", [])
    if not isinstance(bugs, list) or not all(isinstance(b, dict) for b in bugs):
        raise SpecError(f"{where}: `bugs` must be a list of tables ([[bugs]])")
    parsed = tuple(_bug(b, where) for b in bugs)
    ids = [b.id for b in parsed]
    if len(set(ids)) != len(ids):
        raise SpecError(f"{where}: two bugs share an id")
    upstream = data.get("upstream", [])
    if not isinstance(upstream, list) or not all(isinstance(u, dict) for u in upstream):
        raise SpecError(f"{where}: `upstream` must be a list of tables ([[upstream]])")
    known = tuple(_upstream(u, where) for u in upstream)
    if len({u.id for u in known} | set(ids)) != len(known) + len(ids):
        raise SpecError(f"{where}: an upstream entry shares an id with another entry or a bug")
    host = _str(data, "host", where, "127.0.0.1")
    if host not in LOOPBACK_NAMES:
        raise SpecError(f"{where}: `host` must be one of {', '.join(LOOPBACK_NAMES)}")
    return App(
        host=host,
        name=name,
        family=_str(data, "family", where),
        repo=_str(data, "repo", where),
        commit=commit,
        subdir=_str(data, "subdir", where, ""),
        licence=_str(data, "licence", where),
        engine=engine,
        start_path=_str(data, "start_path", where, "/"),
        setup=_strs(data, "setup", where),
        seed=_strs(data, "seed", where),
        start=_str(data, "start", where),
        ready_path=_str(data, "ready_path", where, "/"),
        env=dict(env),
        login=login,
        patches=_edits(data, "patches", where),
        bugs=parsed,
        path=path,
        upstream=known,
        absent=_strs(data, "absent", where),
        seed_timeout_s=_seconds(data, "seed_timeout_s", where),
    )


def load_apps(names: list[str] | None, apps_dir: Path = APPS_DIR) -> list[App]:
    """The named applications (every `*.toml` in `apps_dir` when `names` is None), in name order."""
    available = {p.stem: p for p in sorted(apps_dir.glob("*.toml"))}
    if names is None:
        return [load(p) for p in available.values()]
    unknown = [n for n in names if n not in available]
    if unknown:
        raise SpecError(
            f"no application {', '.join(unknown)} in {apps_dir} (there are: {', '.join(available) or 'none'})"
        )
    return [load(available[n]) for n in names]
