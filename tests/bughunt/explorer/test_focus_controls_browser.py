"""Controls a script made focusable (`tabindex="0"`) are clicked: a records table whose rows open the
record through the page's script (a handler set with `addEventListener`, no attribute shows it) and whose
column headers sort the list. A row's request that the server answers 500 is found through the row's
click; a landmark or a scroll box made focusable is no control."""

from __future__ import annotations

import json
import shutil
from urllib.parse import urlsplit

import pytest

from bughunt.dom import parse_html
from bughunt.focus_controls import focus_control
from tests.support.engines import explored_in_browser
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

SCRIPT = """
for (const row of document.querySelectorAll('tbody tr')) {
  row.addEventListener('click', function () {
    fetch('/api/books/' + row.dataset.id).then(r => r.json()).then(function (book) {
      document.getElementById('panel').innerHTML = '<h2>' + book.title + '</h2>';
    }, function () {});
  });
}
"""


class _Books(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = urlsplit(self.path).path
        if path == "/app.js":
            return self.reply(200, SCRIPT, "application/javascript")
        if path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        if path.startswith("/api/books/"):
            book = path.rsplit("/", 1)[1]
            if book == "2":  # the fault: one record's view answers 500
                return self.reply(500, '{"message": "boom"}', "application/json")
            return self.reply(200, json.dumps({"title": f"Book {book}"}), "application/json")
        rows = "".join(
            f'<tr tabindex="0" data-id="{n}"><td>Book {n}</td><td>{1990 + n}</td></tr>' for n in (1, 2)
        )
        self.reply(
            200,
            "<html><head><title>Books</title></head><body><main><table><thead><tr><th>title</th><th>year</th>"
            f'</tr></thead><tbody>{rows}</tbody></table><aside id="panel"></aside></main>'
            '<script src="/app.js"></script></body></html>',
        )


def test_a_row_a_script_made_focusable_is_clicked_and_its_failed_request_found(tmp_path) -> None:
    with explored_in_browser(_Books, tmp_path / "s", 4) as (store, _engine):
        bugs = [b for b in store.bug_table.all() if b.kind == "server_error"]
        assert [b.route for b in bugs] == ["/api/books/2"], [s.route for s in store.history.steps()]


@pytest.mark.parametrize(
    ("markup", "control"),
    [
        ('<table><tr tabindex="0"><td>Book</td></tr></table>', True),
        ('<table><tr><th tabindex="0">title</th></tr></table>', True),
        ('<div tabindex="0">a card</div>', True),
        ('<table><tr tabindex="-1"><td>Book</td></tr></table>', False),
        ('<pre tabindex="0">code</pre>', False),
        ('<div tabindex="0" role="region">a scroll box</div>', False),
        ('<input tabindex="0" name="q">', False),
        ('<div tabindex="x">odd</div>', False),
    ],
)
def test_focus_controls(markup: str, control: bool) -> None:
    node = next(n for n in parse_html(markup).iter() if "tabindex" in n.attrs)
    assert focus_control(node) is control
