"""Settings of `explore` / `resume` from a config file and from the store, under the flags.

Precedence: a flag on the command line, then the config file (`--config FILE`, else `bughunt.toml` in
the current directory, else `[tool.bughunt]` of `pyproject.toml` there), then — for `resume` — what the
store remembers of the session before, then the built-in default.

Secrets never come from a file or the store: a file gives `password_env` (the variable's *name*) and
the store remembers that name and the names of the headers and cookies sent, never their values, so a
resume asks only for what it could not keep.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from memgpt_lite.errors import UsageError

CONFIG_NAME = "bughunt.toml"
PYPROJECT = "pyproject.toml"


class Option(NamedTuple):
    dest: str
    """The argparse dest the value goes to."""
    kind: type
    """str, int, float, bool, list (of strings) or Path."""
    default: Any = None
    remembered: bool = True
    """Kept in the store for `resume` (False: this run's output choice, or the store's own)."""
    choices: tuple[str, ...] = ()


OPTIONS: dict[str, Option] = {
    # config-file key -> where it goes; the keys are the long flags' names with "_" for "-"
    "store": Option("store", Path, remembered=False),
    "url": Option("url", str, remembered=False),  # the store keeps the base URL itself
    "builtin_site": Option("builtin_site", bool, False, remembered=False),
    "site_version": Option("site_version", str, choices=("1.2", "1.3")),
    "account": Option("account", str, choices=("logged-in", "logged-out")),
    "poison_file": Option("poison_file", Path),
    "policy": Option("policy", str, remembered=False),  # the store's last session has it
    "budget": Option("budget", int, 30),
    "seed": Option("seed", int, 1000),
    "app_version": Option("app_version_hint", str),
    "delay": Option("delay", float),
    "timeout": Option("timeout", float, 10.0),
    "ignore_robots": Option("ignore_robots", bool, False),
    "expire_after": Option("expire_after", float),
    "model": Option("model", str),
    "base_url": Option("base_url", str),
    "no_visited": Option("no_visited", bool, False),
    "no_link_table": Option("no_link_table", bool, False),
    "no_bug_list": Option("no_bug_list", bool, False),
    "capacity": Option("capacity", int),
    "eviction": Option("eviction", str, "fifo", choices=("fifo", "lru", "random")),
    "engine": Option(
        "engine", str, remembered=False, choices=("http", "browser", "auto")
    ),  # the store keeps the engine itself
    "allow_origin": Option("allow_origin", list),
    "login_url": Option("login_url", str),
    "username": Option("username", str),
    "password_env": Option("password_env", str),
    "storage_state": Option("storage_state", Path),
    "report": Option("report", Path, remembered=False),
    "json": Option("json", bool, False, remembered=False),
    "fail_on": Option("fail_on", str, "none", remembered=False, choices=("none", "new", "open")),
    "baseline": Option("baseline", Path, remembered=False),
    "junit": Option("junit", Path, remembered=False),
    "sarif": Option("sarif", Path, remembered=False),
}

REFUSED: dict[str, str] = {
    "password": "a password is never read from a file: set password_env to the name of an environment "
    "variable that holds it",
    "cookie": "cookie values may be secrets: give --cookie NAME=VALUE on the command line",
    "header": "header values may be secrets: give --header 'Name: value' on the command line",
    "allow_destructive": "opening destructive actions is asked for per session: give --allow-destructive "
    "on the command line",
}

STORE_KEY = "options"
"""The store's meta key holding the session's remembered options (JSON)."""
_LINE = re.compile(r"at line (\d+)")


def config_path(given: Path | None, cwd: Path | None = None) -> Path | None:
    """The config file to read: `given`, else `bughunt.toml`, else a `pyproject.toml` with a
    `[tool.bughunt]` table, in `cwd` (None: no file)."""
    if given is not None:
        if not given.is_file():
            raise UsageError(f"--config {given}: no such file")
        return given
    here = cwd or Path.cwd()
    if (here / CONFIG_NAME).is_file():
        return here / CONFIG_NAME
    pyproject = here / PYPROJECT
    if pyproject.is_file() and "[tool.bughunt]" in _read(pyproject):
        return pyproject
    return None


def read_config(path: Path) -> dict[str, Any]:
    """The file's options as argparse dests, checked: a syntax error is one line with file:line, an
    unknown key lists the valid ones, a secret is refused naming what to use instead."""
    import tomllib  # here: its parser costs ~2-5 ms of CPU that a run without a config file need not pay

    try:
        data = tomllib.loads(_read(path))
    except tomllib.TOMLDecodeError as e:
        line = _LINE.search(str(e))
        where = f"{path}:{line.group(1)}" if line else str(path)
        raise UsageError(f"{where}: not valid TOML ({_LINE.sub('', str(e)).rstrip(' ()')})") from None
    if path.name == PYPROJECT:
        table = data.get("tool", {}).get("bughunt", {})
        where = f"{path} [tool.bughunt]"
    else:
        table, where = data, str(path)
    if not isinstance(table, dict):
        raise UsageError(f"{where}: expected a table of options")
    out: dict[str, Any] = {}
    for key, value in table.items():
        if key in REFUSED:
            raise UsageError(f"{where}: {key!r} refused: {REFUSED[key]}")
        option = OPTIONS.get(key)
        if option is None:
            raise UsageError(f"{where}: unknown key {key!r}; valid keys: {', '.join(OPTIONS)}")
        out[option.dest] = _typed(key, value, option, where, path.parent)
    return out


def apply(
    args: argparse.Namespace, read_stored: Callable[[Path], dict[str, Any]] | None = None
) -> tuple[dict[str, str], dict[str, Any]]:
    """Fill every option not given on the command line (None) from the config file, then — with
    `read_stored`, for resume — the store's remembered options, then the default. Returns where each
    filled value came from (dest -> "config" | "store") and the remembered options, for the message
    that asks for what the store could not keep (`missing_secrets`)."""
    path = config_path(getattr(args, "config", None))
    from_file = read_config(path) if path is not None else {}
    store = args.store if args.store is not None else from_file.get("store")
    if store is None:
        raise UsageError('give --store DIR (or store = "DIR" in bughunt.toml)')
    stored = read_stored(store) if read_stored is not None else {}
    source: dict[str, str] = {}
    for option in OPTIONS.values():
        if getattr(args, option.dest, None) is not None:
            continue
        if option.dest in from_file:
            setattr(args, option.dest, from_file[option.dest])
            source[option.dest] = "config"
        elif option.remembered and stored.get(option.dest) is not None:
            value = stored[option.dest]
            setattr(args, option.dest, Path(value) if option.kind is Path else value)
            source[option.dest] = "store"
        else:
            setattr(args, option.dest, option.default)
    return source, stored


def remembered(args: argparse.Namespace) -> dict[str, Any]:
    """What the store keeps of this session: every remembered option that has a value, and the names
    (never the values) of the headers and cookies sent."""
    out: dict[str, Any] = {}
    for option in OPTIONS.values():
        value = getattr(args, option.dest, None)
        if option.remembered and value is not None and value != option.default:
            out[option.dest] = str(value) if isinstance(value, Path) else value
    out["header_names"] = [h.partition(":")[0].strip() for h in args.header or []]
    out["cookie_names"] = [c.partition("=")[0].strip() for c in args.cookie or []]
    return out


def stored_options(text: str | None) -> dict[str, Any]:
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def missing_secrets(args: argparse.Namespace, stored: dict[str, Any], source: dict[str, str]) -> str | None:
    """What a resume must be given again (one line), or None: the password variable the session used
    when it is not set, the headers and cookies it sent when they are not given."""
    asks = []
    env = args.password_env
    if env and source.get("password_env") == "store" and not os.environ.get(env):
        who = f" as {args.username}" if args.username else ""
        asks.append(f"this session logged in{who} with --password-env {env}; set {env}")
    given_headers = {h.partition(":")[0].strip().lower() for h in args.header or []}
    headers = [n for n in stored.get("header_names") or [] if n.lower() not in given_headers]
    given_cookies = {c.partition("=")[0].strip() for c in args.cookie or []}
    cookies = [n for n in stored.get("cookie_names") or [] if n not in given_cookies]
    if headers or cookies:
        again = [f"--header '{n}: …'" for n in headers] + [f"--cookie '{n}=…'" for n in cookies]
        asks.append(
            "its header and cookie values are never stored: give the login options again ("
            + " ".join(again)
            + ")"
        )
    return "; ".join(asks) or None


def _typed(key: str, value: Any, option: Option, where: str, base: Path) -> Any:
    kind = option.kind
    if kind is bool and isinstance(value, bool):
        return value
    if kind is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind is float and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if kind is str and isinstance(value, str):
        if option.choices and value not in option.choices:
            raise UsageError(f"{where}: {key} must be one of {', '.join(option.choices)}, got {value!r}")
        return value
    if kind is Path and isinstance(value, str):
        # relative to the file, as a reader of the file expects
        return Path(value) if Path(value).is_absolute() else base / value
    if kind is list and isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    names = {
        bool: "true or false",
        int: "an integer",
        float: "a number",
        str: "a string",
        Path: "a path string",
    }
    expected = names.get(kind, "a list of strings")
    raise UsageError(f"{where}: {key} must be {expected}, got {value!r}")


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        reason = e.reason if isinstance(e, UnicodeDecodeError) else (e.strerror or str(e))
        raise UsageError(f"{path}: cannot read it ({reason})") from None
