"""Logging in: a form login with a CSRF token, cookies and headers, for both engines; the login wall
coming back (re-login up to `MAX_RELOGINS` times, then `LoginLost`); and no secret anywhere in the store, the JSON or the report."""

from __future__ import annotations

import base64
import html
import json
import secrets
import shutil
from collections.abc import Iterator
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qsl, quote

import pytest

from bughunt.cli import main
from bughunt.explorer.engine import MAX_RELOGINS, Engine, LoginLost
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.login import Credentials, LoginFailed, credentials_from_args, http_login
from memgpt_lite.errors import UsageError
from tests.support.loopback import serving

PASSWORD = "pw-Zq8!kV2#mW"
COOKIE_VALUE = "cookie-Xr7TqP3"
HEADER_VALUE = "header-Lm4NbK9"


class Site:
    """A tiny site whose pages need a session from a CSRF-protected form login. `expire_after` ends every
    session after that many requests to private pages (the login wall coming back)."""

    def __init__(self) -> None:
        self.sessions: set[str] = set()
        self.csrf: set[str] = set()
        self.logins = 0
        self.expire_after: int | None = None
        self.private_hits = 0
        self.seen_cookie: list[str] = []
        self.seen_header: list[str] = []
        self.issued: list[str] = []
        self.echo = False
        """Link a debug page that shows the request's headers and the password back (a leaky site)."""
        self.settings_cookies = False
        """The login also sets cookies that hold no secret: the account's name and a display setting (a
        wiki's `UserName` and `skin` cookies), and the home page links the skin's page."""
        self.members_leave_login = False
        """The login page sends a logged-in visitor on to the home page (Django's
        `redirect_authenticated_user`, most frameworks' guest-only login routes)."""


