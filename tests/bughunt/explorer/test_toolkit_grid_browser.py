"""A widget toolkit's single-page app (as ExtJS 3, Dojo dijit/dgrid or jQuery UI draw one): a toolbar of
thirteen buttons and a filter panel of two, then a grid whose rows a script draws as a table each, every cell focusable and one
delegated listener selecting the row, then a details tab strip disabled (a class on each tab's `li`)
until a row is selected, its first tab the active one (a prefixed class: `current_item`); a filter
panel (its current entry marked by a toolkit's prefixed class) whose "Paused (3)" redraws the grid with
four rows (`count_filters`). The Details tab's call for the selected record fails: two clicks deep, the
selection, then the tab. Main's walk spent the page's cap of clicks on the toolbar, never selected a
row, and clicked the disabled tabs from the page's fresh load (`grid_rows`, `disabled_widgets`,
`enabled_controls`)."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from urllib.parse import parse_qs, urlsplit

import pytest

from bughunt.dom import parse_html
from tests.support.engines import explored_in_browser
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

TOOLS = "Refresh Sort Columns Density Zoom Theme Export Print Help About Freeze Layout Legend".split()
"""Thirteen buttons and the filter panel's two entries: the page's cap of clicks is spent before the grid."""
FAULT = "details-call-failed"

SCRIPT = """
let selected = null;
const body = document.getElementById('grid-body');
function draw(state) {
 fetch('/api/rows' + (state ? '?state=' + state : '')).then(r => r.json()).then(function (rows) {
  body.innerHTML = rows.map((r, i) =>
    '<div class="g-row' + (i % 2 ? ' g-row-alt' : '') + '" data-id="' + r.id + '"><table class="g-row-table"><tbody><tr>' +
    '<td class="g-cell" tabindex="0"><div class="g-inner">&nbsp;</div></td>' +
    '<td class="g-cell" tabindex="0"><div class="g-inner">' + r.name + '</div></td>' +
    '<td class="g-cell" tabindex="0"><div class="g-inner">' + r.size + ' KiB</div></td>' +
    '<td class="g-cell" tabindex="0"><div class="g-inner">' + r.state + '</div></td>' +
    '</tr></tbody></table></div>').join('');
 });
}
draw('');
document.getElementById('filters').addEventListener('click', function (e) {
  const dt = e.target.closest('dt');
  if (!dt) { return; }
  document.querySelectorAll('#filters dt').forEach(d => d.classList.toggle('x-view-selected', d === dt));
  draw(dt.getAttribute('data-state'));
});
body.addEventListener('click', function (e) {
  const row = e.target.closest('.g-row');
  if (!row) { return; }
  document.querySelectorAll('.g-row-selected').forEach(r => r.classList.remove('g-row-selected'));
  row.classList.add('g-row-selected');
  selected = row.getAttribute('data-id');
  document.getElementById('panel').textContent = 'Downloaded ' + selected + ' of ' + selected + ' pieces';
  document.querySelectorAll('#tabs li').forEach(li => li.classList.remove('x-item-disabled'));
});
document.getElementById('tabs').addEventListener('click', function (e) {
  e.preventDefault();
  const li = e.target.closest('li');
  if (!li || li.classList.contains('x-item-disabled') || selected === null) { return; }
  fetch('/api/' + li.getAttribute('data-tab') + '?id=' + selected).then(r => r.text()).then(function (t) {
    document.getElementById('panel').textContent = t;
  });
});
document.getElementById('toolbar').addEventListener('click', function (e) {
  const b = e.target.closest('button');
  if (b) { document.getElementById('hint').textContent = ''; }
});
"""


def _shell() -> str:
    tools = "".join(
        f'<td class="tb-cell"><table class="x-btn"><tbody><tr><td><em><button type="button" class="x-btn-text">{t}'
        "</button></em></td></tr></tbody></table></td>"
        for t in TOOLS
    )
    tabs = "".join(
        f'<li class="{"x-tab-strip-active " if t == "Status" else ""}x-item-disabled" data-tab="{t.lower()}">'
        f'<a class="tab-right" href="#"><em><span>{t}</span></em></a></li>'
        for t in ("Status", "Details", "Files")
    )
    return (
        "<!doctype html><html><head><title>Torrents</title></head><body>"
        f'<div id="toolbar"><table><tbody><tr>{tools}</tr></tbody></table></div>'
        '<div id="filters"><dl><dt class="x-view-selected" style="cursor:pointer" data-state="">All (8)</dt><dt style="cursor:pointer" data-state="Paused">Paused (3)</dt></dl></div>'
        '<div class="grid"><div class="g-head">Name Size State</div><div id="grid-body"></div></div>'
        f'<div class="details"><ul id="tabs" class="tab-strip">{tabs}</ul><div id="panel"></div>'
        '<p id="hint"></p></div><script src="/app.js"></script></body></html>'
    )


class _Toolkit(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        url = urlsplit(self.path)
        if url.path == "/app.js":
            return self.reply(200, SCRIPT, "application/javascript")
        if url.path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        if url.path == "/api/rows":
            states = ["Paused" if n % 2 else "Seeding" for n in range(1, 9)]
            rows = [
                {"id": n, "name": f"Film {n}", "size": n * 7, "state": states[n - 1]} for n in range(1, 9)
            ]
            if parse_qs(url.query).get("state") == ["Paused"]:
                rows = [r for r in rows if r["state"] == "Paused"]  # four: the filter's label says three
            return self.reply(200, json.dumps(rows), "application/json")
        if url.path in ("/api/status", "/api/files"):
            return self.reply(200, "Peers 0, seeds 0", "text/plain")
        if url.path == "/api/details":
            ident = parse_qs(url.query).get("id", ["?"])[0]
            return self.reply(500, f"{FAULT}: comment of {ident} is bytes", "text/plain")
        if url.path == "/":
            return self.reply(200, _shell())
        return self.reply(404, "<html><head><title>Not found</title></head><body>none</body></html>")


def test_a_selected_rows_details_tab_is_reached_and_its_failing_call_found(tmp_path) -> None:
    with explored_in_browser(_Toolkit, tmp_path / "s", 30) as (store, _engine):
        bugs = store.bug_table.live()
        said = " ".join(b.route + " " + b.message + " " + b.evidence for b in bugs)
        walk = [(s.route, s.outcome, s.detail) for s in store.history.steps()]
        assert "/api/details" in said, (walk, [(b.kind, b.route, b.message) for b in bugs])
        assert any(b.kind == "count_mismatch" for b in bugs), [(b.kind, b.message) for b in bugs]


def test_a_grid_row_is_one_control_and_the_first_row_passes_the_cap() -> None:
    from bughunt.actions import page_clicks
    from bughunt.explorer.offered_clicks import offered_clicks
    from bughunt.page import FetchedPage

    rows = "".join(
        f'<div class="g-row"><table><tbody><tr><td tabindex="0">&nbsp;</td><td tabindex="0">Film {n}</td>'
        f'<td tabindex="0">{n} KiB</td></tr></tbody></table></div>'
        for n in range(1, 6)
    )
    names = [*TOOLS, "Filters", "Group"]  # fifteen: the cap
    tools = "".join(f'<button type="button" id="tool-{t.lower()}">{t}</button>' for t in names)
    html = f"<html><body><div>{tools}</div><div class='grid-body'>{rows}</div></body></html>"
    page = FetchedPage("http://t.test/", "/", 200, {}, "text/html", html, 1.0)
    clicks = offered_clicks(page, page_clicks(page), set())
    labels = [c.label for c in clicks]
    assert labels[: len(names)] == names
    assert labels[len(names) :] == ["Film 1"], labels  # one cell per row, past the cap


@pytest.mark.parametrize(
    ("markup", "shown_disabled"),
    [
        ('<ul><li class="x-item-disabled"><a href="#"><span>Details</span></a></li></ul>', True),
        ('<ul><li class="ui-state-disabled"><a href="#">Details</a></li></ul>', True),
        ('<span class="dijitTabDisabled"><span role="tab">Details</span></span>', True),
        (
            '<table class="x-btn x-item-disabled"><tr><td><button type="button">Remove</button></td></tr></table>',
            True,
        ),
        ('<ul><li class="x-tab"><a href="#">Details</a></li></ul>', False),
        # a disabled account's row: its Enable button is a control
        (
            '<table><tr class="user-disabled"><td>ana</td><td><button type="button">Enable</button></td></tr></table>',
            False,
        ),
    ],
)
def test_a_widget_disabled_by_a_class_around_it_is_no_control(markup: str, shown_disabled: bool) -> None:
    from bughunt.actions import acts, clickable

    root = parse_html(f"<html><body>{markup}</body></html>")
    control = next(n for n in root.iter() if n.tag in ("a", "button") or n.get("role") == "tab")
    assert acts(control)
    assert clickable(control) is not shown_disabled


def test_the_row_whose_click_made_a_state_is_not_clicked_again_on_it() -> None:
    from bughunt.actions import Action
    from bughunt.explorer.facts import _clicked_again
    from bughunt.page import FetchedPage

    row = "#grid-body > div:nth-of-type(1) > table > tbody > tr > td:nth-of-type(2)"
    before = FetchedPage("http://t.test/", "/", 200, {}, "text/html", "<html></html>", 1.0)
    state = FetchedPage("http://t.test/", "/#click-1", 200, {}, "text/html", "<html></html>", 1.0)
    state = replace(state, clicked_from=(before, "Sintel"))
    made = ("/#click-1", row)
    assert _clicked_again(state, Action("click", state.url, " sintel ", row), made)
    assert not _clicked_again(state, Action("click", state.url, "Charge", row), made)  # the list was redrawn
    assert not _clicked_again(state, Action("click", state.url, "Sintel", row + "x"), made)
