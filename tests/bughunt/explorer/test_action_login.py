"""A login that is a React Server Components form action (Next.js App Router with Auth.js credentials;
`tests/support/action_login.py` answers it as Next.js does), over HTTP: the server-rendered form says
`enctype="multipart/form-data"`, and the server reads the action only in that encoding — posted
URL-encoded, it rendered the login page again, and the right password was reported refused."""

from __future__ import annotations

from bughunt.dom import Node, parse_html
from bughunt.explorer.form_encoding import is_multipart, multipart_body
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.login import Credentials, default_button
from tests.support import action_login
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


def test_the_multipart_body_is_what_a_browser_sends() -> None:
    body, content_type = multipart_body([("$ACTION_ID_1", ""), ('a"b', "x\ny")], boundary="BB")
    assert content_type == "multipart/form-data; boundary=BB"
    assert body == (
        b'--BB\r\nContent-Disposition: form-data; name="$ACTION_ID_1"\r\n\r\n\r\n'
        b'--BB\r\nContent-Disposition: form-data; name="a%22b"\r\n\r\nx\r\ny\r\n--BB--\r\n'
    )
    fields = action_login._form_data(content_type, body)
    assert fields == {"$ACTION_ID_1": "", "a%22b": "x\r\ny"}  # what a server reads


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
