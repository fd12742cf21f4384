"""A walk that keeps the session it logged in with, on a small admin site written the way plain-PHP admins are:
the menu's "Logout" links the login page (`login.php`, which ends the session it finds on a GET), the login
wall is a redirect to `login.php`, and the admin list's "active: YES" cell is a GET guarded by the session's
anti-forgery token that switches the account off (`?table=admin&id=alice&active=0&token=<t>`).

A mail server's admin (PostfixAdmin) lost its session at click 16 of 100 so: "Logout" was followed (its
address names no logout), every later click answered with the login page — which the engine did not take
for a wall, its address being `/login.php` — and 84 of the 100 clicks were repeats over 14 pages. Its
toggle switched off the explorer's own account, so logging in again would have failed too."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import ClassVar
from urllib.parse import parse_qs, urlsplit

from bughunt.actions import extract_actions
from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.login import Credentials
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.summary import repeat_clicks
from bughunt.log_out import says_log_out
from bughunt.oracles.guarded_gets import guarded_get
from bughunt.page import FetchedPage
from tests.support.loopback import QuietHandler, serving

PASSWORD = "admin-site-pw"
DOMAINS = 12


def _page(title: str, body: str) -> str:
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


class _Admin(QuietHandler):
    sessions: ClassVar[dict[str, str]] = {}  # session id → its anti-forgery token
    active: ClassVar[dict[str, bool]] = {}
    gets: ClassVar[list[str]] = []

    def _sid(self) -> str | None:
        for part in (self.headers.get("Cookie") or "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == "sid" and value in self.sessions:
                return value
        return None

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.gets.append(self.path)
        path, _, query = self.path.partition("?")
        args = {k: v[0] for k, v in parse_qs(query).items()}
        if path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        if path == "/login.php":  # the login page ends the session it finds, as such PHP admins do
            self.sessions.pop(self._sid() or "", None)
            form = (
                '<form method="post" action=""><input name="user"><input type="password" name="pass">'
                "<button>Login</button></form>"
            )
            return self.reply(200, _page("Login", form))
        sid = self._sid()
        if sid is None:
            return self.reply(302, "", Location="/login.php")
        menu = (
            '<ul class="nav"><li><a href="main.php">Home</a></li><li><a href="list.php?table=admin">Admins</a>'
            '</li><li><a href="list.php?table=domain">Domains</a></li><li><a href="login.php">Logout</a></li></ul>'
        )
        if path == "/main.php":
            return self.reply(200, _page("Home", menu + "<h1>Overview</h1>"))
        if path == "/list.php" and args.get("table") == "admin":
            rows = "".join(
                f'<tr><td>{name}</td><td><a href="editactive.php?table=admin&amp;id={name}&amp;active=0'
                f'&amp;token={self.sessions[sid]}">YES</a></td></tr>'
                for name in sorted(self.active)
            )
            return self.reply(200, _page("Admins", menu + f"<table>{rows}</table>"))
        if path == "/editactive.php":
            self.active[args.get("id", "")] = args.get("active") == "1"
            return self.reply(302, "", Location="/list.php?table=admin")
        if path == "/list.php" and args.get("table") == "domain":
            rows = "".join(
                f'<li><a href="domain.php?d={n}">d{n}.example</a> mailboxes: {n}</li>'
                for n in range(1, DOMAINS + 1)
            )
            return self.reply(200, _page("Domains", menu + f"<ul>{rows}</ul>"))
        if path == "/domain.php":
            return self.reply(
                200, _page("Domain", menu + f"<h1>d{args.get('d')}.example</h1><p>Mailboxes</p>")
            )
        return self.reply(404, _page("Not found", "none"))

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        length = int(self.headers.get("Content-Length") or 0)
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
        user = form.get("user", "")
        if self.path.startswith("/login.php") and form.get("pass") == PASSWORD and self.active.get(user):
            sid = secrets.token_hex(8)
            self.sessions[sid] = secrets.token_hex(16)
            return self.reply(302, "", Location="/main.php", Set_Cookie=f"sid={sid}; Path=/")
        return self.reply(
            200, _page("Login", '<form method="post" action=""><input type="password" name="pass"></form>')
        )


def _fresh() -> None:
    _Admin.sessions.clear()
    _Admin.gets.clear()
    _Admin.active.clear()
    _Admin.active.update(alice=True, bob=True)


def test_the_walk_keeps_its_session_and_reaches_every_page(tmp_path: Path) -> None:
    _fresh()
    with serving(_Admin) as base:
        store = ExplorerStore(tmp_path / "s")
        try:
            engine = HttpEngine(
                base + "/main.php",
                respect_robots=False,
                credentials=Credentials(base + "/login.php", "alice", PASSWORD),
            )
            engine.log_in()
            with make_policy("planner", store=store) as policy:
                Explorer(store, engine, policy, SessionConfig(budget=DOMAINS + 6)).run()  # type: ignore[arg-type]
            steps = store.history.steps()
            repeats = repeat_clicks(store)
        finally:
            store.close()
    assert _Admin.active == {"alice": True, "bob": True}, _Admin.gets  # no toggle was walked
    assert not [g for g in _Admin.gets if g.startswith("/editactive.php")]
    assert not [s.route for s in steps if (s.final_route or s.route).startswith("/login.php")]
    assert {s.route for s in steps if s.route.startswith("/domain.php")} == {
        f"/domain.php?d={n}" for n in range(1, DOMAINS + 1)
    }
    assert repeats == 0, [s.route for s in steps]


def test_a_redirect_to_a_scripts_login_page_is_the_wall_and_the_engine_logs_in_again() -> None:
    """The session ended on the server (an idle timeout, a login page loaded): the next page redirects to
    `/login.php`, which is the login wall as much as `/login` is, and the engine logs in again."""
    _fresh()
    with serving(_Admin) as base:
        engine = HttpEngine(
            base + "/main.php",
            respect_robots=False,
            credentials=Credentials(base + "/login.php", "alice", PASSWORD),
        )
        engine.log_in()
        _Admin.sessions.clear()  # the server forgot the session
        result = engine.fetch("/list.php?table=domain")
    assert result.outcome == "page" and result.final_route == "/list.php?table=domain", result


def test_a_redirect_to_a_scripts_login_page_is_the_wall_by_its_address() -> None:
    """Before any login form is known (the one the engine filled), the address alone says it: a redirect to
    `/login.php`, `/Login.aspx` or a login page reached by redirects is the wall; `/login-help.php` is not."""
    engine = HttpEngine("http://admin.test/main.php")
    for where in ("/login.php", "/Login.aspx?ReturnUrl=%2Flist", "/admin/login.cgi"):
        moved = FetchedPage(
            "http://admin.test/list.php", "/list.php", 302, {"Location": where}, "text/html", "", 1.0
        )
        assert engine.classify("/list.php", moved).outcome == "login_wall", where
    landed = FetchedPage(
        "http://admin.test/login.php", "/login.php", 200, {}, "text/html", "<p>Log in</p>", 1.0,
        redirects=("http://admin.test/list.php",),
    )  # fmt: skip
    assert engine.classify("/list.php", landed).outcome == "login_wall"
    help_page = FetchedPage(
        "http://admin.test/list.php", "/list.php", 302, {"Location": "/login-help.php"}, "text/html", "", 1.0
    )
    assert engine.classify("/list.php", help_page).outcome == "blocked"


def test_a_link_that_says_log_out_is_no_action_whatever_its_address() -> None:
    body = (
        '<a href="login.php">Logout</a> <a href="index.php?reconnect=1">Sign out</a> <a href="/help">Help</a>'
        ' <a href="/posts/9">Why I log off social media every night</a>'
    )
    page = FetchedPage(
        "http://127.0.0.1:1/main.php", "/main.php", 200, {}, "text/html", _page("Home", body), 0.0
    )
    assert [urlsplit(a.target).path for a in extract_actions(page)] == ["/help", "/posts/9"]
    assert says_log_out("Log out alice@example.com") and says_log_out("Sign out")
    assert not says_log_out("Log in") and not says_log_out("Why I log off social media every night")


def test_a_get_guarded_by_an_anti_forgery_token_is_a_write() -> None:
    token = secrets.token_hex(16)
    assert guarded_get(f"http://h/editactive.php?table=admin&id=alice&active=0&token={token}")
    assert guarded_get(f"http://h/course/view.php?id=3&hide=4&sesskey={token[:10]}")
    assert guarded_get(f"http://h/wp-admin/plugins.php?plugin=x&_wpnonce={token[:10]}")
    # a view the site names as one, a share link, a list's position, a signed file, no token: reads
    assert not guarded_get(f"http://h/list?action=show&show_details=1&csrf_token={token}")
    assert not guarded_get(f"http://h/download?token={token}")
    assert not guarded_get(f"http://h/api/items?page_token={token}&q=x")
    assert not guarded_get(f"http://h/file?id=3&signature={token}")
    assert not guarded_get("http://h/list.php?table=admin&id=alice&active=0")
