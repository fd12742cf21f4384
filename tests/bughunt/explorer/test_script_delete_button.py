"""A single-page app's Delete button with no address (`href="#"`, in a row menu a click opens): its
script sends `DELETE /api/items/<n>`. Nothing on the page says whether it asks first, so only a click
with the page's writes let through (`Engine.click_writes`, `--allow-destructive`) tells: a write the
server accepted with no dialog is the unconfirmed action; a `confirm()` (answered "cancel") clears it
and deletes nothing."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest

from bughunt.actions import Action
from bughunt.explorer.config import SessionConfig
from bughunt.explorer.factory import make_policy
from bughunt.explorer.loop import Explorer
from bughunt.explorer.store import ExplorerStore
from bughunt.oracles.base import OracleConfig
from bughunt.oracles.destructive import check_unconfirmed_destructive
from tests.support.engines import browser_on
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

APP_JS = """
const app = document.getElementById('app');
let open = null;
function draw(ids) {
  app.innerHTML = '<h1>Items</h1><table>' + ids.map(n => '<tr><td>Item ' + n + '</td><td>'
    + (MENU ? '<a href="#" class="menu" data-n="' + n + '">⋮</a>' : '')
    + ((!MENU || open === n) ? '<a href="#" class="delete" data-n="' + n + '">Delete</a>' : '')
    + '</td></tr>').join('') + '</table>';
}
function load() { fetch('/api/items').then(r => r.json()).then(draw); }
app.addEventListener('click', e => {
  const a = e.target.closest('a');
  if (!a) return;
  e.preventDefault();
  const n = Number(a.dataset.n);
  if (a.classList.contains('menu')) { open = n; load(); return; }
  if (!ASKS || confirm('Delete item ' + n + '?')) {
    fetch('/api/items/' + n, {method: 'DELETE'}).then(load);
  }
});
load();
"""


def _app(*, asks: bool, menu: bool) -> type[QuietHandler]:
    class App(QuietHandler):
        items = [1, 2, 3]
        lock = threading.Lock()

        def do_GET(self) -> None:  # noqa: N802
            if self.path == "/api/items":
                with self.lock:
                    self.reply(200, json.dumps(self.items), "application/json")
                return
            script = APP_JS.replace("ASKS", json.dumps(asks)).replace("MENU", json.dumps(menu))
            self.reply(
                200,
                "<!doctype html><html><head><title>Items</title></head><body><div id='app'></div>"
                f"<script>{script}</script></body></html>",
            )

        def do_DELETE(self) -> None:  # noqa: N802
            n = int(self.path.rsplit("/", 1)[-1])
            with self.lock:
                if n in self.items:
                    self.items.remove(n)
            self.reply(204, b"")

    return App


def _judge(asks: bool) -> tuple[list[dict[str, object]], list[int]]:
    app = _app(asks=asks, menu=False)
    with browser_on(app) as engine:
        listing = engine.fetch("/")
        assert listing.page is not None and "Delete" in listing.page.body
        url = listing.page.url

        def click(selector: str):  # type: ignore[no-untyped-def]
            return engine.click_writes(Action("click", url, "", selector))

        config = OracleConfig(allow_destructive=True, opened_destructive={}, click=click)
        findings = check_unconfirmed_destructive(listing.page, None, config)
        unread = check_unconfirmed_destructive(listing.page, None, OracleConfig(allow_destructive=True))
    assert unread == []  # without a click nothing is known of a script's button: not even a lead
    return [{"suspected": f.suspected, **f.evidence} for f in findings], list(app.items)


def test_a_delete_button_whose_click_deletes_without_asking_is_confirmed_by_the_write_it_sent() -> None:
    findings, left = _judge(asks=False)
    assert len(findings) == 1  # every row's button is one template, clicked once
    (found,) = findings
    assert found["suspected"] is False and found["observed"] is True and found["control"] == "script"
    assert "DELETE /api/items/1" in str(found["effect"])
    assert left == [2, 3]


def test_a_delete_button_that_asks_first_is_no_finding_and_deletes_nothing() -> None:
    findings, left = _judge(asks=True)
    assert findings == []
    assert left == [1, 2, 3]


def _explored(tmp_path: Path, *, asks: bool) -> tuple[list[tuple[str, str, bool]], list[int]]:
    app = _app(asks=asks, menu=True)
    store = ExplorerStore(tmp_path / "s")
    try:
        with browser_on(app, respect_robots=False) as engine:
            with make_policy("planner", store=store) as policy:
                config = SessionConfig(budget=6, retries=0, allow_destructive=True)
                Explorer(store, engine, policy, config).run()
        bugs = [
            (b.kind, b.route, json.loads(b.evidence).get("observed") is True)
            for b in store.bug_table.live()
            if b.kind == "unconfirmed_destructive"
        ]
    finally:
        store.close()
    return bugs, list(app.items)


def test_the_walk_defers_a_row_menus_delete_button_and_the_opening_clicks_it_on_its_state(
    tmp_path: Path,
) -> None:
    bugs, left = _explored(tmp_path, asks=False)
    assert bugs == [("unconfirmed_destructive", "/", True)]
    assert len(left) == 2  # one row deleted, once the walk was over


def test_a_row_menus_delete_button_that_asks_first_is_no_bug_of_the_walk(tmp_path: Path) -> None:
    bugs, left = _explored(tmp_path, asks=True)
    assert bugs == []
    assert left == [1, 2, 3]
