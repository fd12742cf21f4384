"""A list that grows in place under a "Load more" button is paged by that button: it is offered (a
submit button whose handler a script set as a property, no attribute showing it, was never a click) and
wanted like a pager's way on, so the batch it appends is compared with the items shown before the
click: a batch that starts again with the last item shown is a `duplicate_pagination` (a feed reader's
stream, whose next batch began with the item that ended the first)."""

from __future__ import annotations

import json
import shutil
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.support.engines import explored_in_browser
from tests.support.loopback import QuietHandler

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

SCRIPT = """
const more = document.getElementById('load_more');
more.onclick = function () {
  fetch(more.getAttribute('formaction')).then(r => r.json()).then(function (batch) {
    const stream = document.getElementById('stream');
    for (const n of batch.items) {
      const div = document.createElement('div'); div.className = 'flux';
      div.innerHTML = '<a class="title" href="/item/' + n + '">Story ' + n + '</a><p>What happened in story ' + n + '.</p>';
      stream.insertBefore(div, document.getElementById('stream-footer'));
    }
    if (batch.next) { more.setAttribute('formaction', '/?next=' + batch.next + '&ajax=1'); } else { more.remove(); }
  });
  return false;
};
"""


def _items(ids: range) -> str:
    return "".join(
        f'<div class="flux"><a class="title" href="/item/{n}">Story {n}</a><p>What happened in story {n}.</p></div>'
        for n in ids
    )


class _Feed(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if url.path == "/app.js":
            return self.reply(200, SCRIPT, "application/javascript")
        if url.path == "/robots.txt":
            return self.reply(404, "", "text/plain")
        if "next" in query:
            start = int(query["next"][0])
            # the fault: the batch starts again with the last item the page before showed
            return self.reply(
                200, json.dumps({"items": list(range(start - 1, start + 4)), "next": 0}), "application/json"
            )
        if url.path.startswith("/item/"):
            return self.reply(
                200,
                f"<html><head><title>Story</title></head><body><h1>Story {url.path[6:]}</h1></body></html>",
            )
        self.reply(
            200,
            '<html><head><title>Stream</title></head><body><main id="stream">'
            + _items(range(1, 6))
            + '<form id="stream-footer" method="post"><button id="load_more" type="submit" formaction="/?next=6&ajax=1">'
            'Load more</button></form></main><script src="/app.js"></script></body></html>',
        )


def test_a_load_more_batch_that_repeats_the_last_item_shown_is_found(tmp_path) -> None:
    with explored_in_browser(_Feed, tmp_path / "s", 4) as (store, _engine):
        bugs = [b for b in store.bug_table.all() if b.kind == "duplicate_pagination"]
        assert bugs, [s.route for s in store.history.steps()]


@pytest.mark.parametrize(
    ("control", "is_more"),
    [
        ('<button type="button" onclick="load()">Load more</button>', True),
        ('<button id="m" type="submit" formaction="/?next=3">Show more articles</button>', True),
        ('<a href="#" onclick="more()">See more…</a>', True),
        ('<button type="button" aria-haspopup="true">More</button>', False),  # opens a menu
        ('<button type="button" data-toggle="dropdown">More</button>', False),
        ('<button type="button" onclick="x()">More options</button>', False),
        ('<button type="button" onclick="x()" disabled>Load more</button>', False),
        ('<nav><button type="button" onclick="x()">More</button></nav>', False),  # the chrome's menu
        ('<button type="button" onclick="x()">Learn more about our plans today</button>', False),
    ],
)
def test_a_load_more_control_is_read_on_its_words_outside_menus(control: str, is_more: bool) -> None:
    from bughunt.explorer.more_controls import more_controls
    from bughunt.page import FetchedPage

    html = f"<html><body><main><ul><li>a</li><li>b</li></ul>{control}</main></body></html>"
    page = FetchedPage("http://t.test/", "/", 200, {}, "text/html", html, 1.0)
    assert bool(more_controls(page)) is is_more
