"""A single-page app's destructive client route (`/items/<n>/delete`): its page deletes the item through
the app's API as soon as it mounts, then goes back. Over HTTP the route is the app's shell (200, no
effect); only opened in the browser, with its page's writes let through (`Engine.open_action`), does
the item go from the rendered page that listed it. A route whose page asks first is no finding."""

from __future__ import annotations

import json
import shutil
import threading

import pytest

from bughunt.explorer import inspection
from bughunt.oracles.base import OracleConfig
from bughunt.oracles.destructive import check_unconfirmed_destructive
from tests.support.engines import browser_on
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
const app = document.getElementById('app');
const path = location.pathname;
const del = path.match(/^\\/items\\/(\\d+)\\/delete$/);
const remove = n => fetch('/api/items/' + n, {method: 'DELETE'});
if (path === '/') {
  fetch('/api/items').then(r => r.json()).then(ids => {
    app.innerHTML = '<h1>Items</h1><ul>' + ids.map(n => '<li>Item ' + n
      + ' <a href="/items/' + n + '/delete">Delete</a></li>').join('') + '</ul>';
  });
} else if (del && ASKS) {
  app.innerHTML = '<h1>Delete item ' + del[1] + '?</h1><button id="yes">Yes, delete</button>';
  document.getElementById('yes').addEventListener('click', () => remove(del[1]).then(() => history.back()));
} else if (del) {
  remove(del[1]).then(() => history.back());
} else {
  app.innerHTML = '<h1>Item</h1>';
}
"""


def _app(asks: bool) -> type[QuietHandler]:
    class App(QuietHandler):
        items = [1, 2, 3]
        lock = threading.Lock()

        def do_GET(self) -> None:  # noqa: N802
            if self.path == "/api/items":
                with self.lock:
                    self.reply(200, json.dumps(self.items), "application/json")
                return
            script = APP_JS.replace("ASKS", "true" if asks else "false")
            self.reply(
                200, f'<!doctype html><html><body><div id="app"></div><script>{script}</script></body></html>'
            )

        def do_DELETE(self) -> None:  # noqa: N802
            n = int(self.path.rsplit("/", 1)[-1])
            with self.lock:
                if n in self.items:
                    self.items.remove(n)
            self.reply(204, b"")

    return App


def _judge(asks: bool) -> tuple[list[dict[str, object]], list[int]]:
    app = _app(asks)
    with browser_on(app) as engine:
        listing = engine.fetch("/")
        assert listing.page is not None and "/items/1/delete" in listing.page.body
        fetch = inspection._oracle_fetch(engine, reuse=False, version=None, guarded=False)
        config = OracleConfig(allow_destructive=True, opened_destructive={})
        findings = check_unconfirmed_destructive(listing.page, fetch, config)
        # a load that opens no destructive action still sends no write
        engine.fetch("/items/9")
    return [{"suspected": f.suspected, **f.evidence} for f in findings], list(app.items)


def test_a_client_route_that_deletes_once_mounted_is_confirmed_gone_from_the_rendered_list() -> None:
    findings, left = _judge(asks=False)
    first, *others = findings
    assert (first["suspected"], first["effect"]) == (False, "gone from the page that listed it")
    assert str(first["target"]).endswith("/items/1/delete")
    assert len(others) == 2 and not any(f["suspected"] for f in others)  # the other rows take its verdict
    assert left == [2, 3]  # the one control template was opened once


def test_a_client_route_that_asks_first_is_no_finding_and_deletes_nothing() -> None:
    findings, left = _judge(asks=True)
    assert findings == []
    assert left == [1, 2, 3]
