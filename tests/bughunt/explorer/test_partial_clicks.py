"""A partial opened as a document (an htmx endpoint's rows, no title, no script of its own) offers its
links but no clicks: its handlers call functions of the page it is swapped into, so a click there does
nothing, and what it taught would hold for the same control on the real page. Which actions a page
offers is read from its HTML; a partial is known by what the server sent, not by the document a
script of it may have given a title."""

from __future__ import annotations

import shutil

import pytest

from bughunt.explorer.factory import make_engine
from bughunt.page import FetchedPage, is_fragment
from tests.support.loopback import QuietHandler, serving

ORIGIN = "http://app.test"
ROWS = (
    '<table><tr><td><a href="/items/1">one</a></td><td><div id="pagination">'
    '<button onclick="nextPage()"><svg></svg></button></div></td></tr></table>'
)


def _page(path: str, html: str) -> FetchedPage:
    return FetchedPage(ORIGIN + path, path, 200, {}, "text/html", html, 1.0)


def test_a_partial_offers_its_links_and_no_clicks_and_the_full_page_both() -> None:
    engine, _ = make_engine("browser", ORIGIN + "/", timeout=5)
    try:
        partial = engine.actions(_page("/api/items", ROWS))
        full = engine.actions(
            _page(
                "/items",
                f'<html><head><title>Items</title><script src="/app.js"></script></head><body>{ROWS}</body></html>',
            )
        )
    finally:
        engine.close()
    assert [a.kind for a in partial] == ["link"]
    assert [a.kind for a in full] == ["link", "click"]


class _Partials(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/robots.txt":
            self.reply(404, "", "text/plain")
        else:
            # A stored script in one row names the document: Chromium adds a <title> to the partial.
            self.reply(200, ROWS.replace("one</a>", "one</a><script>document.title='pwned'</script>"))


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")
def test_a_partial_whose_script_adds_a_title_is_still_read_as_a_partial() -> None:
    with serving(_Partials) as url:
        engine, _ = make_engine("browser", url + "/", timeout=10)
        try:
            page = engine.fetch("/api/items").page
            assert page is not None and page.title == "pwned" and page.served_fragment
            assert is_fragment(page)  # one instance samples its template, as over HTTP
            assert [a.kind for a in engine.actions(page)] == ["link"]
        finally:
            engine.close()
