"""A single-page app's only way to its settings page is a user menu, whose trigger carries an id its
framework makes up as it renders (React 19's useId inside Radix's prefix: `radix-_r_k_`), another one
on every load. A click anchored on that id named no control at its replay, and the settings page was
never seen. The selector now walks past such ids to a stable anchor, so the click replays."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.engines import explored_in_browser
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
const app = document.getElementById('app');
const made_up = () => Array.from({length: 3}, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)]).join('');
const route = () => {
  const p = location.hash.replace(/^#\\/?/, '').replace(/\\/$/, '');
  const main = p === 'settings' ? '<h1>Settings</h1><p>Your name and e-mail.</p>'
    : '<h1>Home</h1><p>Welcome back.</p>';
  app.innerHTML = '<main>' + main + '</main><footer></footer><div id="layer"></div>';
  // the user card renders when its query answers, with an id numbered in render order
  fetch('/api/me').then(r => r.json()).then(me => {
    const footer = app.querySelector('footer');
    footer.innerHTML = '<button type="button" aria-haspopup="menu" id="radix-_r_' + made_up() + '_">'
      + me.name + '</button>';
    footer.querySelector('button').addEventListener('click', () => {
      document.getElementById('layer').innerHTML = '<div role="menu"><a role="menuitem" href="#/settings/">My settings</a></div>';
    });
  });
};
window.addEventListener('hashchange', route);
route();
"""


class _Spa(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/app.js":
            self.reply(200, APP_JS, "application/javascript")
        elif self.path == "/api/me":
            self.reply(200, '{"name": "Alice"}', "application/json")
        else:
            shell = '<html><head><title>T</title></head><body><div id="app"></div><script src="/app.js"></script></body></html>'
            self.reply(200, shell)


def test_a_menu_whose_trigger_id_changes_per_load_leads_to_its_page(tmp_path: Path) -> None:
    with explored_in_browser(_Spa, tmp_path / "s", 8) as (store, _engine):
        routes = [s.route for s in store.history.steps()]
    assert "/#/settings/" in routes, routes
