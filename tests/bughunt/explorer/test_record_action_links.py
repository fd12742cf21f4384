"""A file list whose rows carry GET links that act at once (`/files/3/unlink`, `?action=delete&file=x`):
without --allow-destructive the walk sends none of them and reports each control suspected; the session's
own account page at a fixed address (`/settings/delete-account`, a page that asks first on a site that
asks) is still walked, as the built-in site's page 21 needs. Before this the walk deleted every file it
was offered while `--json` said destructive actions were not opened."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from urllib.parse import parse_qsl, urlsplit

import pytest

from bughunt.explorer.http_engine import HttpEngine
from bughunt.oracles.destructive_words import account_page
from tests.support.loopback import QuietHandler, serving

FILES = ["notes.txt", "plan.md", "todo.txt", "draft.md"]


class Handler(QuietHandler):
    acted: list[str] = []
    asked_account: list[str] = []
    lock = threading.Lock()

    def do_GET(self) -> None:  # noqa: N802 — the http.server API
        parts = urlsplit(self.path)
        asked = dict(parse_qsl(parts.query))
        if parts.path.endswith("/unlink") or asked.get("action") == "delete":
            with self.lock:
                type(self).acted.append(self.path)
            self.reply(200, "<!doctype html><html><body><p>Deleted.</p><a href='/'>Files</a></body></html>")
            return
        if parts.path == "/":
            rows = "".join(
                f'<tr><td><a href="/files/{i}">{name}</a></td><td><a href="/files/{i}/unlink">Unlink</a>'
                f' <a href="/?action=delete&amp;file={name}">Delete</a></td></tr>'
                for i, name in enumerate(FILES, 1)
            )
            body = f'<h1>Files</h1><a href="/settings">Settings</a><table>{rows}</table>'
        elif (
            parts.path.startswith("/files/")
            and parts.path[7:].isdigit()
            and 0 < int(parts.path[7:]) <= len(FILES)
        ):
            body = f"<h1>{FILES[int(parts.path[7:]) - 1]}</h1><p>A file.</p><a href='/'>Files</a>"
        elif parts.path == "/settings":
            body = '<h1>Settings</h1><a href="/settings/delete-account">Delete account</a>'
        elif parts.path == "/settings/delete-account":
            with self.lock:
                type(self).asked_account.append(self.path)
            body = (
                '<h1>Delete your account?</h1><form method="post" action="/settings/delete-account">'
                "<button>Yes, delete my account</button></form>"
            )
        else:
            self.send_error(404)
            return
        self.reply(200, f"<!doctype html><html><head><title>Files</title></head><body>{body}</body></html>")


@pytest.fixture
def site() -> Iterator[str]:
    Handler.acted, Handler.asked_account = [], []
    with serving(Handler) as url:
        yield url + "/"


def test_an_account_page_at_a_fixed_address_is_told_from_a_records_action() -> None:
    assert account_page("http://h/settings/delete-account")
    assert account_page("http://h/account/close")
    assert not account_page("http://h/files/3/unlink")  # a record's action: no account word, a number
    assert not account_page("http://h/users/7/delete-account")  # names a record
    assert not account_page("http://h/account/delete?token=abc")  # a query: a signed action, not a page
    assert not account_page("http://h/settings")  # no action at all


def test_a_records_action_is_never_followable_without_the_flag() -> None:
    engine = HttpEngine("http://h/", respect_robots=False)
    assert not engine.followable("/files/3/unlink")
    assert not engine.followable("/?action=delete&file=notes.txt")
    assert engine.followable("/settings/delete-account")
    assert engine.followable("/files/3")


def test_the_walk_deletes_no_file_and_says_so(site, tmp_path, cli_json) -> None:
    data = cli_json(
        "explore",
        "--url",
        site,
        "--store",
        str(tmp_path / "s"),
        "--budget",
        "20",
        "--ignore-robots",
        "--json",
    )
    assert Handler.acted == [], Handler.acted  # not one row action reached the server
    assert Handler.asked_account, data["pages_visited"]  # the account page that asks was walked
    suspected = {
        b["route"] for b in data["bugs"] if b["kind"] == "unconfirmed_destructive" and b["suspected"]
    }
    assert suspected, data["bugs"]
    # the account page the walk followed is said, not hidden behind "not opened"
    assert data["destructive_walked"] == ["/settings/delete-account"]
    assert data["destructive_actions"].startswith("destructive actions were not opened")
    assert "/settings/delete-account" in data["destructive_actions"]
