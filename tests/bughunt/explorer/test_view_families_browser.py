"""A list sorted by a column header that writes the sort into the address (`#/books?sort=-year`) is the
same list shown another way: its headers are clicked once each, not again on every sorted view (each
one another address, whose headers sort to yet another). A pager's values and a link to another value
lead to pages of their own."""

from __future__ import annotations

import shutil

import pytest

from bughunt.explorer.view_families import other_view
from tests.support.engines import explored_in_browser
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
const COLUMNS = ['title', 'author', 'year', 'pages', 'shelf'];
const BOOKS = [['Atlas', 'Ann', 1990, 120, 'A'], ['Bridge', 'Bob', 2001, 300, 'B'], ['Copper', 'Cy', 1985, 90, 'C']];
function sortOf() { const m = location.hash.match(/sort=(-?\\w+)/); return m ? m[1] : '-title'; }
function draw() {
  const sort = sortOf(), key = sort.replace('-', ''), i = COLUMNS.indexOf(key);
  const rows = BOOKS.slice().sort((a, b) => (a[i] > b[i] ? 1 : -1) * (sort[0] === '-' ? -1 : 1));
  document.getElementById('app').innerHTML = '<main><h1>Books</h1><table><thead><tr>'
    + COLUMNS.map(c => '<th tabindex="0" data-col="' + c + '">' + c + '</th>').join('')
    + '</tr></thead><tbody>'
    + rows.map(r => '<tr>' + r.map(v => '<td>' + v + '</td>').join('') + '</tr>').join('')
    + '</tbody></table></main>';
  for (const th of document.querySelectorAll('th')) {
    th.addEventListener('click', () => {
      const col = th.dataset.col, next = sortOf() === '-' + col ? col : '-' + col;
      history.replaceState(null, '', '#/books?sort=' + next);
      draw();
    });
  }
}
if (!location.hash) { history.replaceState(null, '', '#/books?sort=-title'); }
draw();
"""


class _Books(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/app.js":
            return self.reply(200, APP_JS, "application/javascript")
        if self.path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        self.reply(
            200,
            '<html><head><title>Books</title></head><body><div id="app"></div><script src="/app.js"></script></body></html>',
        )


def test_each_sortable_header_is_clicked_once_however_many_sorted_views(tmp_path) -> None:
    with explored_in_browser(_Books, tmp_path / "s", 20) as (store, _engine):
        views_of: dict[str, set[str]] = {}  # a header's column → the views it was clicked on
        for step in store.history.steps():
            click = store.link_table.click_of(step.route)
            if click is not None and " th" in click[1]:
                views_of.setdefault(click[1].rsplit(" th", 1)[1], set()).add(click[0])
        assert len(views_of) == 5 and all(len(v) == 1 for v in views_of.values()), views_of


@pytest.mark.parametrize(
    ("page", "landed", "view"),
    [
        ("/#/books?sort=-title", "/#/books?sort=-year", True),
        ("/list?kind=a&sort=name", "/list?kind=a&sort=-name", False),  # a navigation: `idle_controls`' toggle
        ("/#/books?sort=-title", "/#/books?sort=-title&recordId=x1", False),  # a record's panel: a new name
        ("/#/books?page=1", "/#/books?page=2", False),  # a pager's page
        ("/#/books?offset=0", "/#/books?offset=20", False),
        ("/#/books?sort=-title", "/#/authors?sort=-title", False),  # another page
        ("/#/books?sort=-title", "/#/books?sort=-title", False),
    ],
)
def test_other_view(page: str, landed: str, view: bool) -> None:
    assert other_view(page, landed) is view
