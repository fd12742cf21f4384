"""A single-page app's list page holds two kinds of script control: its pager ("Go to next page", six
pages) and a menu button ("⋮") in every row, whose menu's "Delete item" sends its write at once. By
the page's route alone every click state of the list was one template: the pager's states sampled it,
and the rows' menus waited behind every other page type's states, never opened in a short budget.
A click state is now of the template of its kind of control (`Templates.control_of`: the selector's
shape), so the menu is opened, and its Delete judged, before the other pages' second states."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bughunt.explorer.templates import CONTROL_TEMPLATE, TemplateIndex
from tests.support.engines import explored_in_browser
from tests.support.loopback import script_shell

pytestmark_browser = pytest.mark.skipif(
    shutil.which("chromium") is None, reason="Debian's chromium is not installed"
)

PAGES = "abcdefgh"

APP_JS = """
const app = document.getElementById('app');
const PAGES = '%s'.split('');
const nav = '<nav>' + ['items', ...PAGES].map(p => '<a href="#/' + p + '/">' + p + '</a>').join(' ') + '</nav>';
const remove = i => fetch('/api/items/' + i, {method: 'DELETE'}).catch(() => {});
const button = (label, enabled) => '<button type="button" class="ghost"' + (enabled ? '' : ' disabled')
  + '><span class="sr-only">' + label + '</span><svg class="icon"></svg></button>';
const list = page => {
  const rows = [1, 2, 3].map(k => (page - 1) * 3 + k);
  app.innerHTML = nav + '<h1>Items</h1><table><tbody>' + rows.map(i => '<tr><td>Item ' + i
    + '</td><td><button type="button" aria-haspopup="menu">⋮</button></td></tr>').join('')
    + '</tbody></table><div class="bar"><span>Page ' + page + ' of 6</span><div class="row">'
    + button('Go to previous page', page > 1) + button('Go to next page', page < 6) + '</div></div>'
    + '<div id="layer"></div>';
  const layer = document.getElementById('layer');
  app.querySelectorAll('tbody button').forEach((b, n) => b.addEventListener('click', () => {
    layer.innerHTML = '<div role="menu"><div role="menuitem" tabindex="-1">Delete item</div></div>';
    layer.querySelector('[role=menuitem]').addEventListener('click', () => remove(rows[n]));
  }));
  const [previous, next] = app.querySelectorAll('.bar button');
  previous.addEventListener('click', () => list(page - 1));
  next.addEventListener('click', () => list(page + 1));
};
// every other page type (a markup of its own) has a control that shows words of its page
const BOXES = ['section', 'article', 'aside', 'header', 'footer', 'main', 'figure', 'details'];
const other = p => {
  const box = BOXES[PAGES.indexOf(p)];
  app.innerHTML = nav + '<' + box + '><h2>Page ' + p + '</h2><button type="button" class="more">More about ' + p
    + '</button><p id="more"></p></' + box + '>';
  app.querySelector('.more').addEventListener('click', () => {
    document.getElementById('more').textContent = 'Details of ' + p + ' ' + p + p;
  });
};
const route = () => {
  const p = location.hash.replace(/^#\\/?/, '').replace(/\\/$/, '');
  if (p === 'items') list(1); else if (PAGES.includes(p)) other(p); else app.innerHTML = nav + '<h1>Home</h1>';
};
window.addEventListener('hashchange', route);
route();
"""


_Spa = script_shell(APP_JS % PAGES, api=True)


@pytestmark_browser
def test_a_rows_menu_is_opened_before_the_other_pages_second_states(tmp_path: Path) -> None:
    with explored_in_browser(_Spa, tmp_path / "s", 20) as (store, _engine):
        found = [b for b in store.bug_table.live() if b.kind == "unconfirmed_destructive"]
        routes = [s.route for s in store.history.steps()]
    assert [b.route for b in found] == ["/#/items/"], routes
    assert _Spa.writes == []  # the Delete was clicked with its write refused


def test_a_click_state_is_of_its_kind_of_controls_template() -> None:
    clicks = {
        "/#/a/#click-1": ("/#/a/", "#app > table > tbody > tr:nth-of-type(1) > td > button"),
        "/#/a/#click-2": ("/#/a/", "#app > div.bar > button"),
        "/#/b/#click-3": ("/#/b/", "#app > table > tbody > tr:nth-of-type(4) > td > button"),
    }
    index = TemplateIndex()
    hashes = {"/#/a/": "h1", "/#/b/": "h1", "/#/a/#click-1": "h2"}
    template_of = index.update(hashes, {}, (), None, clicks.get)
    rows, pager, other_rows = (template_of(r) for r in clicks)
    assert rows == other_rows == CONTROL_TEMPLATE + "#app > table > tbody > tr > td > button"
    assert pager != rows
    # a click state the link table does not know yet keeps its page's shape, and is asked again
    assert not template_of("/#/c/#click-9").startswith(CONTROL_TEMPLATE)
    assert "/#/c/#click-9" not in template_of._memo
    # loaded states are counted under their kind
    assert CONTROL_TEMPLATE + "#app > table > tbody > tr > td > button" in index.loaded
