"""A settings page's token Delete link that deletes on GET is confirmed though the page asks passwords.

Generic markup, no application's templates: `/settings` holds the account's change-password form (a
password field) and a table of API tokens, each with a Delete link to `/settings/tokens/<n>/delete`
(a script would open a dialog on click; the link's GET deletes at once and redirects back). The
answer to the opening is the settings page again — with its password field, which was taken for a
login wall, so the opening was never judged.
"""

from __future__ import annotations

from bughunt.oracles import ORACLES
from bughunt.oracles.base import OracleConfig
from bughunt.page import FetchedPage
from bughunt.urls import route_of

ORIGIN = "http://ctf.test"


class Site:
    """The settings page over a set of tokens; a GET of a token's delete address deletes it (or not)."""

    def __init__(self, deletes: bool) -> None:
        self.tokens = {1, 2}
        self.deletes = deletes

    def settings(self, redirects: list[str] | None = None) -> FetchedPage:
        rows = "".join(
            f'<tr><td>Token {n}</td><td><a class="delete-token" role="button" '
            f'href="/settings/tokens/{n}/delete" @click.prevent="askFirst({n})">x</a></td></tr>'
            for n in sorted(self.tokens)
        )
        html = (
            "<!doctype html><html><head><title>Settings</title></head><body><main>"
            '<form method="post" action="/settings/password"><label for="p">New password</label>'
            '<input id="p" name="password" type="password"><button type="submit">Change</button></form>'
            f"<table><tbody>{rows}</tbody></table></main></body></html>"
        )
        url = ORIGIN + "/settings"
        return FetchedPage(url, route_of(url), 200, {}, "text/html", html, 1.0, redirects=redirects or [])

    def __call__(self, url: str) -> FetchedPage:
        if url.endswith("/delete"):
            if self.deletes:
                self.tokens.discard(int(url.rsplit("/", 2)[1]))
            return self.settings(redirects=[url])
        return self.settings()


def judged(deletes: bool) -> list[tuple[str, bool]]:
    site = Site(deletes)
    found = ORACLES["unconfirmed_destructive"](site.settings(), site, OracleConfig(allow_destructive=True))
    return [(f.route, f.suspected) for f in found]


def test_a_token_deleted_by_its_get_link_is_confirmed_on_a_page_with_a_password_field():
    assert ("/settings/tokens/1/delete", False) in judged(deletes=True)


def test_a_get_link_that_deletes_nothing_is_not_confirmed():
    assert all(suspected for _, suspected in judged(deletes=False))
