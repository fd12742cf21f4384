"""Clicks that learn in the browser engine, on a small script-driven shop served on loopback: a
dropdown and a collapse repeated on every page are clicked once each; a pager whose API answers 500
on page 2 is a server error of the API route tied to the click; a list rendered after a click goes
through the count oracle like any page."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator

import pytest

from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_engine, make_policy
from bughunt.explorer.graph import ExplorationGraph
from bughunt.explorer.idle_controls import control_shape
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from bughunt.explorer.summary import ExplorationSummary
from tests.support.loopback import QuietHandler, serving

pytestmark = [
    pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed"),
    pytest.mark.slow,
]

NAV = (
    """<nav><button type="button" class="dropdown-toggle" aria-expanded="false" onclick="this.setAttribute("""
    """'aria-expanded', this.nextElementSibling.classList.toggle('open'))">Shop</button><ul class="menu">"""
    """<li><a href="/shoes">Shoes</a></li><li><a href="/hats">Hats</a></li><li><a href="/orders">Orders"""
    """</a></li></ul></nav><button type="button" class="collapse-toggle" onclick="document."""
    """getElementById('help').classList.toggle('show')">Help</button><div id="help" class="collapse">"""
    """<p>Call us</p></div>"""
)
ORDERS_JS = """
const list = document.getElementById('orders');
function show(page) {
  fetch('/api/orders?page=' + page).then(r => r.json()).then(rows => {
    list.innerHTML = rows.map(r => '<li class="order"><p>Order ' + r + '</p></li>').join('');
  }).catch(e => console.error('orders failed'));
}
document.getElementById('next').addEventListener('click', () => show(2));
document.getElementById('all').addEventListener('click', () => {
  document.getElementById('count').textContent = 'Orders (5)';
  document.querySelector('.pager').remove();  // every order shown: no other page (a pager would say the list is not complete)
  list.innerHTML = [1, 2, 3, 4].map(n => '<li class="order"><p>Order ' + n + '</p></li>').join('');
});
show(1);
"""


