"""A single-page admin's edit form carries its record's Delete in the form's toolbar, beside Save: a
`type="button"` that submits nothing, whose click handler deletes (react-admin's edit toolbar). The
explorer clicks it like a script's Delete outside any form: the write it sends at once is refused and
reported `unconfirmed_destructive`; one that opens a dialog first sends nothing and is clean. The
form's own submit button stays the form's write, never clicked as a Delete (issue 25; corpus
ho13_aiohttp_admin's quick delete, depth 3: list → edit form → Delete)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.engines import explored_in_browser
from tests.support.loopback import script_shell

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
const app = document.getElementById('app');
const ASKS = %s;
app.innerHTML = '<h1>Edit shelf 4</h1><form id="edit"><label>Name <input name="name" value="Oak"></label>'
  + '<div role="toolbar"><button type="submit">Save</button>'
  + '<button type="button" aria-label="Delete">Delete</button></div></form><div id="layer"></div>';
const layer = document.getElementById('layer');
const remove = () => fetch('/api/shelves/4', {method: 'DELETE'}).catch(() => {});
document.getElementById('edit').addEventListener('submit', e => e.preventDefault());
document.querySelector('[aria-label=Delete]').addEventListener('click', () => {
  if (!ASKS) { remove(); return; }
  layer.innerHTML = '<div role="dialog"><p>Delete this shelf?</p>'
    + '<button type="button">Cancel</button><button type="button" id="yes">Confirm</button></div>';
  document.getElementById('yes').addEventListener('click', remove);
});
"""


@pytest.mark.parametrize("asks", [False, True])
def test_an_edit_forms_delete_button_is_clicked_and_judged(tmp_path: Path, asks: bool) -> None:
    spa = script_shell(APP_JS % ("true" if asks else "false"), api=True)
    with explored_in_browser(spa, tmp_path / "s", 8) as (store, _engine):
        found = [b for b in store.bug_table.live() if b.kind == "unconfirmed_destructive"]
        routes = [s.route for s in store.history.steps()]
    assert [b.route for b in found] == ([] if asks else ["/"]), (found, routes)
    assert any("#click-" in r for r in routes), routes
    assert spa.writes == []  # the Delete was clicked with its write refused
