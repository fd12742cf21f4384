"""A login form a page draws only once its realtime channel is up: the page's script first opens a
WebSocket, then falls back to long-polling — a POST every second — as socket.io does, and draws the
form when a poll is answered. The explorer opens no WebSocket and sends no write but the login
submit with `--no-realtime`, so the form never comes; the login error must say what was refused and
why it matters, not only that a wait timed out (a real-time dashboard's held-out run failed with that
line alone). With `--realtime` (the default) the same-origin channel goes through and the form comes."""

from __future__ import annotations

import shutil

import pytest

from bughunt.explorer.gate import Refusal, refusal_summary
from bughunt.explorer.login import Credentials, LoginFailed
from tests.support.engines import browser_on
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

LOGIN_PAGE = (
    "<html><head><title>Monitor</title></head><body><div id=app>Connecting…</div><script>"
    "function draw() { document.getElementById('app').innerHTML ="
    " '<form><input name=username><input type=password name=password><button>Log in</button></form>'; }"
    "try { const ws = new WebSocket('ws://' + location.host + '/channel/'); ws.onopen = draw; } catch (e) {}"
    "function poll() { fetch('/channel/?transport=polling', {method: 'POST', body: '40'})"
    " .then(r => { if (r.ok) draw(); else setTimeout(poll, 300); }, () => setTimeout(poll, 300)); }"
    "poll();"
    "</script></body></html>"
)


class _Site(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        self.reply(200, LOGIN_PAGE)

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.reply(200, "ok", "text/plain")


def test_a_login_form_behind_a_refused_realtime_channel_fails_saying_what_was_refused() -> None:
    with browser_on(_Site, respect_robots=False, timeout=3, realtime=False) as engine:
        engine.credentials = Credentials(engine.url_of("/login"), "alice", "pw-of-alice")
        with pytest.raises(LoginFailed) as failed:
            engine.log_in()
    said = str(failed.value)
    assert "write not made by the harness (POST /channel/)" in said
    assert "WebSocket closed (GET /channel/)" in said and "pw-of-alice" not in said


def test_with_realtime_the_channel_goes_through_and_the_form_comes() -> None:
    with browser_on(_Site, respect_robots=False, timeout=3) as engine:
        engine.credentials = Credentials(engine.url_of("/login"), "alice", "pw-of-alice")
        said = ""
        try:
            engine.log_in()
        except LoginFailed as exc:  # what the toy site makes of the submit is not the point
            said = str(exc)
    assert "could not be used" not in said and "pw-of-alice" not in said, said


def test_the_summary_counts_each_refusal_kind_most_made_first() -> None:
    polls = [Refusal("POST", "/channel/", "write not made by the harness")] * 5
    upgrade = [Refusal("GET", "/channel/", "upgrade (WebSocket)")]
    assert refusal_summary(upgrade + polls) == (
        "5 × write not made by the harness (POST /channel/), 1 × upgrade (WebSocket) (GET /channel/)"
    )
    assert refusal_summary([]) == ""
