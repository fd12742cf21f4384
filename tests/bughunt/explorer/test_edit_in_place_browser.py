"""A single-page app whose own-profile page (`/profile`: its address names no record) has an "Edit"
button (no link, no address of its own) that swaps the profile's view for an edit form in place,
filled by the script from what it showed. One build's form leaves the bio empty. No page names the
record by its address, and the page linking to the profile (a menu) shows none of it: the explorer
clicks Edit, and the form oracle compares the form with the page the click was made on
(`FetchedPage.clicked_from`): `form_drops_value` on the buggy build, nothing on the correct one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.engines import explored_in_browser
from tests.support.loopback import script_shell

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
const DROPS = %s;
const app = document.getElementById('app');
if (location.pathname === '/profile') {
  const [name, bio] = ['Ann Lee', 'grows beans and peas'];  // the account's own page
  app.innerHTML = '<h1>My profile</h1><p><strong>Name:</strong> ' + name + '</p><p><strong>Bio:</strong> '
    + bio + '</p><p><button type="button" id="edit">Edit</button></p><p><a href="/">Home</a></p>';
  document.getElementById('edit').addEventListener('click', () => {
    app.innerHTML = '<h1>Edit profile</h1><form><label for="n">Name:</label><input type="text" id="n" name="name">'
      + '<label for="b">Bio:</label><textarea id="b" name="bio"></textarea>'
      + '<button type="submit">Save</button></form>';
    document.getElementById('n').value = name;
    document.getElementById('b').value = DROPS ? '' : bio;
    app.querySelector('form').addEventListener('submit', e => e.preventDefault());
  });
} else {
  app.innerHTML = '<h1>Welcome</h1><p>Notes for the garden club.</p><p><a href="/profile">My profile</a></p>';
}
"""


@pytest.mark.parametrize("drops", [True, False])
def test_an_edit_form_a_click_opened_in_place_is_compared_with_the_page_before(
    tmp_path: Path, drops: bool
) -> None:
    spa = script_shell(APP_JS % ("true" if drops else "false"))
    with explored_in_browser(spa, tmp_path / "s", 12) as (store, _engine):
        found = [(b.kind, b.route) for b in store.bug_table.live()]
        routes = [s.route for s in store.history.steps()]
    assert any(r.startswith("/profile#click-") for r in routes), routes  # Edit was clicked
    assert [k for k, _ in found] == (["form_drops_value"] if drops else []), (found, routes)
    assert spa.writes == []