def make_handler(site: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _cookies(self) -> dict[str, str]:
            jar = SimpleCookie(self.headers.get("Cookie", ""))
            return {k: v.value for k, v in jar.items()}

        def _send(self, status: int, body: str = "", **headers: str) -> None:
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for k, v in headers.items():
                self.send_header(k.replace("_", "-"), v)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802
            cookies = self._cookies()
            if cookies.get("extra"):
                site.seen_cookie.append(cookies["extra"])
            if self.headers.get("X-Token"):
                site.seen_header.append(self.headers["X-Token"])
            if self.path == "/robots.txt":
                return self._send(404)
            if self.path == "/login" and site.members_leave_login and cookies.get("session") in site.sessions:
                return self._send(302, Location="/")
            if self.path == "/staff":
                # An area with its own login, closed to this account (an admin site): its wall.
                return self._send(302, Location="/staff/login?next=/staff")
            if self.path.startswith("/staff/login"):
                return self._send(200, '<html><body><form method="post"><input name="u">'
                                  '<input type="password" name="p"></form></body></html>')  # fmt: skip
            if self.path == "/login":
                token = secrets.token_hex(8)
                site.csrf.add(token)
                form = (
                    '<form method="post" action="/login"><input type="hidden" name="csrf" value="'
                    + token
                    + '"><label>Email <input type="email" name="email"></label>'
                    '<input type="password" name="password"><button type="submit">Sign in</button></form>'
                )
                return self._send(200, f"<html><body><h1>Sign in</h1>{form}</body></html>")
            if self.path == "/":
                return self._send(
                    200,
                    '<html><body><a href="/private/1">mine</a> <a href="/private/2">more</a>'
                    + (' <a href="/staff">Admin</a>' if site.members_leave_login else "")
                    + (' <a href="/debug">debug</a>' if site.echo else "")
                    + (' <a href="/skins/vector">vector</a>' if site.settings_cookies else "")
                    + ' <a href="/logout">Log out</a></body></html>',
                )
            if self.path == "/debug" and site.echo:
                shown = "".join(
                    f"<li>{html.escape(k)}: {html.escape(v)}</li>" for k, v in self.headers.items()
                )
                said = (
                    f"Your password is {html.escape(PASSWORD)} (sent as {quote(PASSWORD, safe='')},"
                    f" {base64.b64encode(PASSWORD.encode()).decode()})"
                )
                return self._send(
                    500,
                    f"<html><body><h1>Debug</h1><p>{said}</p><ul>{shown}</ul>"
                    f"<pre class='traceback'>Traceback (most recent call last): {self.headers.get('Cookie')}</pre>"
                    "</body></html>",
                )
            if self.path.startswith("/private/"):
                if cookies.get("session") not in site.sessions:
                    return self._send(303, Location="/login")
                site.private_hits += 1
                if site.expire_after is not None and site.private_hits >= site.expire_after:
                    site.sessions.clear()
                    site.private_hits = 0
                n = int(self.path.rsplit("/", 1)[1])
                links = "".join(f'<a href="/private/{i}">item {i}</a>' for i in range(1, 6) if i != n)
                return self._send(200, f"<html><body><h1>Private {n} of alice</h1>{links}</body></html>")
            if self.path == "/skins/vector":
                return self._send(200, "<html><body><h1>The vector skin</h1></body></html>")
            if self.path == "/admin":
                return self._send(403, "<html><body>admins only</body></html>")
            if self.path == "/logout":
                site.sessions.clear()
                return self._send(303, Location="/")
            return self._send(404, "<html><body>nope</body></html>")

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            form = dict(parse_qsl(self.rfile.read(length).decode()))
            if self.path != "/login" or form.get("csrf") not in site.csrf:
                return self._send(403, "<html><body>bad csrf</body></html>")
            if form.get("email") != "alice@example.test" or form.get("password") != PASSWORD:
                return self._send(
                    200,
                    '<html><body><form method="post"><input type="password" name="password"></form></body></html>',
                )
            token = secrets.token_hex(16)
            site.sessions.add(token)
            site.issued.append(token)
            site.logins += 1
            if site.settings_cookies:
                self.send_response(303)
                for cookie in (f"session={token}", "UserName=alice@example.test", "skin=vector", "UserID=7"):
                    self.send_header("Set-Cookie", f"{cookie}; Path=/")
                self.send_header("Location", "/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            return self._send(303, Location="/", Set_Cookie=f"session={token}; Path=/; HttpOnly")

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@pytest.fixture
def site() -> Iterator[tuple[Site, str]]:
    state = Site()
    with serving(make_handler(state)) as url:
        yield state, url


def creds(base: str, password: str = PASSWORD, **extra) -> Credentials:
    return Credentials(base + "/login", "alice@example.test", password, **extra)


BOTH_ENGINES = pytest.mark.parametrize(
    "engine",
    [
        "http",
        pytest.param(
            "browser",  # ~10 s of wall time: slow, started first
            marks=[
                pytest.mark.skipif(shutil.which("chromium") is None, reason="no chromium"),
                pytest.mark.slow,
            ],
        ),
    ],
)
"""The test runs on each engine; the browser's run is slow."""

ENGINE_MEMBERS = frozenset(name for name in vars(Engine) if not name.startswith("_"))


class ThroughTheProtocol:
    """An engine seen through the members of `Engine` alone: what the login may use (no `_http`)."""

    def __init__(self, engine: HttpEngine) -> None:
        self._engine = engine

    def __getattr__(self, name: str) -> object:
        if name not in ENGINE_MEMBERS:
            raise AttributeError(f"{name}: not a member of the Engine protocol")
        return getattr(self._engine, name)


def test_the_form_login_goes_through_the_engine_protocol_alone(site):
    state, base = site
    engine = HttpEngine(base + "/")
    assert engine.name == "http" and not engine.can_click
    http_login(ThroughTheProtocol(engine), creds(base))
    # The login's own GET and POST are outside the step accounting (`Engine.request`): only robots.txt
    # and the check that the start page is no wall were counted.
    assert state.logins == 1 and engine.stats.requests == 2
    assert engine.fetch("/private/1").outcome == "page"


def test_form_login_carries_the_csrf_token_and_gets_past_the_wall(site):
    state, base = site
    walled = HttpEngine(base + "/").fetch("/private/1")
    assert walled.outcome == "login_wall"
    fetcher = HttpEngine(base + "/", credentials=creds(base))
    fetcher.log_in()
    assert state.logins == 1
    result = fetcher.fetch("/private/1")
    assert result.outcome == "page" and "Private 1" in result.page.document.text()


def test_a_wrong_password_is_a_clear_error_without_the_password(site):
    _, base = site
    fetcher = HttpEngine(base + "/", credentials=creds(base, password="wrong-pw-123"))
    with pytest.raises(LoginFailed, match=r"^--login-url /login: the login was refused") as err:
        fetcher.log_in()
    assert "wrong-pw-123" not in str(err.value)


def test_the_wall_coming_back_is_relogged_up_to_the_cap_then_login_lost(site):
    state, base = site
    fetcher = HttpEngine(base + "/", credentials=creds(base))
    fetcher.log_in()
    state.expire_after = 2  # every second private page ends the session
    assert fetcher.fetch("/private/1").outcome == "page"
    assert fetcher.fetch("/private/2").outcome == "page"  # ends the session after answering
    for n in range(MAX_RELOGINS):
        assert fetcher.fetch("/private/3").outcome == "page"  # wall -> logged in again -> page
        assert state.logins == 2 + n and fetcher.relogins == 1 + n
        assert fetcher.fetch("/private/4").outcome == "page"  # ends it again
    with pytest.raises(
        LoginLost, match=rf"^the login wall came back at /private/5 after {MAX_RELOGINS} re-login\(s\)$"
    ):
        fetcher.fetch("/private/5")
    assert state.logins == MAX_RELOGINS + 2  # the last login told a lost session from a walled page


def test_a_page_walled_for_this_account_too_is_a_wall_not_a_lost_login(site):
    state, base = site
    fetcher = HttpEngine(base + "/", credentials=creds(base))
    fetcher.log_in()
    for _ in range(3):
        assert fetcher.fetch("/admin").outcome == "login_wall"
    assert fetcher.fetch("/private/1").outcome == "page"
    assert state.logins == 2  # one extra login to tell, then remembered


@BOTH_ENGINES
def test_an_area_closed_to_this_account_is_a_wall_even_when_the_login_page_sends_members_away(
    site, tmp_path, monkeypatch, capsys, engine
):
    """Logging in again to tell a lost login from a closed area: a login page that sends a logged-in
    visitor away shows the session is fine. It used to end the session with `login_lost`."""
    state, base = site
    state.members_leave_login = True
    monkeypatch.setenv("BH_TEST_PASSWORD", PASSWORD)
    argv = [
        "explore", "--url", base + "/", "--store", str(tmp_path / "s"), "--budget", "8", "--engine", engine,
        "--login-url", "/login", "--username", "alice@example.test", "--password-env", "BH_TEST_PASSWORD",
        "--json",
    ]  # fmt: skip
    assert main(argv) in (0, 3)
    out = json.loads(capsys.readouterr().out)
    assert out["stop_reason"] != "login_lost"
    assert "/private/1" in out["pages_visited"] and state.logins == 1


def test_cookie_and_header_options_are_sent_on_every_request(site):
    state, base = site
    fetcher = HttpEngine(
        base + "/",
        credentials=Credentials(cookies=(("extra", COOKIE_VALUE),), headers=(("X-Token", HEADER_VALUE),)),
    )
    fetcher.log_in()
    fetcher.fetch("/")
    fetcher.fetch("/")
    # robots.txt and the page twice: every request carries both.
    assert state.seen_cookie == [COOKIE_VALUE] * 3 and state.seen_header == [HEADER_VALUE] * 3


def test_a_sites_cookies_never_reach_another_fetcher(site):
    state, base = site
    logged_in = HttpEngine(base + "/", credentials=creds(base))
    logged_in.log_in()
    assert logged_in.fetch("/private/1").outcome == "page"
    assert HttpEngine(base + "/").fetch("/private/1").outcome == "login_wall"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"login_url": "/login"}, "--login-url, --username and --password-env go together"),
        (
            {"login_url": "/login", "username": "a", "password_env": "BH_NOT_SET_X"},
            "--password-env BH_NOT_SET_X",
        ),
        ({"cookies": ["novalue"]}, "--cookie: expected NAME=VALUE"),
        ({"headers": ["X-Token " + HEADER_VALUE]}, "--header: expected 'Name: value'"),
        ({"headers": ["X-A: b\r\nX-Evil: c"]}, "--header: expected 'Name: value'"),
        ({"headers": ["X-Token: a", "x-token: " + HEADER_VALUE]}, "--header x-token: given twice"),
        (
            {"login_url": "http://elsewhere.test/login", "username": "a", "password_env": "HOME"},
            "same origin",
        ),
    ],
)
def test_bad_login_options_are_usage_errors_that_echo_no_value(kwargs, message):
    args = {"login_url": None, "username": None, "password_env": None, "cookies": None, "headers": None}
    args.update(kwargs)
    with pytest.raises(UsageError, match=message) as err:
        credentials_from_args(**args, storage_state=None, base_url="http://127.0.0.1:1/")
    assert HEADER_VALUE not in str(err.value)


