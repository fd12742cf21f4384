"""The oracles reuse pages the session already loaded (issue 28): no second request for a page the walk
just loaded, while nothing can have changed it — a write, a login or another app version forgets them."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Iterator

import pytest

from bughunt.cli import main
from bughunt.explorer.http_engine import REUSED_PAGES, HttpEngine
from tests.support.loopback import QuietHandler, serving

ASKED: Counter[str] = Counter()
_LOCK = threading.Lock()


# A list of two pages whose second repeats the last item of the first: the pagination oracle compares page 2
# with page 1, which the walk loaded a step before.
def _items(first: int) -> str:
    return "".join(
        f'<li class="item"><a href="/post/{i}">Post number {i}</a> by someone</li>'
        for i in range(first, first + 5)
    )


PAGES = {
    "/": '<h1>Home</h1><a href="/list">All posts</a>',
    "/list": f'<h1>Posts</h1><ul class="items">{_items(1)}</ul><nav class="pagination"><a href="/list?page=2">2</a></nav>',
    "/list?page=2": (
        f'<h1>Posts</h1><ul class="items">{_items(5)}</ul>'
        '<nav class="pagination"><a rel="prev" href="/list">1</a></nav>'
    ),
}


class Handler(QuietHandler):
    def _answer(self) -> None:
        with _LOCK:
            ASKED[f"{self.command} {self.path}"] += 1
        path = self.path
        if path.startswith("/post/") or path.startswith("/n/"):
            self.reply(200, f"<!doctype html><html><body><h1>{path}</h1><a href='/'>Home</a></body></html>")
            return
        body = PAGES.get(path)
        if body is None:
            self.send_error(404)
            return
        self.reply(200, f"<!doctype html><html><body>{body}</body></html>")

    def do_GET(self) -> None:  # noqa: N802 — the http.server API
        self._answer()

    def do_POST(self) -> None:  # noqa: N802
        self._answer()


@pytest.fixture
def site() -> Iterator[str]:
    ASKED.clear()
    with serving(Handler) as url:
        yield url


def test_a_loaded_page_is_reused_until_a_write_a_login_or_another_version(site):
    engine = HttpEngine(site + "/", respect_robots=False)
    assert engine.reuse_page(site + "/", "1.0") is None  # nothing loaded yet
    step = engine.fetch("/list")
    assert step.page is not None
    assert engine.reuse_page(site + "/list", "1.0") is step.page
    assert ASKED["GET /list"] == 1  # reusing asked nothing
    assert engine.pages_reused == 1
    assert engine.reuse_page(site + "/list", "1.1") is None  # another app version: stale
    engine.fetch("/list")
    assert engine.reuse_page(site + "/list", "1.1") is not None
    engine.request(site + "/list", method="POST", data={"a": "b"})  # a write
    assert engine.reuse_page(site + "/list", "1.1") is None
    assert engine.reuse_page("http://elsewhere.example/list", "1.1") is None


def test_reused_pages_are_bounded(site):
    engine = HttpEngine(site + "/", respect_robots=False)
    engine.reuse_page(site + "/", None)
    for i in range(REUSED_PAGES + 1):
        engine.fetch(f"/n/{i}")
    assert engine.reuse_page(site + "/n/0", None) is None  # the oldest went first
    assert engine.reuse_page(site + "/n/1", None) is not None
    assert engine.reuse_page(site + f"/n/{REUSED_PAGES}", None) is not None


def _explore(site: str, tmp_path, capsys, *extra: str) -> dict[str, object]:
    argv = [
        "explore",
        "--url",
        site + "/",
        "--store",
        str(tmp_path / "s"),
        "--budget",
        "4",
        "--ignore-robots",
    ]
    assert main([*argv, "--policy", "frontier", "--json", *extra]) in (0, 3)
    result: dict[str, object] = json.loads(capsys.readouterr().out)
    return result


def test_the_oracles_compare_with_the_page_the_walk_loaded_without_asking_again(site, tmp_path, capsys):
    data = _explore(site, tmp_path, capsys)
    assert "/list?page=2" in data["pages_visited"]  # type: ignore[operator]
    assert [(b["route"], b["kind"]) for b in data["bugs"]] == [("/list?page=2", "duplicate_pagination")]  # type: ignore[attr-defined]
    assert ASKED["GET /list"] == 1


def test_with_allow_destructive_the_walk_still_reuses_pages_it_writes_nothing(site, tmp_path, capsys):
    # Destructive actions are opened after the walk (`Explorer._open_deferred`, whose fetches are
    # fresh): during the walk nothing is written, so a page loaded is what the site still answers.
    data = _explore(site, tmp_path, capsys, "--allow-destructive")
    assert [(b["route"], b["kind"]) for b in data["bugs"]] == [("/list?page=2", "duplicate_pagination")]  # type: ignore[attr-defined]
    assert ASKED["GET /list"] == 1


def test_a_page_loaded_again_unchanged_is_not_read_again(site):
    # The same URL, media type and body: the tree and every reading kept with it are the earlier
    # page's (each is a function of those alone); a changed body is read afresh.
    from bughunt.actions import page_actions

    engine = HttpEngine(site + "/", respect_robots=False)
    first = engine.fetch("/list").page
    assert first is not None
    walked = page_actions(first)
    digest = first.structure_hash
    again = engine.fetch("/list").page
    assert again is not None and again is not first
    assert again.document is first.document and page_actions(again) is walked
    assert again.structure_hash == digest and again.visible_text == first.visible_text
    other = engine.fetch("/list?page=2").page
    assert other is not None and other.document is not first.document


def test_only_the_same_response_shares_its_readings():
    from dataclasses import replace

    from bughunt.page import FetchedPage

    page = FetchedPage("http://h/a", "/a", 200, {}, "text/html", "<p>one</p>", 1.0)
    tree = page.document
    same = replace(page, elapsed_ms=2.0, headers={"x": "y"})
    assert same.share_readings(page) and same.document is tree
    for changed in (
        replace(page, body="<p>two</p>"),
        replace(page, url="http://h/b"),
        replace(page, content_type="text/plain"),
        replace(page, clicked_from=(page, "More")),
    ):
        assert not changed.share_readings(page)
        assert changed.document is not tree
