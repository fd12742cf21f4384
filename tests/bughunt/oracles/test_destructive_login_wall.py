"""A login wall is a page with a *new* password field that shows none of the record the action was
clicked from: an account page answering a token's deletion with its change-password form beside the
remaining tokens is the site's answer (the effect is judged), a sign-in page is a wall (nothing is).
The account pages are made up, none is a built-in site's."""

from __future__ import annotations

from bughunt.oracles import ORACLES, OracleConfig
from bughunt.oracles.action_effect import login_wall
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://account.test"
SIGN_IN = (
    "<h1>Sign in</h1><form method='post' action='/login'><input name='user'>"
    "<input type='password' name='password'><button>Sign in</button></form>"
)


def _page(path: str, body: str, redirects: tuple[str, ...] = ()) -> FetchedPage:
    url = ORIGIN + path
    html = f"<html><body><nav><a href='/'>home</a></nav>{body}</body></html>"
    return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0, redirects=redirects)


class Account:
    """`/tokens` lists API tokens, each with a GET `/tokens/<n>/delete` that deletes it and redirects to
    `/settings`: the change-password form (two password fields) and the tokens left. With `signed_out`,
    every page answers the sign-in form instead."""

    def __init__(self, signed_out: bool = False) -> None:
        self.tokens = [5, 6]
        self.signed_out = signed_out

    def _rows(self) -> str:
        return "".join(f"<li>token {n} <a href='/tokens/{n}/delete'>delete</a></li>" for n in self.tokens)

    def tokens_page(self) -> FetchedPage:
        return _page("/tokens", f"<h1>Tokens</h1><h2>API tokens</h2><ul>{self._rows()}</ul>")

    def __call__(self, url: str) -> FetchedPage:
        path = url.removeprefix(ORIGIN)
        if self.signed_out:
            return _page("/login", SIGN_IN, redirects=(url,))
        if path.startswith("/tokens/") and path.endswith("/delete"):
            self.tokens.remove(int(path.split("/")[2]))
            password = (
                "<h2>Change password</h2><form method='post' action='/settings'>"
                "<input type='password' name='new'><input type='password' name='confirm'>"
                "<button>Change</button></form>"
            )
            return _page(
                "/settings", f"<h1>Settings</h1>{password}<h2>API tokens</h2><ul>{self._rows()}</ul>", (url,)
            )
        return self.tokens_page()


def test_an_account_page_with_a_change_password_form_is_no_login_wall():
    site = Account()
    found = ORACLES["unconfirmed_destructive"](
        site.tokens_page(), site, OracleConfig(allow_destructive=True, opened_destructive={})
    )
    assert site.tokens == [6]
    assert [(f.route, f.suspected) for f in found] == [
        ("/tokens/5/delete", False),
        ("/tokens/6/delete", False),
    ]
    assert found[0].evidence["effect"] == "gone from the page that listed it"


def test_a_sign_in_page_is_a_wall_and_judges_nothing():
    site = Account()
    listing = site.tokens_page()
    site.signed_out = True
    found = ORACLES["unconfirmed_destructive"](
        listing, site, OracleConfig(allow_destructive=True, opened_destructive={})
    )
    assert found == []


def test_login_wall_reads_a_new_password_field_without_the_record():
    listing = Account().tokens_page()
    assert login_wall(_page("/login", SIGN_IN), listing)
    assert not login_wall(listing, listing)
    # the same password form the page before had is that page again
    settings = _page("/settings", "<h1>Settings</h1><form><input type='password' name='new'></form>")
    assert not login_wall(settings, settings)
    # with no page before, one password field is a sign-in form; two are a change of password
    assert login_wall(_page("/login", SIGN_IN), None)
    change = _page(
        "/settings", "<form><input type='password' name='a'><input type='password' name='b'></form>"
    )
    assert not login_wall(change, None)
