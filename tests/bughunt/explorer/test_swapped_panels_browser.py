"""A shell that switches its pages by hiding one panel and showing another (pixl-webapp's `#page_<Name>`
divs, Dojo's StackContainer panes, Bootstrap's tab panes), with no heading to tell them by: a tab
bar of script controls, each showing its panel in place. The jobs panel lists jobs whose details a
click opens; the first job's details throw. A click that swapped the panels opened a view: its controls are
made on it, so the walk reaches the job and reports the script error (issue 25: a corpus scheduler's
walk never clicked inside its History page)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.engines import explored_in_browser
from tests.support.loopback import script_shell

pytestmark_browser = pytest.mark.skipif(
    shutil.which("chromium") is None, reason="Debian's chromium is not installed"
)

APP_JS = """
const app = document.getElementById('app');
const PAGES = ['Jobs', 'Settings', 'Home'];
app.innerHTML = '<div id="tabs">' + PAGES.map(p => '<div class="tab" data-p="' + p + '">' + p + ' tab</div>').join('')
  + '</div><div id="main">' + PAGES.map(p => '<div id="page_' + p + '" style="display:none"></div>').join('') + '</div>';
const draw = {
  Home: () => '<div class="subtitle">Welcome back to the scheduler</div><p>Nothing is running right now.</p>',
  Settings: () => '<div class="subtitle">Your settings and preferences</div><p>Time zone: UTC, language English.</p>',
  Jobs: () => '<div class="subtitle">Completed jobs of the last week</div><table class="data_table">'
    + [1, 2, 3, 4].map(i => '<tr><td><span class="link" data-job="' + i + '">Job number ' + i + '</span></td>'
    + '<td>finished in ' + (i * 3) + ' s</td></tr>').join('') + '</table>',
};
const show = p => {
  PAGES.forEach(q => { document.getElementById('page_' + q).style.display = q === p ? '' : 'none'; });
  const box = document.getElementById('page_' + p);
  box.innerHTML = draw[p]();
  box.querySelectorAll('[data-job]').forEach(el => el.addEventListener('click', () => {
    const job = el.dataset.job === '1' ? {} : {cpu: {total: 4}};
    box.innerHTML = '<div class="subtitle">Job details</div><p>CPU total: ' + job.cpu.total + ' seconds used.</p>';
  }));
};
document.querySelectorAll('.tab').forEach(t => t.addEventListener('click', () => show(t.dataset.p)));
show('Home');
"""

_Shell = script_shell(APP_JS)


@pytestmark_browser
def test_a_panel_swapped_in_is_a_view_whose_controls_are_walked(tmp_path: Path) -> None:
    with explored_in_browser(_Shell, tmp_path / "s", 25) as (store, _engine):
        kinds = [b.kind for b in store.bug_table.live()]
        routes = [s.route for s in store.history.steps()]
    assert "client_error" in kinds, routes
