"""A login form whose page hashes the password before posting it (a challenge computed from a server
nonce; the plain password field has no name, so the post never carries it) is the harness's login
submit when it goes to exactly the action of the form the harness filled. Refused by the gate as a
write "not made by the harness", such a login was lost without a word on a site whose start page is
public: the whole walk ran logged out (a feed reader's settings, statistics and subscriptions unseen)."""

from __future__ import annotations

import base64
import shutil
from typing import ClassVar

import pytest

from bughunt.explorer.gate import Gate
from bughunt.explorer.login import Credentials
from tests.support.engines import browser_on
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

PASSWORD = "corpus-pw"
NONCE = "n0nce"
SESSION = "sid=alice-session"
LOGIN_PAGE = (
    "<html><head><title>Log in</title></head><body>"
    '<form id="crypto" method="post" action="/auth?do=login">'
    '<input type="text" name="username"><input type="password" id="plain">'
    '<input type="hidden" name="challenge" id="challenge"><button type="submit">Log in</button></form>'
    "<script>"
    "document.getElementById('crypto').addEventListener('submit', function (e) {"
    " e.preventDefault(); const form = this;"
    " fetch('/nonce').then(r => r.text()).then(function (nonce) {"
    "  const plain = document.getElementById('plain');"
    "  document.getElementById('challenge').value = btoa(nonce + ':' + plain.value.split('').reverse().join(''));"
    "  plain.value = ''; form.submit(); });"
    "});"
    "</script></body></html>"
)


def _challenge() -> str:
    return base64.b64encode(f"{NONCE}:{PASSWORD[::-1]}".encode()).decode()


class _Site(QuietHandler):
    posted: ClassVar[list[bytes]] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        signed_in = SESSION in self.headers.get("Cookie", "")
        if self.path == "/login":
            return self.reply(200, LOGIN_PAGE)
        if self.path == "/nonce":
            return self.reply(200, NONCE, "text/plain")
        if self.path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        who = (
            '<p>Signed in as alice</p><a href="/settings">Settings</a>'
            if signed_in
            else '<a href="/login">Log in</a>'
        )
        self.reply(200, f"<html><head><title>Feeds</title></head><body><h1>Feeds</h1>{who}</body></html>")

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.posted.append(body)
        if (
            self.path == "/auth?do=login"
            and b"challenge=" + _challenge().replace("=", "%3D").encode() in body
        ):
            self.send_response(303)
            self.send_header("Location", "/")
            self.send_header("Set-Cookie", SESSION + "; Path=/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        return self.reply(403, "<html><body>refused</body></html>")


def test_a_login_whose_page_hashes_the_password_is_made_and_the_password_never_sent() -> None:
    _Site.posted.clear()
    with browser_on(_Site, respect_robots=False) as engine:
        engine.credentials = Credentials(engine.url_of("/login"), "alice", PASSWORD)
        engine.log_in()
        home = engine.fetch("/")
        assert home.page is not None and "Signed in as alice" in home.page.body
    assert len(_Site.posted) == 1 and PASSWORD.encode() not in _Site.posted[0]


def test_the_gate_admits_one_write_to_the_filled_forms_action_without_the_password() -> None:
    gate = Gate("http://127.0.0.1:8000", secret="s3cret")
    home = "http://127.0.0.1:8000"
    gate.arm_write(True, home + "/auth?do=login")
    assert gate.judge("POST", home + "/api/typing", {}, b"u=a") is not None  # not the form's action
    assert gate.judge("POST", home + "/elsewhere", {}, b"p=s3cret") is not None  # the password elsewhere
    assert gate.judge("POST", home + "/auth?do=login", {}, b"challenge=abc") is None
    assert gate.judge("POST", home + "/auth?do=login", {}, b"challenge=abc") is not None  # once
    gate.arm_write(True)  # a script-driven form names no action: only the password tells its submit
    assert gate.judge("POST", home + "/auth?do=login", {}, b"challenge=abc") is not None
