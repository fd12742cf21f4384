"""A script-drawn admin: a list of records, each opening its editor (`#/record/N`) whose "Delete
Record…" asks in a dialog of the app's own `div`s (no `<dialog>`, no role) before its "Delete" sends
the write. Every editor's Delete is one control of one template: once one was clicked and its dialog
seen, opening the others' dialogs teaches nothing (a corpus scheduler spent 43 of 100 clicks so, issue
25). The walk judges it once, reports nothing on it, and spends its clicks on the rest of the app."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bughunt.actions import Action
from bughunt.explorer.judged_controls import JudgedControls, judged_key, view_shape
from bughunt.page import FetchedPage
from tests.support.engines import explored_in_browser
from tests.support.loopback import script_shell

pytestmark_browser = pytest.mark.skipif(
    shutil.which("chromium") is None, reason="Debian's chromium is not installed"
)

APP_JS = """
const app = document.getElementById('app');
const N = 12;
const nav = '<nav><a href="#/records">Records</a> <a href="#/about">About</a> <a href="#/help">Help</a></nav>';
const dialog = () => {
  const box = document.createElement('div');
  box.id = 'dialog_container';
  box.innerHTML = '<div id="dialog_main"><p>Are you sure you want to delete this record?</p>'
    + '<div class="button cancel">Cancel</div> <div class="button ok">Delete</div></div>';
  document.body.appendChild(box);
  box.querySelector('.cancel').addEventListener('click', () => box.remove());
  box.querySelector('.ok').addEventListener('click', () => {
    fetch('/api/delete_record', {method: 'POST', body: '{}'}).catch(() => {});
    box.remove();
  });
};
const record = n => {
  app.innerHTML = nav + '<h1>Record ' + n + '</h1><table><tr><td>Name</td><td><input id="f_name" value="Record '
    + n + '"></td></tr></table><div class="buttons"><div class="button del">Delete Record…</div>'
    + ' <div class="button save">Save Changes</div></div>';
  app.querySelector('.del').addEventListener('click', dialog);
};
const records = () => {
  const rows = [...Array(N).keys()].map(i => '<tr><td><a href="#/record/' + (i + 1) + '">Record ' + (i + 1)
    + '</a></td><td>' + (i * 7 % 5) + ' items</td></tr>').join('');
  app.innerHTML = nav + '<h1>Records</h1><table><tbody>' + rows + '</tbody></table>';
};
const text = t => { app.innerHTML = nav + '<h1>' + t + '</h1><p>Words about ' + t + '.</p>'; };
const route = () => {
  const p = location.hash.replace(/^#\\/?/, '');
  if (p.startsWith('record/')) record(p.split('/')[1]);
  else if (p === 'records') records();
  else if (p === 'about' || p === 'help') text(p);
  else app.innerHTML = nav + '<h1>Home</h1>';
};
window.addEventListener('hashchange', route);
route();
"""

_Admin = script_shell(APP_JS, api=True)


@pytestmark_browser
def test_one_editors_delete_dialog_stands_for_every_records(tmp_path: Path) -> None:

    with explored_in_browser(_Admin, tmp_path / "s", 40) as (store, _engine):
        steps = list(store.history.steps())
        deletes = [s.route for s in steps if store.link_table.words_of(s.route) == "delete"]
        bugs = [b.kind for b in store.bug_table.live()]
    assert "unconfirmed_destructive" not in bugs
    # "Delete Record…" once and its dialog's "Delete" once; not on every record's editor
    assert 1 <= len(deletes) <= 2, [s.route for s in steps]
    assert len({s.route for s in steps if "/record/" in s.route}) >= 3  # other records were still opened


def _page(url: str) -> FetchedPage:
    return FetchedPage(url, url.split("/", 3)[-1], 200, {}, "text/html", "<html><body></body></html>", 1.0)


def test_the_key_masks_the_record_not_the_view() -> None:
    assert view_shape("http://a.test/#Schedule?sub=edit_event&id=ev02x") == "/#Schedule?sub=edit_event&id=<v>"
    one = judged_key(
        _page("http://a.test/#/record/3"), "#app > div.buttons > div:nth-of-type(1)", "Delete Record…"
    )
    other = judged_key(
        _page("http://a.test/#/record/9"), "#app > div.buttons > div:nth-of-type(1)", "Delete Record…"
    )
    user = judged_key(
        _page("http://a.test/#/user/9"), "#app > div.buttons > div:nth-of-type(1)", "Delete User…"
    )
    assert one == other != user
    delete = Action(
        "click", "http://a.test/#/record/3", "Delete Record…", "#app > div.buttons > div:nth-of-type(1)"
    )
    assert not JudgedControls().known(_page("http://a.test/#/record/3"), delete)
