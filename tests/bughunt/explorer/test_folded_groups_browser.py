"""A sidebar whose groups are folded (`bughunt.disclosures`), served on loopback: what a folded group
holds is reached by clicking the control that opens it, once per group. Three ways a page folds a
group: an expander with its own click listener drawn inside the group's link (the group's page is the
link's; the children's links are drawn only when it is open, a framework's `v-if`), a closed
`<details>` whose button is hidden, and an ARIA tree whose item says `aria-expanded="false"` (one
listener on the tree, the item focusable by arrow keys only). On main none of the four hidden pages
was reached: the expander was read as part of its link, a `<summary>` and a tree item were no
controls."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest

from bughunt.explorer.graph import ExplorationGraph
from tests.support.engines import explored_in_browser
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

HIDDEN = ("/item/11", "/item/12", "/item/5", "/item/21")

_SCRIPT = """
document.querySelector('.twisty').addEventListener('click', (e) => {
  e.preventDefault();
  const kids = document.querySelector('.kids');
  kids.innerHTML = kids.children.length ? ''
    : '<li><a href="/item/11">West one</a></li><li><a href="/item/12">West two</a></li>';
});
document.getElementById('tree').addEventListener('click', (e) => {
  const item = e.target.closest('[aria-expanded]');
  if (!item) { return; }
  const open = item.getAttribute('aria-expanded') === 'true';
  item.setAttribute('aria-expanded', open ? 'false' : 'true');
  const group = document.getElementById('regions');
  group.innerHTML = open ? '' : '<li role="treeitem"><a href="/item/21">North</a></li>';
});
"""

_HOME = (
    "<html><head><title>Monitors</title></head><body><nav><ul class='items'>"
    "<li><a href='/item/1'>Alpha</a></li><li><a href='/item/2'>Beta</a></li>"
    "<li><a href='/item/3'><span class='twisty'>&#9656;</span> Group West</a><ul class='kids'></ul></li>"
    "</ul><details><summary>Archive</summary>"
    "<button type='button' onclick=\"location.href='/item/5'\">Old reports</button></details>"
    "<ul role='tree' id='tree'><li role='treeitem' aria-expanded='false' tabindex='-1'>Regions</li>"
    "<ul role='group' id='regions'></ul></ul>"
    f"</nav><h1>Monitors</h1><p>Four monitors up.</p><script>{_SCRIPT}</script></body></html>"
)


class _Sidebar(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/":
            return self.reply(200, _HOME)
        if self.path.startswith("/item/") and self.path[6:].isdigit():
            n = self.path[6:]
            return self.reply(
                200,
                f"<html><head><title>Item {n}</title></head><body><h1>Item {n}</h1>"
                f"<p>Monitor number {n} is up.</p><a href='/'>All monitors</a></body></html>",
            )
        self.reply(404, "<html><body>no</body></html>")


def test_each_folded_group_is_opened_once_and_what_it_holds_is_walked(tmp_path) -> None:
    with explored_in_browser(_Sidebar, tmp_path / "s", 30) as (store, _engine):
        steps = store.history.steps()
        walk = [(s.route, s.final_route, s.outcome) for s in steps]
        reached = {s.final_route for s in steps} | set(store.visits.visited())
        assert all(route in reached for route in HIDDEN), walk
        graph = ExplorationGraph(store)
        clicked = Counter(c[1] for s in steps if (c := graph.click_of(s.route)) is not None)
        opened = {
            selector: n
            for selector, n in clicked.items()
            if any(w in selector for w in ("span", "summary", "li"))
        }
        # Each of the three opened once: a second click folds its group again (a toggle).
        assert len(opened) >= 3 and all(n == 1 for n in opened.values()), (clicked, walk)
