"""A login that is a React Server Components form action (Next.js App Router with Auth.js credentials;
`tests/support/action_login.py` answers it as Next.js does), over HTTP: the server-rendered form says
`enctype="multipart/form-data"`, and the server reads the action only in that encoding — posted
URL-encoded, it rendered the login page again, and the right password was reported refused."""

from __future__ import annotations

from typing import Any

import pytest

from bughunt.dom import Node, parse_html
from bughunt.explorer.form_encoding import default_button, is_multipart
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.login import Credentials
from bughunt.explorer.repro_template import COMMON, HTTP
from tests.support.action_login import PASSWORD, USERNAME, Site
from tests.support.loopback import serving


def test_a_form_action_login_over_http_is_posted_multipart_and_holds() -> None:
    Site.posts.clear()
    with serving(Site) as base:
        engine = HttpEngine(base + "/dashboard", credentials=Credentials(base + "/login", USERNAME, PASSWORD))
        engine.log_in()
        page = engine.fetch("/dashboard")
    assert page.page is not None and f"Signed in as {USERNAME}" in page.page.body
    # the refused try (a wrong password) and the login, each as the form declared it
    assert Site.posts == [("/login", "multipart/form-data", False)] * 2


def test_the_encoding_is_the_forms_or_its_default_buttons() -> None:
    def form(markup: str) -> tuple[Node, Node | None]:
        node = parse_html(markup).find_all("form")[0]
        return node, default_button(node)

    assert is_multipart(*form('<form enctype="Multipart/Form-Data"><button>Go</button></form>'))
    assert not is_multipart(*form('<form><input type="submit"></form>'))
    assert not is_multipart(*form('<form enctype="text/plain"><input type="submit"></form>'))
    # the first submit button decides (a type="button" is none); its formenctype overrides the form's
    assert is_multipart(
        *form(
            '<form><button type="button">Show</button><button formenctype="multipart/form-data">Go</button></form>'
        )
    )
    assert not is_multipart(
        *form(
            '<form enctype="multipart/form-data"><input type="submit" formenctype="application/x-www-form-urlencoded"></form>'
        )
    )


def test_a_reproductions_login_posts_the_form_as_it_declares(monkeypatch: pytest.MonkeyPatch) -> None:
    """`bughunt repro` logs in as the exploration did: its HTTP login posts the form in the encoding
    the form declares, or a bug seen logged in on such a site never reproduces ("the login did not
    succeed")."""
    monkeypatch.setenv("ACTION_LOGIN_PW", PASSWORD)
    Site.posts.clear()
    with serving(Site) as base:
        login = {
            "login_url": "/login",
            "username": USERNAME,
            "password_env": "ACTION_LOGIN_PW",
            "cookies": {},
            "headers": {},
        }
        source = (
            "import os\nfrom html.parser import HTMLParser\nfrom urllib.parse import urljoin, urlsplit\n"
            f"import httpx\nimport pytest\nBASE_URL = {base!r}\nLOGIN = {login!r}\n" + COMMON + HTTP
        )
        generated: dict[str, Any] = {}
        exec(compile(source, "repro.py", "exec"), generated)  # noqa: S102 (our own template)
        with generated["_Site"]() as site:
            site.log_in()
            status, text = site.open("/dashboard")
    assert status == 200 and f"Signed in as {USERNAME}" in text
    assert Site.posts == [("/login", "multipart/form-data", False)]
