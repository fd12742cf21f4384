"""A hash-routed admin (a script draws `#/`, `#/add` and `#/groups` into one document): its root route
`#/` is the document with no hash (one page, not two whose every control is clicked on each), and a
button inside a link (`<a href="#/add"><button>Add</button></a>`, a router's Link around a styled
button) is that link, followed once as a link — not clicked besides, to reach the same page again."""

from __future__ import annotations

import shutil

import pytest

from bughunt.explorer.graph import ExplorationGraph
from bughunt.explorer.summary import repeat_clicks
from bughunt.urls import route_of
from tests.support.engines import explored_in_browser
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

ROUTER = """
const views = {
  '/': '<h2>Users</h2><p><a href="#/add"><button type="button">Add users</button></a> '
     + '<a href="#/groups"><button type="button">Groups</button></a></p>'
     + '<table><tr><td>ann</td></tr><tr><td>bob</td></tr></table>',
  '/add': '<h2>Add users</h2><textarea></textarea><a href="#/"><button type="button">Back</button></a>',
  '/groups': '<h2>Groups</h2><ul><li>red</li><li>blue</li></ul><a href="#/">Back to users</a>',
};
function draw() {
  const route = location.hash.replace(/^#/, '') || '/';
  document.getElementById('app').innerHTML = views[route] || '<h2>Not found</h2>';
}
window.addEventListener('hashchange', draw);
draw();
"""


class _Admin(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path != "/":
            return self.reply(404, "<html><body>no</body></html>")
        body = f'<h1>Admin</h1><div id="app"></div><script>{ROUTER}</script>'
        self.reply(200, f"<html><head><title>Admin</title></head><body>{body}</body></html>")


def test_the_root_hash_route_is_the_document_itself() -> None:
    assert route_of("http://x.test/admin#/", hash_routes=True) == "/admin"
    assert route_of("http://x.test/admin#!/", hash_routes=True) == "/admin"
    assert route_of("http://x.test/admin#/?offset=20", hash_routes=True) == "/admin#/?offset=20"
    assert route_of("http://x.test/admin#/add", hash_routes=True) == "/admin#/add"


def test_a_button_inside_a_link_is_the_link_and_the_root_route_one_page(tmp_path) -> None:
    with explored_in_browser(_Admin, tmp_path / "s", 12) as (store, _engine):
        graph = ExplorationGraph(store)
        routes = [s.route for s in store.history.steps()]
        clicks = [graph.click_of(r) for r in routes if "#click-" in r]
        assert not [c for c in clicks if c is not None and c[1].endswith("button")], clicks
        assert {"/", "/#/add", "/#/groups"} <= set(graph.visited()), graph.visited()
        assert "/#/" not in graph.visited() and "/#/" not in routes, routes
        assert repeat_clicks(store) == 0
