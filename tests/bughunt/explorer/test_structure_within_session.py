"""A page drawn otherwise on its next load within one session is the app's state, not an upgrade: a
list's "Next" draws page 2 in place and pushes its address, `/list/2` as the server draws it with
another pager; reached again that way it puts nothing due. Taken for an upgrade, every page of
the list's template was due, and the rest of the walk went round the hub pages toward them (31 of 38
repeat clicks of a DataTables admin at 100 clicks). Between sessions a changed page still makes its
mates due (`test_sessions_trust`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.engines import explored_in_browser
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

LIST_JS = """
const panel = () => { document.getElementById('panel').innerHTML =
  '<form><input name="q"><select name="f"><option>title</option></select></form>'; };
if (localStorage.getItem('panel')) { panel(); }
document.getElementById('search').addEventListener('click', () => { localStorage.setItem('panel', '1'); panel(); });
const next = document.getElementById('next');
if (next) {
  next.addEventListener('click', () => {
    // the next page drawn in place, its address pushed: the same route as the server's page 2,
    // drawn with the script's own pager
    history.pushState({}, '', '/list/2');
    document.querySelector('ul').innerHTML = '<li><a href="/item/4">Item 4</a></li><li><a href="/item/5">Item 5</a></li>';
    document.getElementById('panel').innerHTML = '<p><button type="button">Previous</button> page 2 of 2</p>';
  });
}
for (const b of document.querySelectorAll('.sort')) {
  b.addEventListener('click', () => { document.getElementById('order').textContent = 'by ' + b.textContent; });
}
"""


class _Site(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = self.path.split("?")[0]
        nav = '<nav><a href="/list/1">Page 1</a> <a href="/list/2">Page 2</a></nav>'
        if path == "/" or path.startswith("/list/"):
            page = int(path.rsplit("/", 1)[1]) if path != "/" else 1
            items = "".join(
                f'<li><a href="/item/{i}">Item {i}</a></li>' for i in range(page * 3 - 2, page * 3 + 1)
            )
            body = (
                f'{nav}<button type="button" id="search">Search</button>'
                + ('<button type="button" id="next">Next</button>' if page == 1 else "")
                + '<button type="button" class="sort">Title</button><button type="button" class="sort">Date</button>'
                f'<p id="order"></p><div id="panel"></div><ul>{items}</ul><script>{LIST_JS}</script>'
            )
        elif path.startswith("/item/"):
            body = f"{nav}<h1>Item {path.rsplit('/', 1)[1]}</h1>"
        else:
            return self.reply(404, "", "text/plain")
        self.reply(200, f"<html><head><title>Items</title></head><body>{body}</body></html>")


def test_a_page_drawn_otherwise_within_one_session_puts_nothing_due(tmp_path: Path) -> None:
    with explored_in_browser(_Site, tmp_path / "s", 16) as (store, _engine):
        steps = store.history.steps()
        routes = [s.route for s in steps]
        assert sum("#click-" in r for r in routes) >= 2, routes  # the list reloaded for its controls
        assert not [s.route for s in steps if s.retest], routes
        assert not store.visits.needs_retest()
