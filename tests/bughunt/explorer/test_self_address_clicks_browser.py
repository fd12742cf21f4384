"""A single-page app's router completes its address with a reserved character escaped
(`#/items?kind=a&sort=-%40id`, as a Svelte dashboard's collections do). A click on such a page is named
on the page the walk stands on — its visit, in `route_of`'s encoding — so what the click did is learned:
a "Reload" that pushes the short address (the router completes it again, drawing the same view) is a
click in place that showed nothing new, clicked once, not again on every view. Named in `safe_route`'s
decoded form (`sort=-@id`) the click found no visit of its page, learned nothing, and was a repeat
click on each of the six views."""

from __future__ import annotations

import shutil

import pytest

from tests.support.engines import explored_in_browser
from tests.support.loopback import script_shell

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
const KINDS = ['apples', 'pears', 'plums', 'figs', 'limes', 'dates'];
function kindOf() { const m = location.hash.match(/kind=(\\w+)/); return m ? m[1] : 'apples'; }
function draw() {
  const kind = kindOf(), full = '#/items?kind=' + kind + '&sort=-%40id';
  if (location.hash !== full) { history.replaceState(null, '', full); }
  document.getElementById('app').innerHTML = '<nav>'
    + KINDS.map(k => '<a href="#/items?kind=' + k + '">' + k + '</a>').join(' ')
    + '</nav><main><h1>' + kind + '</h1><button type="button" class="reload">Reload</button><ul>'
    + [1, 2, 3].map(i => '<li>' + kind + ' ' + i + '</li>').join('') + '</ul></main>';
  document.querySelector('.reload').addEventListener('click', () => {
    location.hash = '#/items?kind=' + kind;  // the short address: the router completes it again
  });
}
window.addEventListener('hashchange', draw);
draw();
"""


def test_a_click_on_a_page_with_an_escaped_address_is_learned(tmp_path) -> None:
    with explored_in_browser(script_shell(APP_JS, "Fruit"), tmp_path / "s", 20) as (store, _engine):
        pages = [s.final_route or s.route for s in store.history.steps()]
        reloads = [
            s.n for s in store.history.steps()
            if (click := store.link_table.click_of(s.route)) is not None and click[1].endswith("button")
        ]  # fmt: skip
        # every kind's view was reached, and its Reload clicked on the first view only
        assert sum("kind=" in p for p in set(pages)) >= 6, pages
        assert len(reloads) == 1, (reloads, pages)
