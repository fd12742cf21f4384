"""A partial opened as a document (an htmx endpoint's rows, no title, no script of its own) offers its
links but no clicks: its handlers call functions of the page it is swapped into, so a click there does
nothing, and what it taught would hold for the same control on the real page. Chromium is not
started: which actions a page offers is read from its HTML."""

from __future__ import annotations

from bughunt.explorer.factory import make_engine
from bughunt.page import FetchedPage

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
