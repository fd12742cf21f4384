"""A refused login that comes back without the username typed (`explorer/login.refused_login`,
`oracles/refused_form`): before its first login the explorer submits the login form once with the
username and a wrong password, as a tester does; the form that comes back (the site redirects "back",
to its referrer, with an error) must still hold the username. The real login follows and the session
stays logged in. A made-up site on loopback, generic markup."""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Iterator
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qsl

import pytest

from bughunt.cli import main
from bughunt.oracles.refused_form import check_refused_form
from tests.support.loopback import serving, stop
from tests.support.pages import Site as Pages

PASSWORD = "pw-Rf6!tQ9#zL"
USER = "alice@example.test"


class Site:
    def __init__(self, refills: bool, status: int = 200, crashes: bool = False) -> None:
        self.refills = refills
        self.status = status
        """The status the refused form comes back with (its redirect's target answers it)."""
        self.crashes = crashes
        """A wrong password kills the server (an uncaught error in its login handler's callback)."""
        self.sessions: set[str] = set()
        self.flash: dict[str, str] = {}
        self.wrong = 0
        self.logins = 0
        self.referers: list[str] = []


def handler(site: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _send(self, status: int, body: str = "", **headers: str) -> None:
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            for k, v in headers.items():
                self.send_header(k.replace("_", "-"), v)
            self.end_headers()
            self.wfile.write(data)

        def _session(self) -> str:
            jar = SimpleCookie(self.headers.get("Cookie", ""))
            return jar["session"].value if "session" in jar else ""

        def do_GET(self) -> None:  # noqa: N802
            if self.path == "/robots.txt":
                return self._send(404)
            if self.path == "/login":
                flash, site.flash = site.flash, {}
                typed = flash.get("email", "") if site.refills else ""
                error = f'<p class="error">{flash["error"]}</p>' if "error" in flash else ""
                return self._send(
                    site.status if error else 200,
                    f'<html><body><h1>Log in</h1>{error}<form method="post" action="/login">'
                    f'<input type="email" name="email" value="{typed}">'
                    '<input type="password" name="password"><button>Log in</button></form>'
                    '<form action="/search"><input name="q"></form></body></html>',
                )
            if self._session() not in site.sessions:
                return self._send(303, Location="/login")
            if self.path == "/":
                return self._send(
                    200, '<html><body><a href="/notes/1">one</a> <a href="/notes/2">two</a></body></html>'
                )
            if self.path.startswith("/notes/"):
                return self._send(
                    200, f"<html><body><h1>Note {self.path[7:]}</h1><a href='/'>home</a></body></html>"
                )
            return self._send(404, "<html><body>nope</body></html>")

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            form = dict(parse_qsl(self.rfile.read(length).decode()))
            if form.get("email") != USER or form.get("password") != PASSWORD:
                # refused: the typed address and the error flashed, back to the page it came from
                site.wrong += 1
                site.referers.append(self.headers.get("Referer", ""))
                if site.crashes:  # the process dies: no answer, and no connection from now on
                    self.close_connection = True
                    threading.Thread(target=stop, args=(self.server,), daemon=True).start()
                    return None
                site.flash = {"email": form.get("email", ""), "error": "Wrong e-mail or password."}
                return self._send(302, Location=self.headers.get("Referer") or "/")
            token = secrets.token_hex(8)
            site.sessions.add(token)
            site.logins += 1
            return self._send(302, Location="/", Set_Cookie=f"session={token}; Path=/")

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@pytest.fixture
def explore(tmp_path, monkeypatch, capsys) -> Iterator:
    monkeypatch.setenv("BH_TEST_PASSWORD", PASSWORD)

    def run(site: Site) -> dict:
        with serving(handler(site)) as base:
            argv = [
                "explore", "--url", base + "/", "--store", str(tmp_path / f"s{site.refills}{site.status}"),
                "--budget", "4", "--login-url", "/login", "--username", USER,
                "--password-env", "BH_TEST_PASSWORD", "--json",
            ]  # fmt: skip
            assert main(argv) in (0, 3)
        return json.loads(capsys.readouterr().out)

    yield run


@pytest.mark.parametrize("refills", [False, True])
def test_a_refused_login_must_come_back_with_the_username_typed(explore, refills: bool) -> None:
    site = Site(refills)
    out = explore(site)
    dropped = [
        (b["kind"], b["route"], b["suspected"]) for b in out["bugs"] if b["kind"] == "form_drops_value"
    ]
    # a lead, never a gated finding: many applications clear their login form on purpose
    assert dropped == ([] if refills else [("form_drops_value", "/login", True)])
    # one wrong password, sent from the login page as a browser sends it; then one real login, and the
    # session explores logged in
    assert site.wrong == 1 and site.referers[0].endswith("/login") and site.logins == 1
    assert "/notes/1" in out["pages_visited"]


def test_a_refused_form_answered_with_an_error_status_is_not_judged(explore) -> None:
    # as every form oracle: a 4xx page is the site saying no, not a form to read values off
    out = explore(Site(False, status=422))
    assert [b for b in out["bugs"] if b["kind"] == "form_drops_value"] == []


def test_only_the_form_that_was_sent_is_read_and_passwords_are_not_asked() -> None:
    pages = Pages("http://app.test", "<html><body>", "</body></html>")
    back = pages.page(
        '<form method="post"><input name="email" value="ann@x.test"><input type="password" name="password">'
        '</form><form><input name="q"></form>',
        "/login",
    )
    assert check_refused_form(back, {"email": "ann@x.test", "password": "x"}) == []
    assert check_refused_form(back, {"q": "cats"}) != []  # the search box: typed, came back empty
    assert check_refused_form(back, {"nickname": "ann"}) == []  # no form with that field came back
    emptied = pages.page(
        '<form method="post"><input name="email"><input type="password" name="password">', "/login"
    )
    found = check_refused_form(emptied, {"email": "ann@x.test", "password": "x"})
    assert [(f.route, f.evidence["fields"]) for f in found] == [("/login", "email")]  # never the password


def test_a_site_that_a_wrong_password_brings_down_is_a_runtime_failure_not_bad_options(
    tmp_path, monkeypatch, capsys
) -> None:
    # An Express app whose login callback throws on a missing row dies on the first wrong password:
    # the real login then finds no site. The options are right (exit 2 would send the user to check
    # them): a runtime failure that says what happened.
    monkeypatch.setenv("BH_TEST_PASSWORD", PASSWORD)
    site = Site(False, crashes=True)
    with serving(handler(site)) as base:
        argv = [
            "explore", "--url", base + "/", "--store", str(tmp_path / "s"), "--budget", "4",
            "--login-url", "/login", "--username", USER, "--password-env", "BH_TEST_PASSWORD",
        ]  # fmt: skip
        code = main(argv)
    err = capsys.readouterr().err
    assert site.wrong == 1 and site.logins == 0
    assert code == 1, err
    assert "stopped answering after the refused-login check" in err and "/login" in err
    assert PASSWORD not in err and "bughunt-refused-login" not in err


def test_a_login_page_that_never_answered_is_still_the_options_fault(tmp_path, monkeypatch, capsys) -> None:
    # no wrong password went out (the login page itself could not be loaded): the address is to check
    monkeypatch.setenv("BH_TEST_PASSWORD", PASSWORD)
    with serving(handler(Site(False))) as base:
        pass  # closed: nothing answers there any more
    argv = [
        "explore", "--url", base + "/", "--store", str(tmp_path / "s"), "--budget", "4",
        "--login-url", "/login", "--username", USER, "--password-env", "BH_TEST_PASSWORD",
    ]  # fmt: skip
    assert main(argv) == 2
    assert "--login-url /login: could not load it" in capsys.readouterr().err
