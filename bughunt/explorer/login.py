"""Logging in: a form login (`--login-url --username --password-env`), cookies (`--cookie NAME=VALUE`),
extra headers (`--header 'Name: value'`) and, for the browser engine, a storage-state file.

Secrets live in process memory only: the password is read from the environment variable named on the
command line, cookie and header values from the command line, and none of them is ever stored, logged
or printed. The store keeps only *that* a login was used (`Credentials.label`, no username). A form
login finds the form with a password field, fills it (hidden inputs such as CSRF tokens are sent as
the page gave them), submits it and confirms the login wall is gone; when the wall comes back
mid-session (a redirect to a login address, a 401, or the page showing the form the explorer filled:
`login_wall`) the engine logs in again, up to `MAX_RELOGINS` times a session, and then raises
`LoginLost`.

The login works through the `Engine` protocol only (`request`, `probe`, `route_of`): the engines
import this module, never the other way round.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlencode, urlsplit, urlunsplit

from bughunt.dom import Node, selected_option
from bughunt.oracles.base import Finding
from bughunt.oracles.refused_form import check_refused_form
from bughunt.page import FetchedPage, base_url
from bughunt.record_repr import field_repr
from bughunt.urls import absolute, same_origin
from memgpt_lite.errors import MemgptLiteError, UsageError

from .engine import Engine
from .form_encoding import default_button, is_multipart
from .login_wall import USERNAME_TYPES, LoginShape, login_shape
from .secrets import storage_state_secrets

_USERNAME_HINT = re.compile(r"(?i)user|email|login|account|ident")
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_COOKIE_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


class LoginFailed(UsageError):
    """The login options did not log in (no password form, the form came back, the wall stayed)."""


class LoginUnreachable(LoginFailed):
    """The login page could not be loaded, or its form could not be sent (no answer)."""


class SiteStopped(MemgptLiteError, RuntimeError):
    """The site stopped answering right after the refused-login check (`refused_login`: the login form
    sent once with a wrong password): a runtime failure, not bad input — the login options are not at
    fault, and a wrong password typed by anyone may bring the site down."""


class RefusedLogin(NamedTuple):
    """What the refused-login check gave: its findings, and whether its wrong password was sent."""

    findings: list[Finding]
    sent: bool


class StillLoggedIn(LoginFailed):
    """The login page sent the visitor away without a form: many sites do that to a visitor who is
    logged in already. Mid-session that means a wall that came up was not the login lost but a part of
    the site closed to this account (another login, e.g. an admin area's); at the first login it is a
    failed login like any other."""


@dataclass(repr=False, frozen=True, eq=False)
class Credentials:
    """Everything the login options gave. `repr` shows no secret."""

    __repr__ = field_repr

    login_url: str | None = None
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    cookies: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    headers: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    storage_state: Path | None = None
    state_values: tuple[str, ...] = field(default=(), repr=False)
    """The storage state's cookie and local-storage values (secrets as much as a `--cookie`)."""

    @property
    def used(self) -> bool:
        return bool(self.login_url or self.cookies or self.headers or self.storage_state)

    @property
    def label(self) -> str:
        """What the store may keep: the kinds of login used, no names, no values."""
        kinds = [
            name
            for name, on in (
                ("form", self.login_url),
                ("cookie", self.cookies),
                ("header", self.headers),
                ("storage-state", self.storage_state),
            )
            if on
        ]
        return "+".join(kinds) or "none"

    def secrets(self) -> list[str]:
        """Every secret value given (for tests and redaction checks)."""
        given = (
            self.password,
            *(v for _, v in self.cookies),
            *(v for _, v in self.headers),
            *self.state_values,
        )
        return [v for v in given if v]


def credentials_from_args(
    *,
    login_url: str | None,
    username: str | None,
    password_env: str | None,
    cookies: list[str] | None,
    headers: list[str] | None,
    storage_state: Path | None,
    base_url: str,
) -> Credentials:
    """Check the login options (every error names its option and never echoes a secret)."""
    given = [login_url is not None, username is not None, password_env is not None]
    if any(given) and not all(given):
        raise UsageError("--login-url, --username and --password-env go together (all three or none)")
    password = None
    if password_env is not None:
        password = os.environ.get(password_env)
        if not password:
            raise UsageError(f"--password-env {password_env}: that environment variable is not set or empty")
    if login_url is not None:
        login_url = absolute(base_url, login_url) or ""
        if not login_url or not same_origin(login_url, base_url):
            raise UsageError("--login-url must be a page of the site being explored (same origin as --url)")
    parsed_cookies: list[tuple[str, str]] = []
    for item in cookies or []:
        name, sep, value = item.partition("=")
        if not sep or not _COOKIE_NAME.fullmatch(name.strip()):
            raise UsageError("--cookie: expected NAME=VALUE (a cookie name is letters, digits and -_.)")
        parsed_cookies.append((name.strip(), value.strip()))
    parsed_headers: list[tuple[str, str]] = []
    for item in headers or []:
        name, sep, value = item.partition(":")
        if not sep or not _HEADER_NAME.fullmatch(name.strip()) or "\n" in value or "\r" in value:
            raise UsageError("--header: expected 'Name: value' (one header per option)")
        if any(n.lower() == name.strip().lower() for n, _ in parsed_headers):
            # Which of two values would the site get? Engines differ; refuse rather than guess.
            raise UsageError(f"--header {name.strip()}: given twice (header names ignore case)")
        parsed_headers.append((name.strip(), value.strip()))
    state_values = _storage_state_values(storage_state) if storage_state is not None else ()
    return Credentials(
        login_url, username, password, tuple(parsed_cookies), tuple(parsed_headers), storage_state,
        state_values,
    )  # fmt: skip


MAX_STORAGE_STATE_BYTES = 16_000_000


def _storage_state_values(path: Path) -> tuple[str, ...]:
    """Check a Playwright storage-state file (a JSON object whose `cookies` are objects with a string
    name and value, and whose `origins` have `localStorage` name/value lists) and give its values.
    Anything else is one line naming the option, never the file's content."""
    where = f"--storage-state {path}"
    if not path.is_file():
        raise UsageError(f"{where}: no such file" if not path.exists() else f"{where}: not a regular file")
    try:
        if path.stat().st_size > MAX_STORAGE_STATE_BYTES:
            raise UsageError(f"{where}: larger than {MAX_STORAGE_STATE_BYTES // 1_000_000} MB")
        state = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"{where}: cannot read it ({exc.strerror or type(exc).__name__})") from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise UsageError(f"{where}: not a JSON storage-state file (as Playwright writes)") from None
    shape = f'{where}: expected Playwright\'s storage state ({{"cookies": [...], "origins": [...]}})'
    if not isinstance(state, dict):
        raise UsageError(shape)
    cookies, origins = state.get("cookies", []), state.get("origins", [])
    if not isinstance(cookies, list) or not isinstance(origins, list):
        raise UsageError(shape)
    for cookie in cookies:
        if not (
            isinstance(cookie, dict)
            and isinstance(cookie.get("name"), str)
            and isinstance(cookie.get("value"), str)
        ):
            raise UsageError(f"{where}: every cookie needs a string name and value")
    for origin in origins:
        items = origin.get("localStorage", []) if isinstance(origin, dict) else None
        if not isinstance(items, list) or not all(
            isinstance(i, dict) and isinstance(i.get("name"), str) and isinstance(i.get("value"), str)
            for i in items
        ):
            raise UsageError(f"{where}: every origin needs a localStorage list of string names and values")
    return tuple(storage_state_secrets(state))


