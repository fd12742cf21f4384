"""Single-page apps whose login is sent by script: the form is drawn by the app's script, its submit
handler (or a button's click handler, with no form at all) sends the credentials as a JSON `fetch`,
and the session is a token the script keeps in localStorage or sessionStorage and sends in a header.

Two ways such a login that worked was lost:
- the wall check read the page's markup as text: the login form's template in the app's own script
  (and a login dialog drawn and then hidden) still holds a password input and a form posting to a
  login address, so the logged-in app was judged a wall ("logged in, but / is still behind a login
  wall") — `login_wall`, and the read's mark on a hidden password field (`page_scripts`);
- a login that is no form with a submit button (fields and a button in a `<div>`): Enter does nothing
  there, and the login was reported refused — `login_submit` clicks the button when Enter sent nothing.
The same holds for any family whose pages carry a login form they do not show: Knockout/Angular/Alpine
templates, jQuery dialogs kept in the page, server-rendered pages with a hidden login drop-down.
"""

from __future__ import annotations

import json
import shutil
from typing import ClassVar

import pytest

from bughunt.explorer.login import Credentials, LoginFailed
from bughunt.explorer.login_wall import shows_login_form
from bughunt.page import FetchedPage
from tests.support.engines import browser_on
from tests.support.loopback import QuietHandler

browser = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

PASSWORD = "spa-login-pw"
TOKEN = "tok-5e55-10n-kept"
FORM = (
    '<form id="f" action="/api/login"><input id="u" name="username">'
    '<input id="p" name="password" type="password"><button type="submit">Log in</button></form>'
)
NO_FORM = (
    '<div><input id="u" placeholder="Username"><input id="p" type="password" placeholder="Password">'
    '<button id="eye" type="button">Show</button><button id="go" type="button">Sign in</button></div>'
)


def _shell(storage: str, login: str, hook: str, *, kept: bool = False) -> str:
    """The app: `/api/me` with the kept token decides between the list and the login. The login's
    markup is a template in this script, drawn when needed and emptied once logged in — or, `kept`,
    part of the page from the start, shown when needed and hidden by the stylesheet once logged in
    (a jQuery app's dialog)."""
    template = "'" + login.replace("'", "\\'") + "'"  # as an app writes it: a string of markup
    shown, done = (
        ("box.className = '';", "box.className = 'gone';")
        if kept
        else ("box.className = ''; box.innerHTML = LOGIN;", "box.innerHTML = '';")
    )
    return (
        "<!doctype html><html><head><title>Items</title><style>.gone{display:none}</style></head>"
        f'<body><div id="login" class="gone">{login if kept else ""}</div><div id="app"></div><script>'
        f"const S = {storage}; const LOGIN = {template}; const box = document.getElementById('login');"
        "function me() { const t = S.getItem('tok');"
        " return fetch('/api/me', {headers: t ? {Authorization: 'Bearer ' + t} : {}}); }"
        f"function route() {{ me().then(r => {{ if (r.status === 401) {{ {shown} {hook} return; }} {done}"
        " r.json().then(m => { document.getElementById('app').innerHTML = '<h1>Items</h1><p>Signed in as '"
        " + m.name + '</p><a href=\"#/items/1\">Item 1</a>'; }); }); }"
        "function send() { fetch('/api/login', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({username: document.getElementById('u').value,"
        " password: document.getElementById('p').value})}).then(r => r.json()).then(a => {"
        " if (a.token) { S.setItem('tok', a.token); location.hash = '#/'; route(); } }); }"
        "route();</script></body></html>"
    )


SUBMIT = "document.getElementById('f').addEventListener('submit', e => { e.preventDefault(); send(); });"
CLICK = "document.getElementById('go').addEventListener('click', send);"


class _Site(QuietHandler):
    shell: ClassVar[str] = ""
    posted: ClassVar[list[bytes]] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/api/me":
            if TOKEN in self.headers.get("Authorization", ""):
                return self.reply(200, json.dumps({"name": "alice"}), "application/json")
            return self.reply(401, "{}", "application/json")
        if self.path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        return self.reply(200, self.shell)

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.posted.append(body)
        given = json.loads(body or b"{}")
        if self.path == "/api/login" and given == {"username": "alice", "password": PASSWORD}:
            return self.reply(200, json.dumps({"token": TOKEN}), "application/json")
        return self.reply(401, "{}", "application/json")


def _logs_in(shell: str) -> str:
    """Log in at `/` in the browser and give the start page's text afterwards."""
    _Site.shell, _Site.posted = shell, []
    with browser_on(_Site, respect_robots=False) as engine:
        engine.credentials = Credentials(engine.url_of("/"), "alice", PASSWORD)
        engine.log_in()
        home = engine.fetch("/")
        assert home.outcome == "page" and home.page is not None
        text = home.page.visible_text
    assert len(_Site.posted) == 1  # one login request, nothing else written
    return text


@browser
def test_a_login_form_whose_template_stays_in_the_apps_script_is_no_wall_once_logged_in() -> None:
    assert "Signed in as alice" in _logs_in(_shell("localStorage", FORM, SUBMIT))


@browser
def test_a_login_dialog_the_app_hides_by_its_stylesheet_is_no_wall_with_a_session_token() -> None:
    assert "Signed in as alice" in _logs_in(_shell("sessionStorage", FORM, SUBMIT, kept=True))


@browser
def test_a_login_of_fields_and_a_button_without_a_form_is_sent_by_the_button() -> None:
    assert "Signed in as alice" in _logs_in(_shell("localStorage", NO_FORM, CLICK))


def _page(body: str) -> FetchedPage:
    return FetchedPage("http://x/", "/", 200, {}, "text/html", body, 1.0)


PASSWORD_FORM = '<form action="/login" method="post"><input name="u"><input type="password" name="p"></form>'


@pytest.mark.parametrize(
    ("body", "wall"),
    [
        (f"<html><body>{PASSWORD_FORM}</body></html>", True),
        (f"<html><body><h1>Items</h1><script>const t = '{PASSWORD_FORM}';</script></body></html>", False),
        (f"<html><body><h1>Items</h1><template>{PASSWORD_FORM}</template></body></html>", False),
        (f'<html><body><h1>Items</h1><div style="display: none">{PASSWORD_FORM}</div></body></html>', False),
        (f'<html><body><h1>Items</h1><div data-bughunt-hidden="">{PASSWORD_FORM}</div></body></html>', False),
        # the password field of one form and the login address of another are no login form
        (
            '<html><body><form action="/account/password"><input type="password" name="p"></form>'
            '<form action="/auth/logout" method="post"><button>Log out</button></form></body></html>',
            False,
        ),
    ],
)
def test_a_login_wall_is_a_shown_form_posting_to_a_login_address_with_a_shown_password_field(
    body: str, wall: bool
) -> None:
    assert shows_login_form(_page(body)) is wall


@browser
def test_a_wrong_password_on_a_login_without_a_form_is_reported_refused_after_one_request() -> None:
    _Site.shell, _Site.posted = _shell("localStorage", NO_FORM, CLICK), []
    with browser_on(_Site, respect_robots=False) as engine:
        engine.credentials = Credentials(engine.url_of("/"), "alice", "not-" + PASSWORD)
        with pytest.raises(LoginFailed, match="refused"):
            engine.log_in()
    assert len(_Site.posted) == 1  # Enter sent nothing; the button sent the login once
