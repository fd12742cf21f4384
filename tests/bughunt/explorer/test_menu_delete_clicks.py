"""A row's menu in a single-page app (ARIA `menu` of `menuitem`s, rendered only once its button is
clicked) holds "Delete task". The explorer opens the menu, then clicks its Delete on that state (the
click replayed after the menu's): the engine refuses the write the click sends, and a Delete that sent
one at once, with no dialog asking first, is `unconfirmed_destructive` — whatever number of controls
comes before the menu's layer at the end of the document. A Delete that opens a dialog sends
nothing; the dialog's own button is the confirmation and is never judged."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bughunt.explorer.graph import ExplorationGraph
from tests.support.engines import explored_in_browser
from tests.support.loopback import script_shell

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
const app = document.getElementById('app');
const ASKS = %s;
const rows = [1, 2].map(i => '<tr><td>Task ' + i + '</td><td><button type="button" aria-haspopup="menu" '
  + 'id="menu-' + i + '">⋮</button></td></tr>').join('');
// a toolbar of more controls than a page offers (each a view switch), before the menu's layer at the end
const tools = 'abcdefghijklmn'.split('').map(c => '<button type="button" id="view-' + c + '">' + c + '</button>').join('');
app.innerHTML = '<h1>Tasks</h1><table><tbody>' + rows + '</tbody></table><div class="tools">' + tools + '</div>'
  + '<div id="layer"></div>';
const layer = document.getElementById('layer');
const remove = i => fetch('/api/tasks/' + i, {method: 'DELETE'}).catch(() => {});
[1, 2].forEach(i => document.getElementById('menu-' + i).addEventListener('click', () => {
  layer.innerHTML = '<div role="menu"><div role="menuitem" tabindex="-1">Edit task</div>'
    + '<div role="menuitem" tabindex="-1">Delete task</div></div>';
  const [, del] = layer.querySelectorAll('[role=menuitem]');
  del.addEventListener('click', () => {
    if (!ASKS) { remove(i); return; }
    layer.innerHTML = '<div role="dialog"><p>This task will be deleted. Are you sure?</p>'
      + '<button type="button">Cancel</button><button type="button" id="yes">Delete</button></div>';
    document.getElementById('yes').addEventListener('click', () => remove(i));
  });
}));
"""


@pytest.mark.parametrize("asks", [False, True])
def test_a_menus_delete_that_sends_its_write_at_once_is_unconfirmed(tmp_path: Path, asks: bool) -> None:
    spa = script_shell(APP_JS % ("true" if asks else "false"), api=True)
    with explored_in_browser(spa, tmp_path / "s", 20) as (store, _engine):
        found = [b for b in store.bug_table.live() if b.kind == "unconfirmed_destructive"]
        routes = [s.route for s in store.history.steps()]
        graph = ExplorationGraph(store)
        chains = [chain[1] for r in routes if "#click-" in r and (chain := graph.click_chain(r)) is not None]
    assert [b.route for b in found] == ([] if asks else ["/"]), (found, routes)
    assert sum("#click-" in r for r in routes) >= 2, routes  # the menu, then its Delete on that state
    # the menu stays open after a Delete that did not ask: that Delete is not made again on it
    assert not [c for c in chains if len(c) > 1 and c[-1] == c[-2]], chains
    assert spa.writes == []  # the Delete was clicked with its write refused