def login_form(page: FetchedPage) -> Node | None:
    """The form with a password field on `page` (the first), or None."""
    for form in page.document.find_all("form"):
        if any(n.tag == "input" and n.get("type").lower() == "password" for n in form.iter()):
            return form
    return None


def has_password_field(page: FetchedPage) -> bool:
    return any(n.get("type").lower() == "password" for n in page.document.find_all("input"))


def username_field(form: Node) -> Node | None:
    """The field of a login form that asks for the username: named like user/email/login, else the
    first text field."""
    inputs = [n for n in form.iter() if n.tag == "input" and n.get("name")]
    texts = [n for n in inputs if n.get("type").lower() in USERNAME_TYPES]
    user_field = next((n for n in texts if _USERNAME_HINT.search(n.get("name") + " " + n.get("id"))), None)
    return user_field or (texts[0] if texts else None)


def form_fields(form: Node, username: str, password: str) -> list[tuple[str, str]]:
    """The name/value pairs a person logging in would submit: the username in the field that asks for
    it (named like user/email/login, else the first text field), the password in the password field,
    every hidden input (CSRF tokens) and preset value as the page gave it, checked boxes, the first
    named submit button."""
    inputs = [n for n in form.iter() if n.tag in ("input", "select", "textarea") and n.get("name")]
    user_field = username_field(form)
    pairs: list[tuple[str, str]] = []
    submitted = False
    for node in inputs:
        name, kind = node.get("name"), node.get("type").lower()
        if "disabled" in node.attrs:
            continue
        if node is user_field:
            pairs.append((name, username))
        elif node.tag == "input" and kind == "password":
            pairs.append((name, password))
        elif node.tag == "input" and kind in ("checkbox", "radio"):
            if "checked" in node.attrs:
                pairs.append((name, node.get("value", "on")))
        elif node.tag == "input" and kind in ("submit", "image", "button", "reset"):
            if kind == "submit" and not submitted:
                pairs.append((name, node.get("value")))
                submitted = True
        elif node.tag == "select":
            chosen = selected_option(node)
            if chosen is not None:
                pairs.append((name, chosen))
        elif node.tag == "textarea":
            pairs.append((name, node.raw_text()))
        else:
            pairs.append((name, node.get("value")))
    if not submitted:
        button = next(
            (
                b
                for b in form.find_all("button")
                if b.get("name") and b.get("type", "submit").lower() == "submit"
            ),
            None,
        )
        if button is not None:
            pairs.append((button.get("name"), button.get("value")))
    return pairs