def _all_text(paths: list[Path]) -> bytes:
    out = b""
    for path in paths:
        files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
        for f in files:
            out += f.read_bytes()
    return out


@BOTH_ENGINES
def test_no_secret_reaches_the_store_the_json_or_the_report(site, tmp_path, monkeypatch, capsys, engine):
    state, base = site
    monkeypatch.setenv("BH_TEST_PASSWORD", PASSWORD)
    store, report = tmp_path / "store", tmp_path / "report.html"
    argv = [
        "explore", "--url", base + "/", "--store", str(store), "--budget", "6", "--engine", engine,
        "--login-url", "/login", "--username", "alice@example.test", "--password-env", "BH_TEST_PASSWORD",
        "--cookie", f"extra={COOKIE_VALUE}", "--header", f"X-Token: {HEADER_VALUE}",
        "--json", "--report", str(report),
    ]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert any(r.startswith("/private/") for r in data["pages_visited"])  # logged in: the wall is gone
    assert state.logins == 1 and state.seen_cookie and state.seen_header
    haystack = _all_text([store, report]) + out.out.encode() + out.err.encode()
    session_tokens = list(state.sessions)
    for secret in [PASSWORD, COOKIE_VALUE, HEADER_VALUE, *session_tokens]:
        assert secret.encode() not in haystack, secret
    assert b"/logout" not in b"".join(p.encode() for p in data["pages_visited"])
    # Resume without the login options: refused (the secrets were never stored), nothing run.
    assert main(["resume", "--store", str(store), "--budget", "1"]) == 2
    assert "give the login options again" in capsys.readouterr().err


