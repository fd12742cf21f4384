"""A single-page app's shell read before the app drew is read again once it drew (issue 25, held-out set
17: Uptime Kuma's pages were read as its empty shell, its XSS and edit-form pages among them).

The site is a small SPA of our own: every path answers one shell (an empty root, a `<noscript>` line, a
script) whose script draws the view 1.5 s after `load` — as an app waits for its socket's first data —
out of reach of the page's own record (a timer due later than the watched read looks ahead). A page
that stays a shell is read at the bound, not waited for without end.
"""

from __future__ import annotations

import shutil
import time

import pytest

from bughunt.explorer.app_shell import SHELL_WAIT_S
from tests.support.engines import browser_on
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

_DRAW = """
setTimeout(() => {
  const items = [1, 2, 3, 4, 5].map((n) => `<li><a href="/items/${n}">Item ${n} of the stock list</a></li>`);
  document.getElementById('app').innerHTML =
    '<h1>Stock</h1><p>Every item in the warehouse, with its shelf and the count on hand.</p><ul>' +
    items.join('') + '</ul>';
}, DELAY);
"""


def _handler(delay_ms: int) -> type[QuietHandler]:
    script = _DRAW.replace("DELAY", str(delay_ms))

    class Shell(QuietHandler):
        def do_GET(self) -> None:  # noqa: N802 — the http.server API
            if self.path == "/robots.txt":
                self.send_error(404)
                return
            self.reply(
                200,
                "<!doctype html><html><head><title>Stock</title></head><body><div id=app></div>"
                f"<noscript>This app needs JavaScript.</noscript><script>{script}</script></body></html>",
            )

    return Shell


def test_a_shell_read_before_the_app_drew_is_read_once_it_drew() -> None:
    with browser_on(_handler(1500)) as engine:
        result = engine.fetch("/")
        assert result.page is not None
        assert "Item 3 of the stock list" in result.page.body
        assert any(a.target.endswith("/items/3") for a in engine.actions(result.page))


def test_a_page_that_stays_a_shell_is_read_at_the_bound() -> None:
    with browser_on(_handler(600_000)) as engine:
        started = time.monotonic()
        result = engine.fetch("/")
        assert result.page is not None and "Item 3 of the stock list" not in result.page.body
        assert time.monotonic() - started < SHELL_WAIT_S + 8
