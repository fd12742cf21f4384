"""A link followed sends the page it was on as `Referer`, as a browser's click does; a load typed in
(the start page, an oracle's look) sends none, and a page's referrer policy is honoured
(`bughunt.explorer.referrer`)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.referrer import policy, referer
from bughunt.explorer.store import ExplorerStore
from bughunt.page import FetchedPage
from bughunt.urls import route_of
from tests.support.loopback import QuietHandler, serving

_PAGES = {
    "/": '<h1>Files</h1><a href="/files/a">Report A</a> <a href="/private">Private area</a>',
    "/files/a": '<h1>Report A</h1><a href="/files/a/delete">Delete this file</a> <a href="/">Files</a>',
    "/private": (
        '<head><meta name="referrer" content="no-referrer"></head><h1>Private</h1>'
        '<a href="/private/notes">Private notes</a>'
    ),
    "/private/notes": '<h1>Notes</h1><a href="/">Files</a>',
}


class _Site(QuietHandler):
    """Records each request's `Referer`; `/files/a/delete` deletes only for a request from the site's
    own pages (the way sites guard a GET that writes) and otherwise says it is read-only."""

    seen: dict[str, list[str | None]] = {}
    deleted: list[str] = []
    lock = threading.Lock()

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = self.path.split("?")[0]
        with self.lock:
            self.seen.setdefault(path, []).append(self.headers.get("Referer"))
        if path == "/files/a/delete":
            if (self.headers.get("Referer") or "").startswith(f"http://{self.headers.get('Host')}/"):
                self.deleted.extend((path, "/files/a"))
                return self.reply(200, "<html><body><h1>Deleted</h1><a href='/'>Files</a></body></html>")
            return self.reply(400, "<html><body><h1>Not authorized: read-only</h1></body></html>")
        body = None if path in self.deleted or (path == "/" and self.deleted) else _PAGES.get(path)
        if path == "/" and self.deleted:
            body = '<h1>Files</h1><p>No files.</p> <a href="/private">Private area</a>'
        if body is None:
            return self.reply(404, "<html><body>no</body></html>")
        return self.reply(200, f"<html><body>{body}</body></html>")


def _explored(tmp_path: Path, *, allow_destructive: bool) -> tuple[type[_Site], str, list[tuple[str, str]]]:
    """The site explored over HTTP for 6 clicks: its handler (what it saw), its URL, the bugs found."""
    handler = type("Site", (_Site,), {"seen": {}, "deleted": []})
    with serving(handler) as url:
        store = ExplorerStore(tmp_path / "s")
        try:
            engine = HttpEngine(url + "/", timeout=2.0, respect_robots=False)
            with make_policy("planner", store=store) as chosen:
                config = SessionConfig(budget=6, retries=0, allow_destructive=allow_destructive)
                Explorer(store, engine, chosen, config).run()
            kinds = [(bug.kind, bug.route) for bug in store.bug_table.all()]
        finally:
            store.close()
    return handler, url, kinds


def test_a_followed_link_sends_its_page_and_a_typed_load_sends_none(tmp_path: Path) -> None:
    handler, url, _ = _explored(tmp_path, allow_destructive=False)
    seen = handler.seen
    assert seen["/"][0] is None  # the start page is typed in
    assert seen["/files/a"][0] == url + "/"
    assert seen["/private"][0] == url + "/"
    assert "/private/notes" in seen
    assert seen["/private/notes"] == [None] * len(seen["/private/notes"])  # its page says no-referrer


def test_an_opened_delete_link_is_a_click_on_its_page(tmp_path: Path) -> None:
    """With `--allow-destructive` the oracles open the Delete link of the page they judge: the site deletes
    only for a request from its own pages, and the effect (the file gone) is the finding."""
    handler, url, kinds = _explored(tmp_path, allow_destructive=True)
    assert handler.seen["/files/a/delete"][0] == url + "/files/a"
    assert handler.deleted
    assert ("unconfirmed_destructive", "/files/a/delete") in kinds, kinds


def test_the_referer_the_click_sends_is_what_a_site_guarding_a_get_reads() -> None:
    handler = type("Site", (_Site,), {"seen": {}, "deleted": []})
    with serving(handler) as url:
        engine = HttpEngine(url + "/", timeout=2.0, respect_robots=False)
        typed = engine.fetch("/files/a/delete")
        clicked = engine.fetch("/files/a/delete", referer=url + "/files/a")
        elsewhere = engine.fetch("/files/a/delete", referer="http://evil.test/files/a")
    assert (typed.status, clicked.status, elsewhere.status) == (400, 200, 400)
    # another origin's address is never sent (the explorer's own origin only)
    assert handler.seen["/files/a/delete"] == [None, url + "/files/a", None]


def _page(head: str = "", headers: dict[str, str] | None = None) -> FetchedPage:
    html = f"<html><head>{head}</head><body><a href='/x'>x</a></body></html>"
    u = "http://app.test/list?page=2#top"
    return FetchedPage(u, route_of(u), 200, headers or {}, "text/html", html, 1.0)


@pytest.mark.parametrize(
    ("head", "headers", "sent"),
    [
        ("", None, "http://app.test/list?page=2"),  # the default: the address without its fragment
        ("", {"referrer-policy": "no-referrer"}, None),
        ("", {"referrer-policy": "unknown-word, origin"}, "http://app.test/"),
        ("", {"referrer-policy": "origin, bogus"}, "http://app.test/"),  # a word it does not know is skipped
        ('<meta name="referrer" content="never">', None, None),  # the legacy keyword
        (
            '<meta name="Referrer" content="strict-origin">',
            {"referrer-policy": "unsafe-url"},
            "http://app.test/",
        ),
        (
            '<meta name="referrer" content="same-origin">',
            {"referrer-policy": "no-referrer"},
            "http://app.test/list?page=2",
        ),
    ],
)
def test_the_pages_policy_decides_what_is_sent(
    head: str, headers: dict[str, str] | None, sent: str | None
) -> None:
    page = _page(head, headers)
    assert referer(page, page.url) == sent, policy(page)


def test_credentials_never_travel_in_a_referer() -> None:
    assert referer(None, "http://user:pw@app.test:8080/a?b=1#c") == "http://app.test:8080/a?b=1"


def test_an_ipv6_host_keeps_its_brackets_without_the_credentials() -> None:
    assert referer(None, "http://u:p@[::1]:8080/a#c") == "http://[::1]:8080/a"
    assert referer(None, "http://[::1]/a") == "http://[::1]/a"
