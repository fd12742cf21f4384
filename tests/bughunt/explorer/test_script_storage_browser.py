"""A shell that opens the tab it last showed, remembered in `localStorage` (Tiny Tiny RSS's preferences,
Dojo's Tree `persist`, tab-persistence scripts): a click on another tab is a state of its own, and the
next load still shows the tab the walk read the page with — its controls are where the chains say.
An entry that keeps the session (a token the click's script refreshed) stays as the script left it."""

from __future__ import annotations

import shutil

import pytest

from bughunt.actions import Action
from tests.support.engines import browser_on
from tests.support.loopback import ShellPages

SHELL = (
    "<!doctype html><html><head><title>Prefs</title></head><body>"
    '<div id="tabs"><button id="t-feeds">Feeds</button><button id="t-filters">Filters</button></div>'
    '<div id="pane"></div><script src="/app.js"></script></body></html>'
)
APP_JS = """
const show = (tab) => {
  document.getElementById('pane').innerHTML = tab === 'filters'
    ? '<h2>Filters</h2><p>No filters yet.</p>'
    : '<h2>Feeds</h2><button id="edit-feed">Edit feed</button>';
};
document.getElementById('t-feeds').addEventListener('click', () => { localStorage.setItem('prefs-tab', 'feeds'); show('feeds'); });
document.getElementById('t-filters').addEventListener('click', () => {
  localStorage.setItem('prefs-tab', 'filters');
  localStorage.setItem('api_token', 'refreshed');
  show('filters');
});
show(localStorage.getItem('prefs-tab') || 'feeds');
"""


class _Prefs(ShellPages):
    shell = SHELL
    script = APP_JS


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")
def test_a_tab_a_click_remembered_in_local_storage_is_not_the_next_load_s_view() -> None:
    with browser_on(_Prefs, respect_robots=False) as engine:
        first = engine.fetch("/")
        assert first.page is not None and "Edit feed" in first.page.visible_text
        clicks = [a for a in engine.actions(first.page) if a.kind == "click" and a.selector == "#t-filters"]
        assert len(clicks) == 1, engine.actions(first.page)
        shown = engine.perform(clicks[0])
        assert shown.page is not None and "No filters yet." in shown.page.visible_text
        again = engine.fetch("/")
        assert again.page is not None and "Edit feed" in again.page.visible_text, again.page.visible_text
        # so a chain through the Feeds tab's control still finds it
        edit = engine.perform(Action("click", engine.url_of("/"), "", "#edit-feed"))
        assert edit.outcome == "page", edit.detail
        token = engine._page.evaluate("() => localStorage.getItem('api_token')")
        assert token == "refreshed"  # the session's entry is left as the script wrote it
