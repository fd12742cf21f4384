"""A single-page editor of several schemas, as content-management editors draw one: a sidebar menu of
script links (`href="#"`), one per schema, that shows the schema's list under a heading with the
item's words and pushes its hash route (`#/people/1`); no item is marked current. Each list has a
script pager ("1", "2", "Next", the hash route's page) and each row two icon links with no text,
named by their `title` ("Edit", "Delete": an icon font's glyph, drawn here as a box); the Delete icon sends its DELETE at once.

- Clicking the menu's current item ("Blog Posts" over `<h2>Blog Posts</h2>`) changes nothing; that
  says nothing of "People", which must still be clicked — and the one-page blog list's pager (« 1 »
  with "Next" disabled: it pages nothing) says nothing of the people list's "2".
- The people rows' "View" links lead to server pages that link nowhere on (`/people/3`): each is
  opened as a link of the view the menu's click showed, not by reloading the start page per page.
- The Delete icon is a Delete (its `title`): its write sent at one click is `unconfirmed_destructive`,
  one bug however many schema views show the same row control.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.engines import explored_in_browser
from tests.support.loopback import script_shell

PERSON = "<html><head><title>person</title></head><body><h1>Person %s</h1>%s</body></html>"

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
const DATA = {
  blog: {title: 'Blog Posts', rows: ['Release notes one', 'Release notes two']},
  people: {title: 'People', rows: ['Ada Quist', 'Ben Marsh', 'Cyd Lowe', 'Dee Park']},
};
const PER = 2;
const app = document.getElementById('app');
function show() {
  const m = /^#\\/(\\w+)\\/(\\d+)$/.exec(location.hash);
  if (!m) { location.hash = '#/blog/1'; return; }
  const key = m[1], page = Number(m[2]), schema = DATA[key];
  const pages = Math.ceil(schema.rows.length / PER);
  const menu = Object.keys(DATA).map(k => '<li class="nav-item"><a href="#" class="nav-link" data-schema="'
    + k + '">' + DATA[k].title + '</a></li>').join('');
  const rows = schema.rows.slice((page - 1) * PER, page * PER).map((r, i) => '<tr><td>'
    + (key == 'people' ? '<a href="/people/' + ((page - 1) * PER + i + 1) + '" title="View">'
      + '<i class="icon" style="display:inline-block;width:12px;height:12px"></i></a> ' : '')
    + '<a href="#" class="edit-button" title="Edit"><i class="icon" style="display:inline-block;width:12px;height:12px"></i></a> '
    + '<a href="#" class="delete-button" title="Delete" data-row="' + i + '"><i class="icon" style="display:inline-block;width:12px;height:12px"></i></a>'
    + '</td><td>' + r + '</td></tr>').join('');
  let pager = '<nav><ul class="pagination">';
  for (let p = 1; p <= pages; p++) {
    pager += '<li class="page-item' + (p == page ? ' active' : '') + '"><a class="page-link" href="#" data-page="'
      + p + '">' + p + '</a></li>';
  }
  pager += '<li class="page-item' + (page >= pages ? ' disabled' : '') + '"><a class="page-link" href="#" '
    + 'data-page="' + (page + 1) + '">Next</a></li></ul></nav>';
  app.innerHTML = '<div class="sidebar"><ul id="schema-list" class="nav">' + menu + '</ul></div>'
    + '<main><h2>' + schema.title + '</h2><table><tbody>' + rows + '</tbody></table>' + pager
    + '</main>';
  for (const a of app.querySelectorAll('[data-schema]')) {
    a.addEventListener('click', e => { e.preventDefault(); location.hash = '#/' + a.dataset.schema + '/1'; });
  }
  for (const a of app.querySelectorAll('[data-page]')) {
    a.addEventListener('click', e => {
      e.preventDefault();
      if (Number(a.dataset.page) <= pages) { location.hash = '#/' + key + '/' + a.dataset.page; }
    });
  }
  for (const a of app.querySelectorAll('.edit-button')) {
    a.addEventListener('click', e => {
      e.preventDefault();
      a.closest('tr').insertAdjacentHTML('afterend', '<tr><td colspan="2"><form class="edit-form">'
        + '<label>Name <input name="name"></label><button>Save</button></form></td></tr>');
    });
  }
  for (const a of app.querySelectorAll('.delete-button')) {
    a.addEventListener('click', e => {
      e.preventDefault();
      fetch('/api/' + key + '/' + a.dataset.row, {method: 'DELETE'}).catch(() => {});
    });
  }
}
window.addEventListener('hashchange', show);
show();
"""


def test_an_editor_s_other_schemas_and_pages_are_explored_and_its_delete_icon_judged(tmp_path: Path) -> None:
    spa = script_shell(APP_JS, api=True)
    with explored_in_browser(spa, tmp_path / "s", 30) as (store, _engine):
        shown = {s.final_route or s.route for s in store.history.steps()}
        found = [b for b in store.bug_table.live() if b.kind == "unconfirmed_destructive"]
    assert "/#/people/1" in shown, sorted(shown)  # the menu's other item
    assert "/#/people/2" in shown, sorted(shown)  # the other list's second page
    assert len({b.fingerprint for b in found}) == 1, found
    assert spa.writes == []  # the write was refused in the browser


def test_a_view_s_links_to_pages_that_lead_nowhere_are_opened_without_reloading_the_start(
    tmp_path: Path,
) -> None:
    shell = script_shell(APP_JS, api=True)

    class Site(shell):  # type: ignore[misc,valid-type]
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            if self.path.startswith("/people/"):
                # a record's page links to its edit page, which links back: a dead end of two pages
                n = self.path.split("/")[2]
                there = (
                    f'<a href="/people/{n}">Back</a>'
                    if self.path.endswith("/edit")
                    else f'<a href="/people/{n}/edit">Edit</a>'
                )
                return self.reply(200, PERSON % (n, there))
            return super().do_GET()

    with explored_in_browser(Site, tmp_path / "s", 40) as (store, _engine):
        routes = [s.route for s in store.history.steps()]
    people = [r for r in routes if r.startswith("/people/")]
    assert len(people) == 8, routes
    assert routes.count("/") <= 2, routes  # the first load, and at most one trip back
