"""A site whose login is a React Server Components form action, answered the way Next.js (App Router,
Auth.js credentials) answers it — every page but the login pages redirects a visitor with no session
to `/login?callbackUrl=…` (an absolute `localhost` URL, as Next.js rewrites loopback hosts):

- `/login`: the form as the server renders it (`action=""`, `enctype="multipart/form-data"`, the
  action's id in a hidden `$ACTION_ID_…` field) and the script that takes it over, as React does:
  the submit is a `fetch` POST of the form's fields to the page's own URL with a `Next-Action`
  header. A posted form without the header (no script: an HTTP client) is handled only as
  `multipart/form-data`: an URL-encoded one renders the login page again, as Next.js does;
- `/login-app`: the form drawn by the script (a client component): React writes a function action
  as `action="javascript:throw …"`; the submit is the same `fetch`.

The fetch's answer is no redirect: `200`, `content-type: text/x-component`, an `x-action-redirect`
header naming the next page, and the session cookie (`HttpOnly; SameSite=Lax`); the script then
navigates there. A form post's answer is a `303` to the next page (absolute URL) with the cookie.
Each post the site received is kept in `Site.posts` as (path, content type, had `Next-Action`)."""

from __future__ import annotations

import email.parser
import email.policy
import html
import json
from http.cookies import SimpleCookie
from typing import ClassVar
from urllib.parse import quote

from tests.support.loopback import QuietHandler

USERNAME = "alice@example.test"
PASSWORD = "action-login-pw-7Qz"
SESSION = "sess-9f2c41d7e0b3"
ACTION_ID = "40a3acfc2c0386fd49521c8b8bb0186dafc0c2fb1b"
_REACT_PLACEHOLDER = (
    "javascript:throw new Error('A React form was unexpectedly submitted. If you called form.submit()"
    " manually, consider using form.requestSubmit() instead.')"
)
_TAKE_OVER = """
function takeOver(form) {
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    fetch(location.pathname + location.search, {
      method: 'POST', body: new FormData(form),
      headers: {'Next-Action': '__ID__', 'Accept': 'text/x-component'}
    }).then(function (r) {
      const next = (r.headers.get('x-action-redirect') || '').split(';')[0];
      if (next) { location.assign(next); return; }
      return r.text().then(function (t) { document.getElementById('said').textContent = t; });
    });
  });
}
""".replace("__ID__", ACTION_ID)


def _fields(said: str = "", email: str = "") -> str:
    return (
        f'<label for="email">Email</label><input id="email" name="email" type="email" value="{html.escape(email)}">'
        '<label for="password">Password</label><input id="password" name="password" type="password">'
        f'<button type="submit">Sign in</button><p id="said">{html.escape(said)}</p>'
    )


def login_page(said: str = "", email: str = "") -> str:
    """The server-rendered login form and the script that takes it over."""
    return (
        "<!doctype html><html><head><title>Sign in</title></head><body><h1>Sign in</h1>"
        '<form action="" encType="multipart/form-data" method="POST">'
        f'<input type="hidden" name="$ACTION_ID_{ACTION_ID}">{_fields(said, email)}</form>'
        f"<script>{_TAKE_OVER} takeOver(document.querySelector('form'));</script></body></html>"
    )


def login_app_page() -> str:
    """The login form drawn by the page's script, its action React's placeholder."""
    return (
        '<!doctype html><html><head><title>Sign in</title></head><body><h1>Sign in</h1><div id="root"></div>'
        f"<script>{_TAKE_OVER} const f = document.createElement('form');"
        f" f.setAttribute('action', {json.dumps(_REACT_PLACEHOLDER)}); f.innerHTML = {json.dumps(_fields())};"
        " document.getElementById('root').appendChild(f); takeOver(f);</script></body></html>"
    )


def _form_data(content_type: str, body: bytes) -> dict[str, str]:
    """The fields of a `multipart/form-data` body; {} for any other."""
    if not content_type.startswith("multipart/form-data"):
        return {}
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body
    )
    return {
        part.get_param("name", header="content-disposition"): part.get_content()
        for part in message.iter_parts()
    }


class Site(QuietHandler):
    posts: ClassVar[list[tuple[str, str, bool]]] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = self.path.split("?")[0]
        if path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        if path == "/login":
            return self.reply(200, login_page())
        if path == "/login-app":
            return self.reply(200, login_app_page())
        cookies = SimpleCookie(self.headers.get("Cookie", ""))
        if "authjs.session-token" not in cookies or cookies["authjs.session-token"].value != SESSION:
            port = self.server.server_address[1]
            back = quote(f"http://localhost:{port}{self.path}", safe="")
            return self.reply(307, "", "text/plain", Location=f"/login?callbackUrl={back}")
        return self.reply(
            200,
            "<!doctype html><html><head><title>Dashboard</title></head><body><h1>Dashboard</h1>"
            f'<p>Signed in as {USERNAME}</p><a href="/invoices">Invoices</a></body></html>',
        )

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        content_type = self.headers.get("Content-Type", "")
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        fetched = self.headers.get("Next-Action") == ACTION_ID
        self.posts.append((self.path, content_type.split(";")[0], fetched))
        fields = _form_data(content_type, body)
        if not fetched and f"$ACTION_ID_{ACTION_ID}" not in fields:
            return self.reply(200, login_page())  # no action it knows: the page again
        if fields.get("email") != USERNAME or fields.get("password") != PASSWORD:
            said = "Invalid credentials."
            if fetched:
                return self.reply(200, said, "text/x-component")
            return self.reply(200, login_page(said, fields.get("email", "")))
        cookie = f"authjs.session-token={SESSION}; Path=/; HttpOnly; SameSite=Lax"
        if fetched:
            return self.reply(
                200,
                '0:{"a":"$@1"}\n',
                "text/x-component",
                x_action_redirect="/dashboard;push",
                Set_Cookie=cookie,
            )
        port = self.server.server_address[1]
        return self.reply(
            303, "", "text/plain", Location=f"http://127.0.0.1:{port}/dashboard", Set_Cookie=cookie
        )
