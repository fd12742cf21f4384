"""A page of named servers whose rows each hold a "delete" button, under a layout that carries a closed
error dialog on every page for its scripts to open (`role="dialog"`, `aria-hidden`, a Bootstrap
modal). The closed dialog is not open: a delete that sends its write at one click is
`unconfirmed_destructive`, and one that asks first (`window.confirm`, dismissed) reports nothing.
Before, any `role="dialog"` in the document made the row's button the dialog's confirmation."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.engines import explored_in_browser
from tests.support.loopback import script_shell

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
const ASKS = %s;
const app = document.getElementById('app');
const rows = ['analysis', 'report'].map(name => '<tr><td>' + name + '</td><td><button role="button" '
  + 'class="btn" id="delete-' + name + '">delete</button></td></tr>').join('');
app.innerHTML = '<h1>Your servers</h1><table><tbody>' + rows + '</tbody></table>'
  + '<div class="modal fade" role="dialog" aria-hidden="true" style="display: none">'
  + '<h2>Error</h2><div>The error</div><button type="button">Close</button></div>';
for (const button of app.querySelectorAll('td button')) {
  button.addEventListener('click', () => {
    if (ASKS && !window.confirm('Delete this server?')) { return; }
    fetch('/api/servers/' + button.id.slice(7), {method: 'DELETE'}).catch(() => {});
  });
}
"""


@pytest.mark.parametrize("asks", [False, True])
def test_a_delete_beside_a_closed_dialog_that_sends_at_once_is_unconfirmed(
    tmp_path: Path, asks: bool
) -> None:
    spa = script_shell(APP_JS % ("true" if asks else "false"), api=True)
    with explored_in_browser(spa, tmp_path / "s", 8) as (store, _engine):
        found = [b for b in store.bug_table.live() if b.kind == "unconfirmed_destructive"]
        routes = [s.route for s in store.history.steps()]
    assert sum("#click-" in r for r in routes) >= 1, routes
    assert len(found) == (0 if asks else 1), (found, routes)
    assert spa.writes == []  # the write was refused in the browser
