"""A login lost mid-walk: the app's own page shows its login form again (no redirect, no 401, and a
form address that names no login, as a front controller's `public.php` or `index.php` does) after a
GET form of the settings reset the session. The explorer knows the form it filled, logs in again,
retries the step, keeps the step that lost the login out of the walk, and reports no bug for it."""

from __future__ import annotations

import html
import json
import secrets
import shutil
from collections.abc import Iterator
from http.cookies import SimpleCookie
from urllib.parse import parse_qsl, urlsplit

import pytest

from bughunt.cli import main
from bughunt.explorer.engine import MAX_RELOGINS, LoginLost
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.login import Credentials
from tests.support.loopback import QuietHandler, serving

PASSWORD = "pw-Rl38!kQ2#zT"
ITEMS = 6


def login_form(login: str = "") -> str:
    """The login form; a refused login comes back with the login typed (`oracles.refused_form`)."""
    return (
        '<form action="/app.php?return=%2F" method="post"><input type="hidden" name="op" value="login">'
        f'<label>Login <input name="login" type="text" value="{html.escape(login)}"></label>'
        '<label>Password <input type="password" name="password"></label>'
        '<button type="submit">Log in</button> <a href="/app.php?op=forgotpass">I forgot my password</a></form>'
    )


SIGN_UP = (
    '<form action="/app.php?op=register" method="post"><input name="login"><input type="email" name="email">'
    '<input type="password" name="password"><input type="password" name="password2"><button>Sign up</button></form>'
)


class Site:
    """An app at `/` whose every page answers a visitor without a session with its login form, in
    place. `/prefs`' export form (a GET) answers and ends the session, as a settings form that
    resets it does; the items behind it are reached only after it. `drop_every` > 0: every that many
    item pages end the session too (a site that keeps ending them)."""

    def __init__(self) -> None:
        self.sessions: set[str] = set()
        self.logins = 0
        self.exports = 0
        self.logged_in_items: set[int] = set()
        self.drop_every = 0
        self.pages = 0
        self.items_from_feeds = False
        """The feeds page links the first item too (a second way in, which a walk going back takes)."""


def make_handler(site: Site) -> type[QuietHandler]:
    class Handler(QuietHandler):
        def _send(self, status: int, body: str = "", **headers: str) -> None:
            self.reply(
                status,
                f"<!doctype html><html><head><title>App</title></head><body>{body}</body></html>",
                **headers,
            )

        def do_GET(self) -> None:  # noqa: N802
            path = urlsplit(self.path).path
            if path == "/robots.txt":
                return self._send(404)
            if path == "/app.php":
                return self._send(200, "<h1>Password reset</h1><p>Ask your administrator.</p>" + SIGN_UP)
            token = SimpleCookie(self.headers.get("Cookie", "")).get("sid")
            if token is None or token.value not in site.sessions:
                return self._send(200, f"<h1>Authentication</h1>{login_form()}")
            if path == "/":
                first = ' <a href="/items/1">Item 1</a>' if site.items_from_feeds else ""
                return self._send(200, f'<h1>Feeds</h1><a href="/prefs">Preferences</a>{first}')
            if path == "/prefs":
                return self._send(
                    200,
                    '<h1>Preferences</h1><form action="/prefs/export" method="get">'
                    '<input type="hidden" name="include_settings" value="1"><button>Export OPML</button>'
                    '</form><a href="/">Feeds</a>',
                )
            if path == "/prefs/confirm":
                # Asks the logged-in account's password again before a sensitive step: its form
                # posts to a re-login address, but the session is alive.
                return self._send(
                    200,
                    '<h1>Confirm it is you</h1><form action="/relogin.php" method="post">'
                    '<label>Password <input type="password" name="password"></label><button>Go on</button></form>',
                )
            if path == "/prefs/export":
                site.exports += 1
                site.sessions.clear()  # the answer comes, the session is gone
                return self._send(200, '<h1>Exported</h1><p>Your feeds.</p><a href="/items/1">Item 1</a>')
            if path.startswith("/items/"):
                n = int(path.rsplit("/", 1)[1])
                site.logged_in_items.add(n)
                site.pages += 1
                if site.drop_every and site.pages % site.drop_every == 0:
                    site.sessions.clear()
                onward = f'<a href="/items/{n + 1}">Item {n + 1}</a>' if n < ITEMS else ""
                return self._send(
                    200, f'<h1>Item {n}</h1><p>Text of item {n}.</p>{onward} <a href="/">Feeds</a>'
                )
            return self._send(404, "<h1>Not found</h1>")

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            form = dict(parse_qsl(self.rfile.read(length).decode()))
            if form.get("op") != "login" or form.get("login") != "admin" or form.get("password") != PASSWORD:
                return self._send(
                    200, f"<h1>Authentication</h1><p>Wrong login.</p>{login_form(form.get('login', ''))}"
                )
            site.logins += 1
            site.sessions.add(token := secrets.token_hex(16))
            return self._send(303, Location="/", Set_Cookie=f"sid={token}; Path=/; HttpOnly")

    return Handler


