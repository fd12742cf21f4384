"""An account's own profile form, its login shown (disabled) and its name field empty, while the
user bar above says "Signed in as: Dana Reyes (dana)": the form dropped the stored name. No other page
shows the name under a label. Made-up application, generic markup."""

from __future__ import annotations

from bughunt.oracles.forms import check_form_drops_value
from bughunt.page import FetchedPage
from tests.support.pages import Site

SITE = Site("http://notes.test", "<html><head><title>Profile - Notes</title></head><body>", "</body></html>")


def profile(
    fullname: str, login: str = "dana", bar: str = "Signed in as: <b>Dana Reyes</b> (<b>dana</b>)"
) -> FetchedPage:
    value = f' value="{fullname}"' if fullname else ' value=""'
    body = (
        f'<header><ul class="usertools"><li>{bar}</li><li><a href="/profile">Profile</a></li>'
        '<li><a href="/logout">Log out</a></li></ul></header>'
        "<h1>Update your profile</h1><p>Your user name cannot be changed.</p>"
        '<form method="post" action="/profile"><input type="hidden" name="token" value="t0k3n">'
        f'<label>User name <input name="login" type="text" disabled value="{login}"></label>'
        f'<label>Full name <input name="fullname" type="text"{value}></label>'
        '<label>E-mail <input name="email" type="email" value="dana@example.test"></label>'
        '<label>New password <input name="password" type="password"></label>'
        "<button>Save</button></form>"
    )
    return SITE.page(body, "/profile")


def test_the_name_the_user_bar_shows_beside_the_forms_login_is_dropped_when_empty():
    (finding,) = check_form_drops_value(profile(""), SITE.fetcher())
    assert finding.evidence["fields"] == "fullname" and finding.evidence["shown"] == "Dana Reyes"


def test_the_form_holding_the_name_is_silent():
    assert check_form_drops_value(profile("Dana Reyes"), SITE.fetcher()) == []


def test_an_admins_form_for_another_account_is_not_compared_with_the_user_bar():
    assert check_form_drops_value(profile("", login="erik"), SITE.fetcher()) == []


def test_a_user_bar_showing_only_the_login_names_no_stored_name():
    assert check_form_drops_value(profile("", bar="Signed in as <b>dana</b>"), SITE.fetcher()) == []
    assert check_form_drops_value(profile("", bar="dana (dana)"), SITE.fetcher()) == []