class FormSend(NamedTuple):
    """How a page sends its form: where, whether by POST, and in which encoding — read once, so the
    refused login and the real one send the same form the same way."""

    action: str | None
    post: bool
    multipart: bool


def form_send(page: FetchedPage, form: Node) -> FormSend:
    return FormSend(
        action=absolute(base_url(page), form.get("action") or page.url),
        post=form.get("method", "get").strip().lower() == "post",
        multipart=is_multipart(form, default_button(form)),
    )


WRONG_PASSWORD = "bughunt-refused-login"
"""The password of the refused login the explorer tries once before logging in (`refused_login`): no
account's, and no secret."""


def refused_login(engine: Engine, creds: Credentials) -> RefusedLogin:
    """A tester's first check of a login form: the username typed, a wrong password, and the form that
    comes back must still hold the username (`oracles.refused_form`). Made once, before the session's
    first login (which follows at once and leaves the session logged in); sent as a browser sends it,
    with the login page as its referrer (a site's "back" after a refused login is that page). Only a
    form that POSTs to this origin is tried: a GET form would put even a wrong password in an address.
    Whatever fails here is left to the real login to report (`sent` tells it whether a wrong password
    went out: a site that stops answering after it is `SiteStopped`)."""
    assert creds.login_url is not None and creds.username is not None
    sent = False
    try:
        page = engine.request(creds.login_url)
        form = login_form(page)
        field = username_field(form) if form is not None else None
        send = form_send(page, form) if form is not None else None
        if (
            form is None
            or field is None
            or send is None
            or send.action is None
            or not same_origin(send.action, engine.origin + "/")
            or not send.post
        ):
            return RefusedLogin([], sent)
        pairs = form_fields(form, creds.username, WRONG_PASSWORD)
        sent = True
        answer = engine.request(
            send.action, method="POST", data=dict(pairs), headers={"Referer": page.url},
            multipart=send.multipart,
        )  # fmt: skip
    except (TimeoutError, OSError):
        return RefusedLogin([], sent)
    return RefusedLogin(check_refused_form(answer, {field.get("name"): creds.username}), sent)


def http_login(engine: Engine, creds: Credentials, *, logged_in: bool = False) -> LoginShape | None:
    """Log in over HTTP through `engine.request` (the engine's cookie jar keeps the session cookie);
    gives the shape of the form filled (`login_wall.LoginShape`), to know it again mid-session.

    Raises `LoginFailed` when there is no password form, the form comes back after submitting it, or
    the start page is still behind a login wall. `logged_in`: the session logged in through this very
    page before (a login again after a wall came up). A lost session gets the login form there again;
    a login page that shows no form — sending the visitor on, or drawing its logged-in page in place
    (a tracker's `index.cgi?GoAheadAndLogIn=1` answers a logged-in visitor with its home page) — says
    the session is alive: `StillLoggedIn`, the wall was a page of its own (a form asking for the
    password again before a sensitive step, a "confirm it is you" page)."""
    assert creds.login_url is not None and creds.username is not None and creds.password is not None
    where = engine.route_of(creds.login_url) or "/"
    try:
        page = engine.request(creds.login_url)
    except (TimeoutError, OSError) as exc:
        raise LoginUnreachable(f"--login-url {where}: could not load it ({type(exc).__name__})") from None
    form = login_form(page)
    landed = engine.route_of(page.url)
    if form is None and page.redirects and landed is not None and landed != where:
        raise StillLoggedIn(f"--login-url {where}: no form there, it sent the visitor on to {landed}")
    if form is None and logged_in:
        raise StillLoggedIn(f"--login-url {where}: no form there for the session logged in")
    if form is None:
        hint = " (a form built by scripts needs --engine browser)" if page.document.find_all("script") else ""
        raise LoginFailed(f"--login-url {where}: no form with a password field there{hint}")
    send = form_send(page, form)
    action = send.action
    if action is None or not same_origin(action, engine.origin + "/"):
        raise LoginFailed(f"--login-url {where}: the login form submits to another site; not sent")
    pairs = form_fields(form, creds.username, creds.password)
    try:
        if send.post:
            answer = engine.request(action, method="POST", data=dict(pairs), multipart=send.multipart)
        else:
            parts = urlsplit(action)
            answer = engine.request(
                urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(pairs), ""))
            )
    except (TimeoutError, OSError) as exc:
        raise LoginUnreachable(
            f"--login-url {where}: submitting the form failed ({type(exc).__name__})"
        ) from None
    if answer.status >= 400 or (answer.is_html and login_form(answer) is not None):
        raise LoginFailed(
            f"--login-url {where}: the login was refused (HTTP {answer.status}"
            f"{', the login form came back' if answer.is_html and login_form(answer) is not None else ''}); "
            "check --username and the password variable"
        )
    confirm_logged_in(engine)
    return login_shape(page, form)


def confirm_logged_in(engine: Engine) -> None:
    """The start page must not be a login wall any more."""
    result = engine.probe(engine.start_route())
    if result.outcome == "login_wall":
        raise LoginFailed(f"logged in, but {result.route} is still behind a login wall ({result.detail})")
