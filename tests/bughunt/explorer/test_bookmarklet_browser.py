"""A `javascript:` link the page's own Content-Security-Policy refuses to run (a bookmarklet: a link to drag
to the bookmarks bar, whose script runs on other sites) is no script error of the page when the explorer
clicks it (issue 25: a feed reader's "Subscribe" bookmarklet page was a clean-build report once the walk
reached it). An inline script the policy blocks is still the page's own error."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from bughunt.explorer.factory import make_engine
from tests.support.loopback import QuietHandler, serving

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")

_PAGES = {
    "/": '<h1>Tools</h1><p>Drag this to your bookmarks bar: <a href="javascript:(function(){alert(1)})()">Subscribe</a></p>'
    '<button type="button" id="more">More</button>',
    "/broken": "<h1>Broken</h1><script>document.title = 'x';</script>",
}


class _Handler(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802 — the http.server API
        body = _PAGES.get(self.path)
        if body is None:
            self.send_error(404)
            return
        data = f"<!doctype html><html><head><title>t</title></head><body>{body}</body></html>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Security-Policy", "default-src 'self'")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture(scope="module")
def engine() -> Iterator[object]:
    with serving(_Handler) as url:
        fetcher, _why = make_engine("browser", url + "/", timeout=10)
        try:
            yield fetcher
        finally:
            fetcher.close()


def test_a_bookmarklet_the_pages_policy_refuses_is_no_error_of_the_page(engine):
    home = engine.fetch("/").page
    clicks = [a for a in engine.actions(home) if a.kind == "click"]
    bookmarklet = [a for a in clicks if a.label == "Subscribe"]
    assert bookmarklet, [(a.kind, a.label) for a in engine.actions(home)]
    after = engine.perform(bookmarklet[0])
    assert after.page is not None
    assert [e for e in after.page.client_errors if e.kind == "console_error"] == []


def test_an_inline_script_the_policy_blocks_is_still_the_pages_error(engine):
    page = engine.fetch("/broken").page
    assert [e.kind for e in page.client_errors] == ["console_error"]