@BOTH_ENGINES
def test_a_cookie_naming_the_account_or_a_setting_is_no_secret(site, tmp_path, monkeypatch, capsys, engine):
    # A wiki's login sets `UserName=<the account>` and `skin=vector` beside its session cookie: taken
    # for secrets, every page, route and title showing "vector" or the account's name was scrubbed
    # (`/skins/[secret]`), and so was the account printed. The session token still never is written.
    state, base = site
    state.settings_cookies = True
    monkeypatch.setenv("BH_TEST_PASSWORD", PASSWORD)
    store = tmp_path / "store"
    argv = [
        "explore", "--url", base + "/", "--store", str(store), "--budget", "10", "--engine", engine,
        "--login-url", "/login", "--username", "alice@example.test", "--password-env", "BH_TEST_PASSWORD",
        "--json",
    ]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert data["account"] == "alice@example.test"
    assert "/skins/vector" in data["pages_visited"]
    haystack = _all_text([store]) + out.out.encode() + out.err.encode()
    for secret in [PASSWORD, *state.issued]:
        assert secret.encode() not in haystack, secret


@BOTH_ENGINES
def test_secrets_a_site_echoes_are_scrubbed_from_the_store_the_logs_the_json_and_the_report(
    site, tmp_path, monkeypatch, capsys, engine
):
    state, base = site
    state.echo = True
    state.expire_after = 4  # the login wall comes back: the re-login's new session token is a secret too
    monkeypatch.setenv("BH_TEST_PASSWORD", PASSWORD)
    store, report = tmp_path / "store", tmp_path / "report.html"
    argv = [
        "-vv", "explore", "--url", base + "/", "--store", str(store), "--budget", "10", "--engine", engine,
        "--login-url", "/login", "--username", "alice@example.test", "--password-env", "BH_TEST_PASSWORD",
        "--cookie", f"extra={COOKIE_VALUE}", "--header", f"X-Token: {HEADER_VALUE}",
        "--json", "--report", str(report),
    ]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert "/debug" in data["pages_visited"]  # the leaky page was read (and its text quarantined)
    assert main(["memory", "--store", str(store), "--json"]) == 0
    memory = capsys.readouterr().out
    haystack = _all_text([store, report]) + out.out.encode() + out.err.encode() + memory.encode()
    assert b"Your password is [secret]" in _all_text([store])
    forms = [PASSWORD, quote(PASSWORD, safe=""), base64.b64encode(PASSWORD.encode()).decode().rstrip("=")]
    assert state.logins >= 2
    for secret in [*forms, COOKIE_VALUE, HEADER_VALUE, *state.issued]:
        assert secret.encode() not in haystack, secret


def test_a_secret_too_short_to_scrub_is_warned_about(site, tmp_path, capsys):
    _, base = site
    argv = [
        "explore",
        "--url",
        base + "/",
        "--store",
        str(tmp_path / "s"),
        "--budget",
        "0",
        "--cookie",
        "k=ab",
    ]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "warning: a secret value shorter than 4 characters" in err and "k=ab" not in err