@pytest.fixture
def site() -> Iterator[tuple[Site, str]]:
    """The site, and its base URL while it is served."""
    with serving(make_handler(state := Site())) as url:
        yield state, url


def test_the_form_logged_in_with_shown_again_is_the_wall_and_the_step_is_retried(site):
    """HTTP engine, step by step: the page showing the login form the explorer filled is a wall (its
    address names no login), the engine logs in again and the same step answers its page."""
    state, base = site
    engine = HttpEngine(base + "/", credentials=Credentials(base + "/", "admin", PASSWORD))
    engine.log_in()
    assert engine.fetch("/prefs").outcome == "page"
    assert engine.fetch("/prefs/export?include_settings=1").outcome == "page"  # ends the session
    result = engine.fetch("/items/1")
    assert result.outcome == "page" and "Item 1" in result.page.body
    assert state.logins == 2 and engine.relogins == 1
    # A sign-up form (other fields) on a page is no wall, logged in or not.
    assert engine.fetch("/app.php?op=forgotpass").outcome == "page"


def test_a_page_asking_the_password_again_is_no_lost_login_when_the_login_page_shows_no_form(site):
    """The login address answers a logged-in visitor with its home page in place (no redirect, no
    form): the session is alive, so a page whose password form posts to a login address is walled for
    this account, not a lost login — the walk goes on without logging in again."""
    state, base = site
    engine = HttpEngine(base + "/", credentials=Credentials(base + "/", "admin", PASSWORD))
    engine.log_in()
    assert engine.fetch("/prefs/confirm").outcome == "login_wall"
    assert engine.fetch("/prefs").outcome == "page"
    assert state.logins == 1 and engine.relogins == 0


def test_a_site_that_keeps_ending_sessions_ends_the_walk_after_the_allowed_re_logins(site):
    state, base = site
    engine = HttpEngine(base + "/", credentials=Credentials(base + "/", "admin", PASSWORD))
    engine.log_in()
    state.drop_every = 1  # every page ends the session after answering
    for n in range(1, MAX_RELOGINS + 2):
        assert engine.fetch(f"/items/{n}").outcome == "page"  # the first answers, then each re-logs in
    with pytest.raises(LoginLost, match=rf"after {MAX_RELOGINS} re-login\(s\)$"):
        engine.fetch("/items/9")
    assert state.logins == MAX_RELOGINS + 2  # the last login told a lost session from a walled page


BOTH_ENGINES = pytest.mark.parametrize(
    "engine",
    [
        "http",
        pytest.param(
            "browser",
            marks=[
                pytest.mark.skipif(shutil.which("chromium") is None, reason="no chromium"),
                pytest.mark.slow,
            ],
        ),
    ],
)


@BOTH_ENGINES
def test_a_walk_that_loses_its_login_logs_in_again_and_does_not_lose_it_twice(
    site, tmp_path, monkeypatch, capsys, engine
):
    state, base = site
    monkeypatch.setenv("BH_TEST_PASSWORD", PASSWORD)
    argv = [
        "explore", "--url", base + "/", "--store", str(tmp_path / "s"), "--budget", "20", "--engine", engine,
        "--login-url", "/", "--username", "admin", "--password-env", "BH_TEST_PASSWORD", "--json",
    ]  # fmt: skip
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["stop_reason"] in ("done", "budget")
    # Behind the step that lost the login, the walk went on logged in: every item's own page was seen.
    assert state.logged_in_items == set(range(1, ITEMS + 1))
    # The export was made once: the step that lost the login is not taken again.
    assert state.exports == 1 and state.logins == 2
    assert out["bugs"] == []  # a login wall is no bug


def test_a_policy_that_walks_back_does_not_take_the_step_that_lost_the_login_again(
    site, tmp_path, monkeypatch, capsys
):
    """The random policy goes back to visited pages (Feeds, Preferences) and takes their links again
    while items are left: the export that lost the login is not among them any more."""
    state, base = site
    state.items_from_feeds = True
    monkeypatch.setenv("BH_TEST_PASSWORD", PASSWORD)
    argv = [
        "explore", "--url", base + "/", "--store", str(tmp_path / "s"), "--budget", "40", "--policy", "random",
        "--login-url", "/", "--username", "admin", "--password-env", "BH_TEST_PASSWORD", "--json",
    ]  # fmt: skip
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert state.logged_in_items == set(range(1, ITEMS + 1)) and out["bugs"] == []
    assert state.exports == 1 and state.logins == 2
