"""A link that carries the page's CSRF token in its query (`?show_details=1&csrf_token=<fresh>`) is the
same link on every load though its token is new each time: a list's "show details" / "hide details"
toggle, re-drawn with a fresh token after each click, was taken again and again (a project tool's
task list: 18 of 100 clicks flipping one switch). The planner reads a seen page's address with its
token masked: the toggle is seen once each way, then the site's other pages come first."""

from __future__ import annotations

import secrets
from collections import Counter
from pathlib import Path

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.http_engine import HttpEngine
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.store.rows import Step
from bughunt.explorer.summary import repeat_clicks
from bughunt.sim.planner import first_page_alias
from bughunt.sim.route_keys import PageKey, page_key
from tests.support.loopback import QuietHandler, serving

ITEMS = 12


class _Site(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802
        path, _, query = self.path.partition("?")
        token = secrets.token_hex(32)
        if path == "/robots.txt":
            self.reply(404, "", "text/plain")
            return
        if path == "/list":
            shown = "show_details=1" in query
            switch = "hide_details=1" if shown else "show_details=1"
            rows = "".join(f'<li><a href="/item/{n}">Item {n}</a></li>' for n in range(1, ITEMS + 1))
            body = (
                f'<h1>Items</h1><a href="/list?action=show&{switch}&csrf_token={token}">toggle details</a>'
                f'<ul class="items">{rows}</ul>'
            )
        elif path.startswith("/item/"):
            n = path.rsplit("/", 1)[1]
            body = f'<h1>Item {n}</h1><p>About item {n}.</p><a href="/list">Back to the list</a>'
        elif path == "/":
            body = '<h1>Home</h1><a href="/list">Items</a>'
        else:
            self.reply(404, "<h1>Not found</h1>")
            return
        self.reply(200, f"<html><head><title>{path}</title></head><body>{body}</body></html>")


def test_a_link_seen_with_another_token_is_a_page_seen() -> None:
    assert first_page_alias(
        "/list?action=show&show_details=1&csrf_token=bbb",
        [],
        ["/list?action=show&show_details=1&csrf_token=aaa"],
    )
    assert not first_page_alias(
        "/list?action=show&show_details=1&id=2", [], ["/list?action=show&show_details=1&id=1"]
    )


def test_a_toggle_redrawn_with_a_fresh_token_is_not_flipped_again_and_again(tmp_path: Path) -> None:
    with serving(_Site) as url:
        store = ExplorerStore(tmp_path / "s")
        try:
            with make_policy("planner", store=store) as policy:
                engine = HttpEngine(url + "/", respect_robots=False)
                Explorer(store, engine, policy, SessionConfig(budget=ITEMS + 3)).run()  # type: ignore[arg-type]
            steps = store.history.steps()
        finally:
            store.close()
    toggles = Counter(
        "show" if "show_details" in s.route else "hide" for s in steps if "details=1" in s.route
    )
    items = {s.route for s in steps if s.route.startswith("/item/")}
    assert max(toggles.values(), default=0) <= 1, toggles
    assert len(items) == ITEMS, sorted(items)


def _session(url: str, store_dir: Path, budget: int, policy: str = "planner", **config: object) -> list[Step]:
    store = ExplorerStore(store_dir)
    try:
        with make_policy(policy, store=store) as chosen:
            engine = HttpEngine(url + "/", respect_robots=False)
            Explorer(store, engine, chosen, SessionConfig(budget=budget, **config)).run()  # type: ignore[arg-type]
        return list(store.history.steps())
    finally:
        store.close()


def test_the_retest_walk_does_not_take_a_toggle_seen_with_another_token(tmp_path: Path) -> None:
    """`resume --retest`: every remembered page is due and the walk goes to the nearest page it does not
    know. A toggle re-drawn with a fresh token read as unknown on every load of the list, so the walk
    flipped it again and again instead of re-testing the items."""
    with serving(_Site) as url:
        first = _session(url, tmp_path / "s", ITEMS + 4)
        steps = _session(url, tmp_path / "s", 2 * ITEMS + 4, force_retest=True)[len(first) :]
    walk = [s.route for s in steps if s.retest]
    assert walk, [s.route for s in steps]
    toggles = Counter(page_key(r) for r in walk if "details=1" in r)
    assert max(toggles.values(), default=0) <= 1, walk  # each toggle's page re-tested once at most
    assert len({r for r in walk if r.startswith("/item/")}) == ITEMS, walk


class _Switch(QuietHandler):
    """A switch page whose one link flips what it shows, re-drawn with a fresh token: any walk flips it again.
    Its action key names a view (`action=show`): a token-guarded GET that names none is a write the walk never
    sends (`guarded_gets`)."""

    def do_GET(self) -> None:  # noqa: N802
        path, _, query = self.path.partition("?")
        on = "on=1" in query
        link = (
            f'<a href="/switch?action=show&on={0 if on else 1}&csrf_token={secrets.token_hex(32)}">switch</a>'
        )
        if path not in ("/", "/switch"):
            self.reply(404, "<h1>Not found</h1>")
            return
        detail = "<ul><li>one</li><li>two</li></ul>" if on else "<p>Details hidden.</p>"
        self.reply(200, f"<html><head><title>switch</title></head><body>{link}{detail}</body></html>")


def test_a_toggle_seen_with_another_token_is_a_repeat(tmp_path: Path) -> None:
    """Flipping the switch again lands on a page already seen: the step is a repeat and the summary's
    repeat clicks count it, though its address is new each time."""
    with serving(_Switch) as url:
        steps = _session(url, tmp_path / "s", 6, policy="random")
        store = ExplorerStore(tmp_path / "s")
        try:
            repeats = repeat_clicks(store)
        finally:
            store.close()
    seen: set[PageKey] = set()
    again = []
    for s in steps:
        if page_key(s.route) in seen:
            again.append(s)
        seen.add(page_key(s.route))
    assert len(again) >= 3, [s.route for s in steps]
    assert all(s.repeat for s in again), [(s.route, s.repeat) for s in again]
    assert repeats >= len(again)
