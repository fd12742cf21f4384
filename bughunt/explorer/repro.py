"""`bughunt repro`'s generator: one small standalone pytest file per bug, from its bug view.

The file replays the click path the explorer took from the start page, logged in the same way (the
secrets from the environment variables the session named, never written into the file), and asserts
the bug's evidence: it fails while the bug is there and passes once it is fixed. HTTP bugs get pytest
with httpx; bugs found by the browser engine get pytest with Playwright's client driving Debian's
chromium (`executable_path`, never a downloaded browser). Page text the checks need (a script's code,
a label, item names) is written as quoted string data and marked untrusted.
"""

from __future__ import annotations

import pprint
import re
from typing import Any
from urllib.parse import urlsplit

from .bugview import Login
from .repro_template import BROWSER, COMMON, HTTP

_IMPORTS = {
    "http": "import httpx\nimport pytest\n",
    "browser": (
        "import pytest\nfrom playwright.sync_api import TimeoutError as PlaywrightTimeout\n"
        "from playwright.sync_api import sync_playwright\n"
    ),
}


class NotReproducible(ValueError):
    """The bug's stored evidence lacks what a check needs (an older store, an expired observation)."""


def file_name(view: dict[str, Any]) -> str:
    """`test_<kind>_<fingerprint>.py`: a name pytest collects."""
    return f"test_{view['kind']}_{view['fingerprint'][:16]}.py"


def _route(url: str) -> str:
    parts = urlsplit(url)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _evidence(view: dict[str, Any]) -> dict[str, Any]:
    """What the check of the bug's kind reads, from the view's evidence (page text: untrusted data)."""
    kind, fields = view["kind"], view["observed"]["page_text"]["fields"]
    need = {
        "unescaped_script": ("code",),
        "count_mismatch": ("label",),
        "duplicate_pagination": ("repeated",),
        "form_drops_value": ("fields",),
    }.get(kind, ())
    missing = [k for k in need if not fields.get(k)]
    if missing:
        raise NotReproducible(f"bug {view['fingerprint']}: its evidence lacks {', '.join(missing)}")
    out: dict[str, Any] = {k: fields[k] for k in need}
    if kind == "duplicate_pagination":
        # None: the list repeats a record within the one page (`listed_twice`), no page before it
        out["previous_route"] = _route(fields["previous_url"]) if fields.get("previous_url") else None
    if kind == "count_mismatch":
        out["listed"] = _listed(view)
    if kind == "server_error":
        out["error_line"] = fields.get("error_line", "")
    if kind == "client_error":
        out["signature_error"] = _client_signature(view)
    return out


def _listed(view: dict[str, Any]) -> str:
    match = re.search(r"but (\d+) items", view["observed"]["shown"])
    return match.group(1) if match else "?"


def _client_signature(view: dict[str, Any]) -> list[str]:
    errors = view["observed"]["page_text"]["client_errors"]
    failed = [e for e in errors if e.get("kind") == "failed_request" and e.get("status")]
    if failed:
        return ["failed_request", _route(str(failed[0].get("source") or "")), str(failed[0]["status"])]
    if errors:
        return [str(errors[0].get("kind")), str(errors[0].get("text") or ""), ""]
    raise NotReproducible(f"bug {view['fingerprint']}: no client error kept in its evidence")


def render(view: dict[str, Any], base_url: str, login: Login, store_dir: str) -> str:
    """The reproduction of one bug (its view) as the text of a pytest file."""
    engine = "browser" if view["engine"] == "browser" or view["kind"] == "client_error" else "http"
    if any(s["action"] == "click" for s in view["click_path"]):
        engine = "browser"  # a state only a click reaches
    env = login.env_names()
    login_data = {
        # a route, so that BUGHUNT_BASE_URL moves the login with the site
        "login_url": _route(login.login_url) if login.login_url else None,
        "username": login.username,
        "password_env": login.password_env,
        "cookies": {name: env[f"cookie:{name}"] for name in login.cookie_names},
        "headers": {name: env[f"header:{name}"] for name in login.header_names},
    }
    hops = [
        {k: s[k] for k in ("action", "route", "selector", "on") if s.get(k) is not None}
        for s in view["click_path"]
    ]
    click_path = hops[:-1]  # the last hop is what the check itself opens
    target_click = hops[-1] if hops and hops[-1]["action"] == "click" else None
    exports = " ".join(f"{v}=..." for v in env.values())
    cwe = f", {view['cwe']}" if view.get("cwe") else ""
    warn = (
        "\nIt requests the destructive address itself: run it against a disposable environment only.\n"
        if view["kind"] == "unconfirmed_destructive"
        else ""
    )
    doc = (
        f"Reproduction of a BugHunt finding: {view['kind']} ({view['severity']}{cwe}) at {view['url']}\n\n"
        f"{view['title']}.\n"
        f"Seen as {view['account']}; shown: {view['observed']['shown']}\n"
        f"Expected: {view['observed']['expected']}.\n\n"
        f"Generated by `bughunt repro` from the store {store_dir} (bug {view['fingerprint']}). It replays\n"
        "the click path the explorer took from the start page and asserts the evidence: it FAILS while\n"
        "the bug is there and PASSES once it is fixed.\n\n"
        f"Run:  {(exports + ' ') if exports else ''}python -m pytest -q {file_name(view)}\n"
        f"Another deployment: BUGHUNT_BASE_URL=http://host:port (default {base_url}).\n"
        "Secrets are read from the environment variables named in LOGIN; none is written here.\n"
        "Strings in EVIDENCE are text the site sent: untrusted data, quoted as evidence only.\n" + warn
    )
    data = "\n".join(
        f"{name} = {pprint.pformat(value, width=100, sort_dicts=False)}"
        for name, value in (
            ("KIND", view["kind"]),
            ("TARGET", view["route"].split("#click-")[0] if engine == "http" else view["route"]),
            ("CLICK_PATH", click_path),
            ("TARGET_CLICK", target_click),
            ("LOGIN", login_data),
            ("EVIDENCE", _evidence(view)),
        )
    )
    return (
        f'"""{_docstring_safe(doc)}"""\n\n'
        "from __future__ import annotations\n\n"
        "import os\nfrom html.parser import HTMLParser\nfrom urllib.parse import urljoin, urlsplit\n\n"
        + _IMPORTS[engine]
        + f'\nBASE_URL = os.environ.get("BUGHUNT_BASE_URL", {base_url!r}).rstrip("/")\n'
        + data
        + "\n\n"
        + COMMON
        + (BROWSER if engine == "browser" else HTTP)
    )


def _docstring_safe(text: str) -> str:
    """The docstring holds harness text and the oracle's summary; never let it end the string early."""
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
