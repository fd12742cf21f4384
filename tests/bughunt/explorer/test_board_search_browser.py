"""A script-drawn board: lanes side by side, each with its name, a counter holding only a number and its
cards, and a search box in no form over them that redraws the lanes as you type (a Kanban board). The
explorer types into the box a word some cards show (`filter_typing`); a counter that still counts the
whole lane beside the filtered cards is `count_mismatch` (`oracles/count_groups.py`), a counter redrawn
with its lane is clean (corpus ho29_tasksmd's lane counter). Pages here are made up."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bughunt.explorer.filter_typing import FILL_MARK
from tests.support.engines import explored_in_browser
from tests.support.loopback import script_shell

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
const WHOLE = %s;
const woods = ['Maple', 'Cedar', 'Birch'];
const lanes = {Todo: 5, Doing: 3, Shipped: 4};
const cards = [];
let n = 0;
for (const [lane, count] of Object.entries(lanes)) {
  for (let i = 0; i < count; i++) { cards.push({lane, title: woods[n %% 3] + ' shelf ' + (n + 1)}); n++; }
}
const app = document.getElementById('app');
app.innerHTML = '<header class="bar"><input type="text" placeholder="Search" class="search"></header>'
  + '<div class="lanes" id="lanes"></div>';
function draw(q) {
  document.getElementById('lanes').innerHTML = Object.keys(lanes).map(lane => {
    const all = cards.filter(c => c.lane === lane);
    const shown = all.filter(c => c.title.toLowerCase().includes(q.toLowerCase()));
    return '<section class="lane"><div class="lane-head"><strong>' + lane + '</strong><span class="count">'
      + (WHOLE ? all.length : shown.length) + '</span></div><div class="cards">'
      + shown.map(c => '<div class="card"><p>' + c.title + '</p><small>' + lane + '</small></div>').join('')
      + '</div></section>';
  }).join('');
}
document.querySelector('.search').addEventListener('input', e => draw(e.target.value));
draw('');
"""


@pytest.mark.parametrize("whole", [True, False])
def test_a_boards_search_box_is_typed_into_and_its_lane_counters_judged(tmp_path: Path, whole: bool) -> None:
    board = script_shell(APP_JS % ("true" if whole else "false"), "Board")
    with explored_in_browser(board, tmp_path / "s", 4) as (store, _engine):
        found = [b for b in store.bug_table.live() if b.kind == "count_mismatch"]
        filled = [r[0] for r in store.db.execute("SELECT selector FROM click_actions") if FILL_MARK in r[0]]
    assert filled, "the search box was never typed into"
    assert len(found) == (1 if whole else 0), [(b.route, b.message) for b in found]
