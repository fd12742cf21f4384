"""A login that is a React Server Components form action (Next.js App Router with Auth.js credentials;
`tests/support/action_login.py` answers it as Next.js does), in the browser: the page's script posts
the fields by `fetch` to the page's own URL, and the answer sets the session and names the next page.
A form drawn by the script carries React's placeholder action, `javascript:throw …`: taken for the
form's address, the gate admitted the login write only to that URL, refused the real one, and the
session failed with "logged in, but / is still behind a login wall (redirected to /login?callbackUrl=…)"."""

from __future__ import annotations

import shutil

import pytest

from tests.support.action_login import PASSWORD, USERNAME, Site
from tests.support.engines import browser_on

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")


@pytest.mark.parametrize("login", ["/login-app", "/login"])
def test_a_form_action_login_in_the_browser_holds(login: str) -> None:
    """`/login-app`: the form drawn by the script (fails without the fix); `/login`: the server-rendered
    form its script takes over (its `action=""` is the page's own address, where the script posts)."""
    from bughunt.explorer.login import Credentials

    Site.posts.clear()
    with browser_on(Site, respect_robots=False) as engine:
        engine.credentials = Credentials(engine.url_of(login), USERNAME, PASSWORD)
        engine.log_in()
        home = engine.fetch("/dashboard")
        assert home.page is not None and f"Signed in as {USERNAME}" in home.page.body
    assert Site.posts == [(login, "multipart/form-data", True)]
