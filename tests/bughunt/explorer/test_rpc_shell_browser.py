"""An "application shell" single-page app over one RPC route in a dialect of JSON-RPC (as Transmission's
web client, and Tixati- or qBittorrent-style bridges, speak it): every read is a POST of `{"method":
"item-get", "arguments": {...}, "tag": n}` — no `params`, `id` nor `jsonrpc` — and `{"method":
"session-get"}` alone; the first call of a page is answered 409 with a session id the script sends
again at once. A "Compact View" button keeps the list's layout in a cookie, as jQuery's cookie plugin
or ExtJS's state provider keep a view's preference. An icon toolbar of `<div title=…>` buttons disabled by a class until a row of the list
(`ul > li`, one delegated listener) is selected; a kept confirm dialog and a tab strip whose handles are
in-page links (`<a href="#files">`), hidden. The toolbar's Remove removes at once, without asking.

Main refused every call (none had JSON-RPC's keys): the list never drew, the walk ended `done` with the
toolbar unclickable; it clicked the hidden dialog's and tabs' links (each click failed); and it learned a
row's selection as `same_state` (only classes changed), so no other record was selected; and after
one Compact click every later load drew the rows otherwise, so each row's click failed. And the 409 handshake, admitted, would be a failed request of every page."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.support.engines import explored_in_browser
from tests.support.loopback import ShellPages

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

TOKEN = "tok-7f3a"
SCRIPT = """
let token = '', selected = null;
function rpc(method, args, done) {
  const body = JSON.stringify(args === null ? {method: method} : {method: method, arguments: args, tag: 3});
  const x = new XMLHttpRequest();
  x.open('POST', '/rpc');
  x.setRequestHeader('Content-Type', 'json');
  if (token) { x.setRequestHeader('X-Session-Id', token); }
  x.onload = function () {
    if (x.status === 409) { token = x.getResponseHeader('X-Session-Id'); return rpc(method, args, done); }
    if (x.status === 200 && done) { done(JSON.parse(x.responseText)); }
  };
  x.send(body);
}
function draw() {
  rpc('item-get', {fields: ['id', 'name', 'state']}, function (a) {
    const compact = document.cookie.indexOf('compact=1') >= 0;
    document.getElementById('items').innerHTML = a.arguments.items.map(function (t) {
      return '<li data-id="' + t.id + '">' + (compact ? '<span>' + t.name + ' (' + t.state + ')</span>'
        : '<div class="name">' + t.name + '</div><div class="st">' + t.state + '</div>') + '</li>';
    }).join('');
  });
}
rpc('session-get', null, function (a) { document.getElementById('version').textContent = a.arguments.version; draw(); });
document.getElementById('items').addEventListener('click', function (e) {
  const li = e.target.closest('li');
  if (!li) { return; }
  document.querySelectorAll('#items li').forEach(function (r) { r.classList.toggle('selected', r === li); });
  selected = Number(li.getAttribute('data-id'));
  ['tb-remove', 'tb-pause'].forEach(function (b) { document.getElementById(b).classList.remove('disabled'); });
});
document.getElementById('tb-remove').addEventListener('click', function () {
  if (selected === null || this.classList.contains('disabled')) { return; }
  rpc('item-remove', {ids: [selected]}, draw);
});
document.getElementById('tb-pause').addEventListener('click', function () {
  if (selected === null || this.classList.contains('disabled')) { return; }
  rpc('item-stop', {ids: [selected]}, draw);
});
document.getElementById('tb-compact').addEventListener('click', function () {
  const on = document.cookie.indexOf('compact=1') >= 0;
  document.cookie = 'compact=' + (on ? '0' : '1') + '; path=/; max-age=31536000';
  selected = null;
  draw();
});
document.getElementById('tb-about').addEventListener('click', function () {
  document.getElementById('version').classList.toggle('bold');
});
document.querySelectorAll('#tabs a, #dialog a').forEach(function (a) {
  a.addEventListener('click', function (e) { e.preventDefault(); });
});
"""

SHELL = (
    "<!doctype html><html><head><title>Items</title><style>.hidden{display:none}.disabled{opacity:.4}"
    "#toolbar div{display:inline-block;width:32px;height:32px;cursor:pointer;background:#ccc;margin:2px}#items li{cursor:pointer}</style>"
    '</head><body><div id="toolbar"><div id="tb-compact" title="Compact View"></div><div id="tb-about" title="About"></div>'
    '<div id="tb-remove" class="disabled" title="Remove Selected Items"></div>'
    '<div id="tb-pause" class="disabled" title="Pause Selected Items"></div></div>'
    '<p>Version <span id="version"></span></p><ul id="items"></ul>'
    '<div id="inspector" class="hidden"><div id="tabs"><a href="#info">Info</a> <a href="#files">Files</a> '
    '<a href="#peers">Peers</a></div></div>'
    '<div id="dialog" class="hidden"><h2>Sure?</h2><a href="#confirm">Confirm</a> <a href="#cancel">Cancel</a></div>'
    '<script src="/app.js"></script></body></html>'
)


class _Shell(ShellPages):
    calls: list[str] = []
    shell = SHELL
    script = SCRIPT

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        if self.headers.get("X-Session-Id") != TOKEN:
            self.send_response(409)
            self.send_header("X-Session-Id", TOKEN)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        method = body.get("method", "")
        type(self).calls.append(method)
        if method == "session-get":
            answer: dict[str, object] = {"version": "3.00"}
        elif method == "item-get":
            answer = {"items": [{"id": n, "name": f"Disc {n}", "state": "Seeding"} for n in range(1, 7)]}
        else:
            answer = {}
        return self.reply(200, json.dumps({"result": "success", "arguments": answer, "tag": 3}), "json")


def test_a_shell_over_an_rpc_dialect_draws_and_its_unconfirmed_remove_is_found(tmp_path) -> None:
    _Shell.calls = []
    with explored_in_browser(_Shell, tmp_path / "s", 20) as (store, _engine):
        bugs = store.bug_table.live()
        steps = [(s.route, s.outcome, s.detail) for s in store.history.steps()]
        kinds = [(b.kind, b.route, b.message) for b in bugs]
        # the reads went through (the list drew), the writes were refused
        assert "item-get" in _Shell.calls, steps
        assert "item-remove" not in _Shell.calls and "item-stop" not in _Shell.calls
        assert any(b.kind == "unconfirmed_destructive" for b in bugs), (kinds, steps)
        # the session id handshake (409, sent again at once) is no failed request of the page
        assert not any(b.kind == "client_error" for b in bugs), kinds
        # no click went to the hidden dialog's or tab strip's in-page links
        assert not any(detail == "click_failed" for _, _, detail in steps), steps
        # selecting a row enabled the toolbar: no idle click, so other rows (other records) are selected too
        rows = {
            c[1] for s in store.history.steps() if (c := store.link_table.click_of(s.route)) and "li" in c[1]
        }
        assert len(rows) >= 2, (rows, steps)