class _Shop(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = self.path
        if path == "/api/orders?page=1":
            return self.reply(200, json.dumps([1, 2]), "application/json")
        if path.startswith("/api/orders"):
            return self.reply(500, '{"error": "offset"}', "application/json")
        if path == "/orders.js":
            return self.reply(200, ORDERS_JS, "application/javascript")
        bodies = {
            "/": "<h1>Shop</h1><p>Welcome to the shop, pick a department.</p>",
            "/shoes": "<h1>Shoes</h1><p>Boots and sandals for every season.</p>",
            "/hats": "<h1>Hats</h1><p>Caps and hats in all sizes.</p>",
            "/orders": '<h1>Your orders</h1><h2 id="count">Orders (2)</h2><ul id="orders"></ul>'
            '<div class="pager"><a href="javascript:" id="next">Next</a></div>'
            '<button type="button" id="all">Show all</button><script src="/orders.js"></script>',
        }
        if path not in bodies:
            return self.reply(404, "<html><body>no</body></html>")
        self.reply(200, f"<html><head><title>Shop</title></head><body>{NAV}{bodies[path]}</body></html>")


@pytest.fixture(scope="module")
def shop() -> Iterator[str]:
    with serving(_Shop) as url:
        yield url + "/"


def test_repeated_in_place_controls_are_clicked_once_and_a_pagers_api_500_is_the_clicks(shop, tmp_path):
    store = ExplorerStore(tmp_path / "s")
    engine, _ = make_engine("browser", shop, timeout=10, respect_robots=False)
    try:
        with make_policy("planner", store=store) as policy:
            Explorer(store, engine, policy, SessionConfig(budget=30, retries=0)).run()
        steps = store.history.steps()
        graph = ExplorationGraph(store)
        learned = graph.idle_controls()
        # The dropdown and the collapse (each the same element on every page, but for its position).
        assert learned == {
            "click html > body > nav > button": "same_state",
            "click html > body > button": "same_state",
        }
        clicked = [graph.click_of(s.route) for s in steps if "#click-" in s.route]
        shapes = [re.sub(r":nth-of-type\(\d+\)", "", c[1]) for c in clicked if c is not None]
        # Four pages carry both controls: each was clicked once, not once per page.
        assert shapes.count("html > body > nav > button") == 1, shapes
        assert shapes.count("html > body > button") == 1, shapes
        bugs = {(b.kind, b.route): b for b in store.bug_table.live()}
        assert ("server_error", "/api/orders?page=2") in bugs, list(bugs)
        evidence = json.loads(bugs["server_error", "/api/orders?page=2"].evidence)
        assert evidence["request"] == "GET /api/orders?page=2"
        # The list the "Show all" click rendered holds four orders under a count of five.
        assert ("count_mismatch", "/orders") in bugs, list(bugs)
        summary = ExplorationSummary.of(store)
        assert summary.stop_reason == "done" and summary.repeat_clicks <= 2, summary.lines()
    finally:
        engine.close()
        store.close()


# Chrome every page carries: a menu whose items are built when it opens (the same items everywhere),
# a flash message's close button inside a collapsed container (hidden), and a table whose rows have
# record ids, each row with a button that changes nothing; an HTMX-style template link beside them.
CHROME = (
    """<nav><a href="#" role="button" id="menu" onclick="if (!document.getElementById('items')) """
    """this.insertAdjacentHTML('afterend', '<ul id=items><li><a href=/account>Account</a></li>"""
    """<li><a href=/password>Password</a></li></ul>'); return false;">Me</a></nav>"""
    """<div style="display: none"><div role="alert"><button type="button" class="close">x</button></div></div>"""
)


def _rows(page: str) -> str:
    rows = "".join(
        f'<tr id="tr-{page}{n}"><td>Row {n}</td><td><button type="button" onclick="void 0">Copy</button>'
        f'</td><td><button type="button" hx-get="/row/edit/{{id}}">Edit</button></td></tr>'
        for n in range(1, 4)
    )
    # A pager whose "Previous" is disabled on its first page; "Next" shows this list's second page.
    pager = (
        '<div id="pager"><button type="button" disabled>Previous</button><button type="button" '
        f"onclick=\"this.insertAdjacentHTML('afterend', '<a href=/list/{page}/2>Page 2</a>')\">Next</button></div>"
    )
    return f"<table><tbody>{rows}</tbody></table>{pager}"


# Links only a click shows (the items of a collapsed list), each a dead end but for the chrome.
SHOW_ALL = (
    """<button type="button" id="all" onclick="this.insertAdjacentHTML('afterend', '"""
    + "".join(f"<a href=/item/{n}>Item {n}</a> " for n in range(1, 5))
    + """')">Show all</button>"""
)


class _Chrome(QuietHandler):
    requests: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        type(self).requests.append(self.path)
        pages = {
            "/": "<h1>Home</h1><p>Start here.</p>" + SHOW_ALL,
            "/list/a": "<h1>List A</h1><p>The first list.</p>",
            "/list/b": "<h1>List B</h1><p>The second list.</p>",
            "/list/c": "<h1>List C</h1><p>The third list.</p>",
            "/list/a/2": "<h1>List A, page 2</h1><p>More of the first list.</p>",
            "/account": "<h1>Account</h1><p>Your account.</p>",
            "/password": "<h1>Password</h1><p>Change it.</p>",
        }
        pages.update({f"/item/{n}": f"<h1>Item {n}</h1><p>Item number {n}.</p>" for n in range(1, 5)})
        if self.path not in pages:
            return self.reply(404, "<html><body>no</body></html>")
        nav = '<p><a href="/">Home</a> <a href="/list/a">A</a> <a href="/list/b">B</a> <a href="/list/c">C</a></p>'
        rows = _rows(self.path.rsplit("/", 1)[-1]) if self.path.startswith("/list/") else ""
        self.reply(
            200,
            f"<html><head><title>T</title></head><body>{CHROME}{nav}{pages[self.path]}{rows}</body></html>",
        )


def test_menus_hidden_controls_and_record_rows_are_tried_once_per_shape_and_templates_never(tmp_path):
    with serving(_Chrome) as url:
        store = ExplorerStore(tmp_path / "s")
        engine, _ = make_engine("browser", url + "/", timeout=10, respect_robots=False)
        try:
            with make_policy("planner", store=store) as policy:
                result = Explorer(store, engine, policy, SessionConfig(budget=60, retries=0)).run()
            graph = ExplorationGraph(store)
            steps = store.history.steps()
            clicks = [(s, graph.click_of(s.route)) for s in steps if "#click-" in s.route]
            shapes = [control_shape(s.route, *c) for s, c in clicks if c is not None]
            learned = graph.idle_controls()
            # The menu shows the same two links on every page: opened on two pages, then known.
            menu = "click #menu"
            assert learned.get(menu) == "shown_before" and shapes.count(menu) == 2, shapes
            # The hidden close button is hidden when each page is read (`actions.HIDDEN_MARK`): never
            # offered, no click spent on it (a control hidden only later is learned `unclickable`,
            # below); the disabled "Previous" is never offered either.
            hidden = [s for s, c in clicks if c is not None and c[1].endswith("div > div > button")]
            assert hidden == [], [(s.route, c) for s, c in clicks]
            assert not any(c[1] == "#pager > button:nth-of-type(1)" for _, c in clicks if c is not None)
            # Each row's "Copy" button (ids `tr-a1`, `tr-b2`…): one shape, clicked once on one page.
            copy = "click #<id> > td:nth-of-type(2) > button"  # its column kept
            assert learned.get(copy) == "same_state" and shapes.count(copy) == 1, shapes
            assert not any("%7B" in r or "{" in r for r in _Chrome.requests), _Chrome.requests
            # "Next" beside the disabled "Previous" is clicked.
            assert any(c[1] == "#pager > button:nth-of-type(2)" for _, c in clicks if c is not None)
            # The items "Show all" shows are reached from the state it made: one click, not one per item.
            assert sum(1 for s in steps if graph.click_of(s.route) == ("/", "#all")) == 1
            items = {s.route for s in steps if s.route.startswith("/item/")}
            assert items == {f"/item/{n}" for n in range(1, 5)}, [s.route for s in steps]
            assert {"/account", "/password", "/list/c", "/list/a/2"} <= {
                s.route for s in steps if s.outcome == "page"
            }
            assert result.stop_reason == "done", result.detail
            assert ExplorationSummary.of(store).repeat_clicks <= 2
        finally:
            engine.close()
            store.close()


# Shown on the first load of the page, hidden on every later one (the explorer reloads a page before
# it clicks a control there): offered, then found hidden when the click is due.
SHY = """<button type="button" id="shy" onclick="document.getElementById('out').textContent = 'clicked'">
More</button><p id="out"></p><script>
if (sessionStorage.getItem('seen')) document.getElementById('shy').style.display = 'none';
sessionStorage.setItem('seen', '1');
</script>"""


class _Shy(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        bodies = {
            "/": f'<h1>Home</h1><p>Welcome.</p><a href="/a">A</a> <a href="/b">B</a>{SHY}',
            "/a": '<h1>A</h1><p>Page A.</p><a href="/">Home</a>',
            "/b": '<h1>B</h1><p>Page B.</p><a href="/">Home</a>',
        }
        if self.path not in bodies:
            return self.reply(404, "<html><body>no</body></html>")
        self.reply(200, f"<html><head><title>T</title></head><body>{bodies[self.path]}</body></html>")


def test_a_control_that_cannot_be_clicked_is_a_failed_click_not_an_http_error_and_tried_once(tmp_path):
    with serving(_Shy) as url:
        store = ExplorerStore(tmp_path / "s")
        engine, _ = make_engine("browser", url + "/", timeout=10, respect_robots=False)
        try:
            with make_policy("planner", store=store) as policy:
                result = Explorer(store, engine, policy, SessionConfig(budget=12, retries=0)).run()
            steps = store.history.steps()
            tried = [s for s in steps if "#click-" in s.route]
            assert len(tried) == 1, [(s.route, s.outcome, s.detail) for s in steps]
            assert (tried[0].outcome, tried[0].status, tried[0].detail) == ("blocked", None, "click_failed")
            # One failure, on one page, teaches nothing for other pages (it may be that page's).
            assert ExplorationGraph(store).idle_controls() == {}
            assert result.stop_reason == "done", result.detail
            assert {s.route for s in steps if s.outcome == "page"} >= {"/", "/a", "/b"}
            assert not store.bug_table.live()
        finally:
            engine.close()
            store.close()
