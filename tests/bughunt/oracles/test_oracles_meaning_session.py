"""The explorer lends the oracles what the meaning rules need, end to end on a small loopback site:
the pages linking to a form (`ExplorationGraph.linking_to`) for a settings page without an
identifier, and the open bugs a finding of the same root cause on a sibling route joins."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.graph import ExplorationGraph
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from tests.support.loopback import QuietHandler, serving

CRASH = "<html><body><h1>Internal Server Error</h1><pre>Traceback\nKeyError: 'avatar'</pre></body></html>"


def _site(bio_in_form: bool, settings_in_nav: bool) -> dict[str, tuple[int, str]]:
    # Without the menu link only the profile links the form (memory knows it by the time the form
    # is loaded); with it, the form may be loaded first, and its own menu leads to the profile.
    settings = '<li><a href="/settings">Settings</a></li>' if settings_in_nav else ""
    nav = f'<nav><ul><li><a href="/">Home</a></li>{settings}<li><a href="/people/ann">Profile</a></li></ul></nav>'
    bio = "Gardener in Leeds." if bio_in_form else ""
    posts = "".join(
        f'<article class="post"><h2><a href="/post/{n}">Post {n}</a></h2></article>' for n in (1, 2)
    )
    return {
        "/": (200, f"<html><body>{nav}<main>{posts}<a href='/people/ann'>Ann</a></main></body></html>"),
        # Each post links its author; the two authors' pages fail alike: one root cause.
        "/post/1": (200, f"<html><body>{nav}<p>by <a href='/user/john'>john</a></p></body></html>"),
        "/post/2": (200, f"<html><body>{nav}<p>by <a href='/user/susan'>susan</a></p></body></html>"),
        "/user/john": (500, CRASH),
        "/user/susan": (500, CRASH),
        "/people/ann": (
            200,
            f"<html><body>{nav}<h1>Ann Lee</h1><p class='bio'>Gardener in Leeds.</p>"
            "<a href='/settings'>Edit your profile</a></body></html>",
        ),
        "/settings": (
            200,
            f"<html><body>{nav}<form method='post'><input name='name' value='Ann Lee'>"
            f"<textarea name='bio'>{bio}</textarea><button>Save</button></form></body></html>",
        ),
    }


class _Site(QuietHandler):
    pages: dict[str, tuple[int, str]] = {}

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        status, body = type(self).pages.get(self.path, (404, "<html><body>no</body></html>"))
        self.reply(status, body)


@contextmanager
def _serving(pages: dict[str, tuple[int, str]]) -> Iterator[str]:
    with serving(type("Handler", (_Site,), {"pages": pages})) as url:
        yield url + "/"


def _explore(pages: dict[str, tuple[int, str]], store_dir: Path) -> ExplorerStore:
    store = ExplorerStore(store_dir)
    with _serving(pages) as url, make_policy("planner", store=store) as policy:
        fetcher = HttpEngine(url, timeout=2.0, respect_robots=False)
        Explorer(store, fetcher, policy, SessionConfig(budget=20, retries=0)).run()
    return store


@pytest.mark.parametrize("settings_in_nav", [False, True])
@pytest.mark.parametrize("bio_in_form", [False, True])
def test_settings_without_identifier_and_one_crash_on_two_sibling_routes(
    tmp_path: Path, bio_in_form: bool, settings_in_nav: bool
) -> None:
    store = _explore(_site(bio_in_form, settings_in_nav), tmp_path / "s")
    try:
        graph = ExplorationGraph(store)
        assert "/people/ann" in graph.linking_to("/settings")
        bugs = {(b.kind, b.route): b for b in graph.live_bugs()}
        forms = [b for b in bugs.values() if b.kind == "form_drops_value"]
        assert [b.route for b in forms] == ([] if bio_in_form else ["/settings"])
        crashes = [b for b in bugs.values() if b.kind == "server_error"]
        assert len(crashes) == 1, crashes  # /user/john and /user/susan: one root cause
        seen = {r for r, in store.db.execute("SELECT route FROM occurrences WHERE fingerprint = ?",
                                             (crashes[0].fingerprint,))}  # fmt: skip
        assert seen == {"/user/john", "/user/susan"}
    finally:
        store.close()
