"""A framework's debug page for an uncaught exception answers 500 and carries controls that open its
details in place (the traceback's frames, the request's headers). Clicking one loads no document: the
state it leaves is still that 500 answer. Read as a page that answered 200, its "Server Error" heading
made the soft-error reading report the same failure a second time, under another fingerprint (issue
25; corpus ho12_minion, Mojolicious's development exception page)."""

from __future__ import annotations

import shutil

import pytest

from tests.support.engines import explored_in_browser
from tests.support.loopback import QuietHandler

DEBUG_PAGE = (
    "<html><head><title>Server Error</title></head><body><div class='box'><h1>Server Error</h1>"
    "<p>This application is in development mode.</p>"
    "<button id='more' onclick=\"document.getElementById('frames').hidden = !document.getElementById("
    "'frames').hidden\">Show the frames</button></div>"
    "<div id='frames' hidden><pre>at template workers.html line 6\nCan't use string as an ARRAY ref</pre>"
    "</div></body></html>"
)
HOME = "<html><head><title>Home</title></head><body><h1>Home</h1><a href='/workers'>Workers</a></body></html>"


class Handler(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path == "/robots.txt":
            return self.reply(404, "")
        if self.path.startswith("/workers"):
            return self.reply(500, DEBUG_PAGE)
        return self.reply(200, HOME)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")
def test_a_click_in_place_on_a_500_page_is_that_500_one_bug(tmp_path) -> None:
    with explored_in_browser(Handler, tmp_path / "store", budget=6) as (store, _):
        steps = store.history.steps()
        bugs = [b for b in store.bug_table.live() if b.kind == "server_error"]
    clicked = [s for s in steps if "#click-" in s.route]
    # the debug page's button was clicked, and the state it left keeps the document's answer
    assert clicked, [s.route for s in steps]
    assert all(s.status == 500 for s in clicked), [(s.route, s.status) for s in clicked]
    # one failure, one report: no "answered below 500 but shows the site's error page" beside the 500
    assert len(bugs) == 1, [(b.route, b.message) for b in bugs]
    assert bugs[0].message.startswith("HTTP 500")
